// The lobby: create a table (game, options, seats, bots) and hand out the links.
import { linkField } from "./common.js";
import { $, el, fetchJson, fill } from "./dom.js";
import { initI18n, languageSwitcher, t } from "./i18n.js";
import { loadOpenTables, openTablesPanel, settingsFields, tableSettings } from "./lobby_list.js";

let catalog = null; // /api/games
const boards = new Map(); // game -> its board module (which says which options apply)
const model = { game: null, seats: [], options: {}, joinMidGame: false };
let created = null; // the answer of POST /api/tables
let problem = null;

function gameInfo() {
  return catalog.games.find((g) => g.name === model.game);
}

// The bots this game may seat, its table bot first: the generic ones and its own.
function gameBots() {
  return gameInfo().bots;
}

function resetSeats(count) {
  const seats = [];
  for (let i = 0; i < count; i++) {
    seats.push(model.seats[i] || { kind: i === 0 ? "human" : "bot", name: "", bot: gameBots()[0] });
  }
  model.seats = seats;
}

function chooseGame(name) {
  model.game = name;
  const info = gameInfo();
  model.options = {};
  model.joinMidGame = false; // the host's choice, off by default (issue 17, item 3)
  for (const spec of info.options) model.options[spec.name] = spec.default;
  for (const seat of model.seats) seat.bot = gameBots()[0]; // the new game's table bot
  resetSeats(info.default_players);
}

/** The game's options that apply with the others chosen (issue 39, item 13): its board
 * module's `optionApplies(name, options, players)` (Merlin's Company's settings only with
 * the expansion). An option hidden goes back to its default. */
function shownOptions(info) {
  const board = boards.get(model.game);
  const applies = board && board.optionApplies ? board.optionApplies : () => true;
  return info.options.filter((spec) => {
    const shown = applies(spec.name, model.options, model.seats.length);
    if (!shown) model.options[spec.name] = spec.default;
    return shown;
  });
}

/** A choice's words begin with a capital (issue 39, item 13: "standard", "jeden rytíř ..."). */
function capitalized(text) {
  return text ? text.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + text.slice(1) : text;
}

function optionLabel(spec) {
  return t(`opt.${model.game}.${spec.name}`, {}, spec.name);
}

function optionField(spec) {
  const id = `opt-${spec.name}`;
  const value = model.options[spec.name];
  const help = t(`opt.${model.game}.${spec.name}.help`, {}, spec.help);
  let input;
  if (spec.type === "bool") {
    input = el("input", { type: "checkbox", id, checked: Boolean(value), "data-testid": `option-${spec.name}` });
    input.addEventListener("change", () => {
      model.options[spec.name] = input.checked;
      render(); // the options that depend on it appear or go
    });
  } else if (spec.choices) {
    input = el(
      "select",
      { id, "data-testid": `option-${spec.name}` },
      spec.choices.map((choice) =>
        el("option", { value: String(choice), selected: choice === value },
          capitalized(t(`opt.${model.game}.${spec.name}.${choice}`, {}, String(choice)))),
      ),
    );
    input.addEventListener("change", () => {
      const picked = spec.choices.find((c) => String(c) === input.value);
      model.options[spec.name] = picked;
      render();
    });
  } else if (spec.type === "int") {
    input = el("input", { type: "number", id, value: value ?? "", min: spec.minimum ?? undefined,
      max: spec.maximum ?? undefined });
    input.addEventListener("change", () => {
      model.options[spec.name] = input.value === "" && spec.nullable ? null : Number.parseInt(input.value, 10);
    });
  } else {
    input = el("input", { type: "text", id, value: value ?? "", maxlength: 100 });
    input.addEventListener("change", () => (model.options[spec.name] = input.value));
  }
  return el("div", { class: "field" }, el("label", { for: id }, optionLabel(spec)), input,
    el("small", { class: "help" }, help));
}

// The host chooses among the bots by what they do ("bot.<name>.choice"); at the table every
// bot bears a neutral label ("bot.<name>": "Bot", "Bot (strong)"), which never says who is
// the traitor (issue 27, item 7).
function botChoice(name) {
  return t(`bot.${name}.choice`, {}, t(`bot.${name}`, {}, name));
}

/** What each of this game's bots does, folded under the seat list. */
function botsHelp() {
  return el("details", { class: "bots-help", "data-testid": "bots-help" },
    el("summary", {}, t("lobby.bots_help_title")),
    el("ul", {}, gameBots().map((b) => el("li", { "data-bot": b }, el("strong", {}, botChoice(b)), " — ", t(`bot.${b}.help`, {}, "")))),
    el("p", { class: "muted small" }, t("lobby.bots_help_table")));
}

function seatRow(seat, index) {
  const kind = el(
    "select",
    { "data-testid": `seat-kind-${index}`, "aria-label": t("lobby.seat_kind") },
    el("option", { value: "human", selected: seat.kind === "human" }, t("lobby.human")),
    // A seat left open to anyone: the only kind a listed table offers in the lobby.
    el("option", { value: "open", selected: seat.kind === "open" }, t("lobby.open_seat")),
    el("option", { value: "bot", selected: seat.kind === "bot" }, t("lobby.bot")),
  );
  kind.addEventListener("change", () => {
    seat.kind = kind.value;
    render();
  });
  const name = el("input", { type: "text", maxlength: 40, value: seat.name, placeholder: t("lobby.name"),
    "data-testid": `seat-name-${index}`, "aria-label": t("lobby.name") });
  name.addEventListener("input", () => (seat.name = name.value));
  const bot = el(
    "select",
    { "data-testid": `seat-bot-${index}`, "aria-label": t("lobby.which_bot") },
    gameBots().map((b) => el("option", { value: b, selected: b === seat.bot }, botChoice(b))),
  );
  bot.addEventListener("change", () => (seat.bot = bot.value));
  return el("li", { class: "seat-row" }, el("span", { class: "seat-no" }, t("lobby.seat_n", { n: index + 1 })),
    kind, seat.kind === "bot" ? bot : seat.kind === "human" ? name : "");
}

function form() {
  const info = gameInfo();
  const gameSelect = el(
    "select",
    { id: "game", "data-testid": "game" },
    catalog.games.map((g) => el("option", { value: g.name, selected: g.name === model.game },
      t(`game.${g.name}`, {}, g.title || g.long_name))),
  );
  gameSelect.addEventListener("change", () => {
    chooseGame(gameSelect.value);
    render();
  });
  const counts = [];
  for (let n = info.min_players; n <= info.max_players; n++) counts.push(n);
  const seatCount = el("select", { id: "seats", "data-testid": "seat-count" },
    // A table size the rulebook does not cover is labelled by the game's catalog
    // ("game.<game>.players.<n>", its note "...help"): the project's variant, not the rules.
    counts.map((n) => el("option", { value: n, selected: n === model.seats.length },
      t(`game.${model.game}.players.${n}`, {}, String(n)))));
  const seatNote = t(`game.${model.game}.players.${model.seats.length}.help`, {}, "");
  seatCount.addEventListener("change", () => {
    resetSeats(Number(seatCount.value));
    render();
  });
  const submit = el("button", { type: "submit", class: "primary", "data-testid": "create" }, t("lobby.create"));
  const formNode = el(
    "form",
    { class: "panel create" },
    el("h2", {}, t("lobby.new_table")),
    el("div", { class: "field" }, el("label", { for: "game" }, t("lobby.game")), gameSelect),
    el("div", { class: "field" }, el("label", { for: "seats" }, t("lobby.seats")), seatCount,
      seatNote ? el("small", { class: "help", "data-testid": "seat-count-note" }, seatNote) : null),
    el("ol", { class: "seat-list" }, model.seats.map(seatRow)),
    botsHelp(),
    info.options.length ? el("fieldset", {}, el("legend", {}, t("lobby.options")), shownOptions(info).map(optionField)) : null,
    settingsFields(),
    joinField(info),
    problem ? el("p", { class: "error", role: "alert" }, problem) : null,
    submit,
  );
  formNode.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    problem = null;
    try {
      created = await fetchJson("/api/tables", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          game: model.game,
          options: model.options,
          seats: model.seats.map((s) => (s.kind === "human" ? { kind: "human", name: s.name }
            : s.kind === "open" ? { kind: "human", open: true } : { kind: "bot", bot: s.bot })),
          ...tableSettings,
          join_mid_game: Boolean(info.join_mid_game && model.joinMidGame),
        }),
      });
    } catch (error) {
      problem = t(`error.${error.code}`, {}, "") ? `${t(`error.${error.code}`, {}, "")} (${error.message})` : error.message;
    }
    render();
  });
  return formNode;
}

// Joining mid-game: a table option, offered only where the game can seat a newcomer.
function joinField(info) {
  if (!info.join_mid_game) return null;
  const input = el("input", { type: "checkbox", id: "join-mid-game", checked: model.joinMidGame, "data-testid": "join-mid-game" });
  input.addEventListener("change", () => (model.joinMidGame = input.checked));
  return el("div", { class: "field" }, el("label", { for: "join-mid-game" }, t("lobby.join_mid_game")), input);
}

function linkRow(label, path, testid) {
  return el("li", { class: "link-row" }, el("span", { class: "link-label" }, label),
    ...linkField(path, testid),
    el("a", { href: path, target: "_blank", rel: "noopener noreferrer", class: "button small" }, t("lobby.open")));
}

function links() {
  const rows = created.seats.map((seat, i) => {
    if (!seat.link) {
      return el("li", { class: "link-row bot" }, el("span", { class: "link-label" }, t("lobby.seat_n", { n: i + 1 })),
        el("span", {}, t("lobby.bot_plays", { bot: botChoice(model.seats[i].bot) })));
    }
    const name = model.seats[i].name ? ` — ${model.seats[i].name}` : "";
    return linkRow(t("lobby.seat_n", { n: i + 1 }) + name, seat.link, `link-seat-${i}`);
  });
  const again = el("button", { type: "button" }, t("lobby.another"));
  again.addEventListener("click", () => {
    created = null;
    render();
  });
  return el("section", { class: "panel links" }, el("h2", {}, t("lobby.links_title")),
    el("p", {}, t("lobby.links_help")), el("ul", {}, rows),
    el("h3", {}, t("lobby.spectators")), el("ul", {}, linkRow(t("lobby.spectator_link"), created.spectator.link, "link-spectator")),
    el("h3", {}, t("lobby.host_link")), el("p", { class: "muted" }, t("lobby.host_help")),
    el("ul", {}, linkRow(t("lobby.host_link"), created.host.link, "link-host")),
    again);
}

function render() {
  const header = el("header", { class: "top" }, el("h1", {}, t("app.title")),
    el("span", { class: "tagline" }, t("app.tagline")), el("div", { class: "spacer" }), languageSwitcher(render));
  fill($("#app"), header, el("main", { class: "lobby" }, created ? links() : form(), openTablesPanel(render, catalog)));
  document.title = t("app.title");
}

async function main() {
  await initI18n();
  catalog = await fetchJson("/api/games");
  // Each game's board module says which of its options apply (a module that fails to load
  // shows every option).
  await Promise.all(catalog.games.map(async (g) => {
    try {
      boards.set(g.name, await import(`/games/${encodeURIComponent(g.name)}/board.js`));
    } catch (error) {
      boards.set(g.name, null);
    }
  }));
  await loadOpenTables();
  chooseGame(catalog.games[0].name);
  render();
}

main().catch((error) => {
  fill($("#app"), el("p", { class: "error" }, String(error.message || error)));
});
