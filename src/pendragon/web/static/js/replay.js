// The replay of a finished game: every position, move by move, with every secret revealed.
// Each step's events are the informed version (the actor's, or whoever drew the card).
import { $, el, fetchJson, fill } from "./dom.js";
import { initI18n, languageSwitcher, renderEvent, renderEvents, t } from "./i18n.js";
import { onScreenWidthChange, seatBaseName, seatColor } from "./common.js";
import { unpressed } from "./press.js";
import { markBadge, reviewPanel } from "./review.js";

const token = decodeURIComponent(location.hash.slice(1));
let game = null;
let replay = null; // {table, length, steps, returns}
let position = null; // {version, observations, spectator}
let version = 0;
let playing = null;
const cache = new Map();

function seatName(seat) {
  const info = replay.table.seats.find((s) => s.seat === seat);
  return seatBaseName(info, seat, game, position ? position.spectator : null);
}

function context(obs) {
  const ctx = { t, me: null, seatName, seatColor, seats: replay.table.seats, obs, finished: true };
  const label = (seat) => (game.seatLabel ? game.seatLabel(seat, obs, ctx) : seatName(seat));
  ctx.events = { me: null, seatName: label };
  return ctx;
}

function resultText(obs, ctx) {
  if (game.resultText) return game.resultText(obs, ctx);
  return t("table.game_over", { returns: (replay.returns || []).join(" / ") });
}

/** What the position awaits: whose move and which decision (or the result). */
function statusText(obs, ctx) {
  if (position.finished) return resultText(obs, ctx);
  const what = renderEvent(position.decision, ctx.events);
  if (position.to_act === null || position.to_act === undefined) return what;
  return t("table.waiting", { who: ctx.events.seatName(position.to_act), what });
}

async function load(target) {
  const wanted = Math.max(0, Math.min(replay.length, target));
  version = wanted;
  if (!cache.has(wanted)) {
    const fetched = await fetchJson(`/api/replay/${wanted}`, { headers: { Authorization: `Bearer ${token}` } });
    cache.set(wanted, fetched);
  }
  // A quicker click may have asked for another position while this one was on its way:
  // only the latest request is drawn.
  if (version !== wanted) return;
  position = cache.get(wanted);
  unpressed(render); // a step played on its own waits for a press (Pause) under way
}

function nextDecision(direction) {
  let v = version + direction;
  while (v > 0 && v < replay.length && replay.steps[v - 1] && replay.steps[v - 1].s === null) v += direction;
  return v;
}

function controls() {
  const slider = el("input", { type: "range", min: 0, max: replay.length, value: version, "aria-label": t("replay.position"), "data-testid": "replay-slider" });
  slider.addEventListener("change", () => load(Number(slider.value)));
  const button = (label, target, testid) => {
    const b = el("button", { type: "button", "data-testid": testid }, label);
    b.addEventListener("click", () => load(target()));
    return b;
  };
  const play = el("button", { type: "button", "data-testid": "replay-play" }, playing ? t("replay.pause") : t("replay.play"));
  play.addEventListener("click", () => {
    if (playing) {
      clearInterval(playing);
      playing = null;
      render();
      return;
    }
    if (version >= replay.length) version = 0;
    playing = setInterval(() => {
      if (version >= replay.length) {
        clearInterval(playing);
        playing = null;
        render();
        return;
      }
      load(nextDecision(1));
    }, 700);
    render();
  });
  return el("section", { class: "panel replay-controls" },
    button("«", () => 0, "replay-first"),
    button("◀", () => nextDecision(-1), "replay-prev"),
    play,
    button("▶", () => nextDecision(1), "replay-next"),
    button("»", () => replay.length, "replay-last"),
    slider,
    el("span", { class: "replay-step", "data-testid": "replay-step" }, t("replay.step", { n: version, total: replay.length })));
}

/** Save the game's record file (docs/records.md): fetched with the token, which a plain
 * link could not send. */
async function downloadRecord() {
  const response = await fetch("/api/replay/record", { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return;
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: named ? named[1] : "record.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function render() {
  const obs = game.revealAll ? game.revealAll(position.spectator, position.observations) : position.spectator;
  const ctx = context(obs);
  const steps = replay.steps.slice(0, version);
  // The review's marks on the moves (issue 31, item 3), once it is done.
  const lines = steps.slice(-400).map((entry) => el("li", { class: `log-line ${entry.s === null ? "chance" : ""}`, "data-i": entry.i },
    renderEvents(entry.events, ctx.events), markBadge(entry.i, ctx.events)));
  const log = el("ol", { class: "log", "data-testid": "log" }, lines);
  requestAnimationFrame(() => (log.scrollTop = log.scrollHeight));
  const status = statusText(obs, ctx);
  fill($("#app"),
    el("header", { class: "top" },
      el("a", { href: "/", class: "home" }, t("app.title")),
      el("span", { class: "game-name" }, t(`game.${replay.table.game}`, {}, replay.table.game)),
      el("span", { class: "role" }, t("replay.title")),
      el("span", { class: "status", "data-testid": "status", title: status }, status),
      el("div", { class: "spacer" }),
      languageSwitcher(render)),
    el("main", { class: "table" },
      el("div", { class: "board-column" },
        controls(),
        el("section", { class: "panel board", "data-testid": "board" }, game.drawBoard(obs, ctx)),
        game.drawTable ? game.drawTable(obs, ctx) : null,
        game.drawSecrets ? game.drawSecrets(position.observations, ctx) : null),
      el("div", { class: "side-column" },
        el("section", { class: "panel" }, el("h2", {}, t("replay.final")), el("p", { class: "result" }, resultText(cache.get(replay.length)?.spectator || obs, ctx)),
          el("button", { type: "button", "data-testid": "replay-download", on: { click: downloadRecord } }, t("replay.download"))),
        reviewPanel({ token, length: replay.length, version, jump: load, seatName, events: ctx.events, onChange: () => unpressed(render) }),
        el("section", { class: "panel log-panel" }, el("h2", {}, t("table.log")), log))));
  document.title = `${t("replay.title")} — ${t("app.title")}`;
}

async function main() {
  await initI18n();
  try {
    replay = await fetchJson("/api/replay", { headers: { Authorization: `Bearer ${token}` } });
  } catch (error) {
    fill($("#app"), el("main", { class: "fatal" }, el("p", { class: "error" }, t(`error.${error.code}`, {}, error.message)),
      el("a", { href: "/" }, t("table.back_home"))));
    return;
  }
  game = await import(`/games/${encodeURIComponent(replay.table.game)}/board.js`);
  await load(replay.length);
  onScreenWidthChange(render);
  // Another game's link typed into this tab: show that game (issue 39, item 4).
  window.addEventListener("hashchange", () => location.reload());
}

main();
