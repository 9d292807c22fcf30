// The lobby's open tables (issue 17, item 10): the tables their hosts listed, with their
// free seats and options, each free seat with "Sit here"; and the new table's own settings
// (listed or private, a turn timer). See docs/web.md, "The lobby's open tables".
import { el, fetchJson } from "./dom.js";
import { t } from "./i18n.js";
import { heldTokens } from "./seats.js";

/** What the host chose for the new table, sent with POST /api/tables. */
export const tableSettings = { listed: false, turn_timer: 0, hints: false };

let lobby = { tables: [], turn_timers: [0] }; // the answer of GET /api/lobby
let problem = null;
let sitterName = "";
let sitting = false;

/** Fetch the open tables (and the turn timers a host may choose). */
export async function loadOpenTables() {
  try {
    lobby = await fetchJson("/api/lobby");
    problem = null;
  } catch (error) {
    problem = error.message;
  }
}

/** The new table's fields: listed in the lobby (off: private), and its turn timer. */
export function settingsFields() {
  const listed = el("input", { type: "checkbox", id: "listed", "data-testid": "listed", checked: tableSettings.listed });
  listed.addEventListener("change", () => (tableSettings.listed = listed.checked));
  const timer = el(
    "select",
    { id: "turn-timer", "data-testid": "turn-timer" },
    lobby.turn_timers.map((seconds) =>
      el("option", { value: seconds, selected: seconds === tableSettings.turn_timer },
        seconds ? t("lobby.turn_timer_seconds", { n: seconds }) : t("lobby.turn_timer_none"))),
  );
  timer.addEventListener("change", () => (tableSettings.turn_timer = Number(timer.value)));
  // Hints on request (issue 31, item 2): off unless the host allows them.
  const hints = el("input", { type: "checkbox", id: "hints", "data-testid": "hints", checked: tableSettings.hints });
  hints.addEventListener("change", () => (tableSettings.hints = hints.checked));
  return el("fieldset", { class: "table-settings" },
    el("div", { class: "field check" }, listed, el("label", { for: "listed" }, t("lobby.listed")),
      el("small", { class: "help" }, t("lobby.listed_help"))),
    el("div", { class: "field check" }, hints, el("label", { for: "hints" }, t("lobby.hints")),
      el("small", { class: "help" }, t("lobby.hints_help"))),
    el("div", { class: "field" }, el("label", { for: "turn-timer" }, t("lobby.turn_timer")), timer,
      el("small", { class: "help" }, t("lobby.turn_timer_help"))));
}

function optionText(game, name, value) {
  const label = t(`opt.${game}.${name}`, {}, name);
  let shown;
  if (value === true) shown = t("term.yes");
  else if (value === false) shown = t("term.no");
  else shown = t(`opt.${game}.${name}.${value === null ? "null" : value}`, {}, value === null ? "—" : String(value));
  return `${label}: ${shown}`;
}

async function sit(entry, seat, rerender) {
  if (sitting) return;
  sitting = true;
  try {
    const answer = await fetchJson(`/api/lobby/${encodeURIComponent(entry.table)}/seats/${seat}/sit`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // The seats this browser holds (or held) there: one person, one seat's secrets.
      body: JSON.stringify({ name: sitterName, held: heldTokens(entry.table) }),
    });
    location.assign(answer.link);
  } catch (error) {
    sitting = false;
    await loadOpenTables(); // the seat may have gone: show the list as it is now
    problem = t(`error.${error.code}`, {}, "") || error.message;
    rerender();
  }
}

// The options a table changed from its game's defaults (all of them if the game is unknown).
function changedOptions(entry, games) {
  const game = games && games.games.find((g) => g.name === entry.game);
  const defaults = new Map((game ? game.options : []).map((spec) => [spec.name, spec.default]));
  return Object.entries(entry.options)
    .filter(([name, value]) => name !== "players" && (!defaults.has(name) || defaults.get(name) !== value));
}

function tableEntry(entry, rerender, games) {
  const options = changedOptions(entry, games).map(([name, value]) => optionText(entry.game, name, value));
  const seats = entry.seats.map((seat) => {
    const who = seat.kind === "bot"
      ? t(`bot.${seat.bot}`, {}, seat.bot || t("lobby.bot"))
      : seat.name || (seat.free ? t("lobby.free") : t("lobby.human"));
    const sitButton = seat.free
      ? el("button", { type: "button", class: "small primary", "data-testid": `sit-${entry.table}-${seat.seat}` }, t("lobby.sit"))
      : null;
    if (sitButton) sitButton.addEventListener("click", () => sit(entry, seat.seat, rerender));
    return el("li", { class: `open-seat ${seat.free ? "free" : ""}` },
      el("span", { class: "seat-no" }, t("lobby.seat_n", { n: seat.seat + 1 })), " ", el("span", {}, who), " ", sitButton);
  });
  const created = new Date(entry.created_at * 1000).toLocaleTimeString(document.documentElement.lang || undefined,
    { hour: "2-digit", minute: "2-digit" });
  return el("li", { class: "open-table", "data-testid": "open-table", "data-table": entry.table },
    el("div", { class: "open-table-head" },
      el("strong", {}, t(`game.${entry.game}`, {}, entry.game)),
      el("span", { class: "badge" }, entry.turn_timer ? t("lobby.timer_badge", { n: entry.turn_timer }) : t("lobby.no_timer_badge")),
      el("span", { class: "muted small" }, t("lobby.created_at", { time: created }))),
    options.length ? el("p", { class: "muted small open-table-options" }, options.join(" · ")) : null,
    el("ul", { class: "open-seats" }, seats));
}

/** The panel of open tables; `rerender` redraws the lobby (after a refresh or a failure);
 * `games`: GET /api/games (a table shows only the options it changed from the defaults). */
export function openTablesPanel(rerender, games) {
  const refresh = el("button", { type: "button", class: "small", "data-testid": "lobby-refresh" }, t("lobby.refresh"));
  refresh.addEventListener("click", async () => {
    await loadOpenTables();
    rerender();
  });
  const name = el("input", { type: "text", maxlength: 40, value: sitterName, placeholder: t("lobby.name"),
    "aria-label": t("lobby.name"), "data-testid": "sitter-name" });
  name.addEventListener("input", () => (sitterName = name.value));
  const list = lobby.tables.length
    ? el("ul", { class: "open-tables", "data-testid": "open-tables" }, lobby.tables.map((entry) => tableEntry(entry, rerender, games)))
    : el("p", { class: "muted", "data-testid": "no-open-tables" }, t("lobby.no_open_tables"));
  return el("section", { class: "panel open-tables-panel", "data-testid": "lobby-list" },
    el("h2", {}, t("lobby.open_tables"), " ", refresh),
    el("p", { class: "muted small" }, t("lobby.open_tables_help")),
    lobby.tables.length ? name : null,
    problem ? el("p", { class: "error", role: "alert" }, problem) : null,
    list);
}
