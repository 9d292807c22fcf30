// The Sword in the Stone on the table page: the stone (SVG), the seats' badges, the
// viewer's hand, the result, and the replay's view of every hand. Input: observation
// dicts only (pendragon_sword_stone/rules/game.py documents their fields). The log, the action
// buttons and the decision under way are events worded by the page itself.
// Served at /games/sword-stone/board.js, so the page's modules are imported by absolute path.
import { el, svg } from "/static/js/dom.js";
import { seatFill } from "/static/js/common.js";

const CARD_KEYS = { 1: "faith", 2: "valour", 3: "honour", 4: "strength", 5: "destiny" };
const tr = (ctx, key, params) => ctx.t(`sword-stone.${key}`, params || {});
const cardName = (ctx, value) => tr(ctx, `card.${CARD_KEYS[value]}`);

function cardList(ctx, values, testid) {
  if (!values.length) return el("p", { class: "muted", "data-testid": testid }, tr(ctx, "board.none"));
  return el("ul", { class: "hand", "data-testid": testid },
    values.map((value) => el("li", { class: "card", "data-card": String(value) },
      el("span", { class: "card-name" }, cardName(ctx, value)))));
}

/** The stone: a gauge filling up to the target, the cards laid on it, the deck. */
export function drawBoard(obs, ctx) {
  const width = 420;
  const filled = Math.round((width - 40) * Math.min(obs.total, obs.target) / obs.target);
  const stone = svg("svg", { viewBox: `0 0 ${width} 150`, class: "sword-stone", role: "img",
    "aria-label": tr(ctx, "board.stone", { total: obs.total, target: obs.target }) },
    svg("rect", { x: 20, y: 90, width: width - 40, height: 44, rx: 10, fill: "#8d8d8d" }),
    svg("rect", { x: 20, y: 90, width: filled, height: 44, rx: 10, fill: "#c9a227" }),
    // The sword stands in the stone until it is drawn.
    obs.winner === null
      ? svg("g", {},
        svg("rect", { x: width / 2 - 4, y: 14, width: 8, height: 80, fill: "#cfd8dc", stroke: "#455a64" }),
        svg("rect", { x: width / 2 - 22, y: 30, width: 44, height: 7, fill: "#6d4c41" }))
      : svg("text", { x: width / 2, y: 60, "text-anchor": "middle", "font-size": 22,
        fill: seatFill(obs.winner) }, "⚔"),
    svg("text", { x: width / 2, y: 118, "text-anchor": "middle", "font-size": 18, fill: "#fff",
      "data-testid": "stone-total" }, `${obs.total} / ${obs.target}`));
  return el("div", { class: "sword-stone-board" },
    el("h3", {}, tr(ctx, "board.stone", { total: obs.total, target: obs.target })),
    stone,
    el("h3", {}, tr(ctx, "board.pulled")),
    cardList(ctx, obs.stone, "stone-cards"),
    el("p", { class: "muted", "data-testid": "deck" }, tr(ctx, "board.deck", { count: obs.deck })));
}

/** A seat's badge: its cards in hand (its hand itself once the game is over). */
export function seatBadge(seat, obs, ctx) {
  if (!obs || !obs.hand_sizes || seat >= obs.hand_sizes.length) return null;
  const parts = [el("span", { class: "hand-size" }, tr(ctx, "board.hand", { count: obs.hand_sizes[seat] }))];
  if (obs.revealed) parts.push(el("span", { class: "muted small" }, obs.revealed[seat].map((v) => cardName(ctx, v)).join(", ")));
  if (obs.to_play === seat) parts.push(el("span", { class: "turn-tag" }, tr(ctx, "board.to-play")));
  return el("span", { class: "knight" }, parts);
}

/** The viewer's own hand (a spectator has none). */
export function drawPrivate(obs, ctx) {
  if (!obs.hand) return null;
  return el("section", { class: "panel private", "data-testid": "private" },
    el("h2", {}, tr(ctx, "board.your-hand")),
    cardList(ctx, obs.hand, "hand"));
}

/** Who drew the sword, or the stalemate. */
export function resultText(obs, ctx) {
  if (obs.winner === null) return tr(ctx, "result.stalemate");
  if (obs.winner === ctx.me) return tr(ctx, "result.win.you");
  return tr(ctx, "result.win", { seat: ctx.seatName(obs.winner) });
}

/** The replay's panel of every hand. */
export function drawSecrets(observations, ctx) {
  return el("section", { class: "panel secrets", "data-testid": "secrets" },
    el("h2", {}, tr(ctx, "board.revealed")),
    el("div", { class: "secret-grid" }, observations.map((obs) =>
      el("div", { class: "secret" },
        el("h3", {}, ctx.seatName(obs.seat)),
        cardList(ctx, obs.hand, `hand-${obs.seat}`)))));
}

/** The spectators' view with every hand shown (for the replay). */
export function revealAll(spectator, observations) {
  return { ...spectator, revealed: observations.map((obs) => obs.hand) };
}
