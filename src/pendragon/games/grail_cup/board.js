// Grail Cup on the table page: the track drawn as a board (SVG: the spaces by kind, the
// knights in their colours in race order on a shared space, the dragon, the clover tokens
// face down or known), the round (the seal, the passing direction, the spears), the calling
// of the allies 1 to 9 as a sequence the table can follow (each call flips its card, knights
// walk the track), the draft as a private hand-and-pass screen, and for the replay every
// seat's allies and every clover token anyone knew.
//
// Input: observation dicts only (games/grail_cup/rules/view.py documents their fields), so a
// seat's page shows nothing its observation does not hold. The log, the action buttons and
// the decision under way are events worded by the page itself (/static/js/i18n.js).
// Served at /games/grail-cup/board.js, so the page's modules are imported by absolute path.
//
// The styles are this module's own: a constructable stylesheet adopted by the document
// (allowed by the pages' Content-Security-Policy, unlike an inline <style>), so the shared
// style.css needs no rule for this game.
import { el, svg } from "/static/js/dom.js";
import { isNarrowScreen, seatColor, seatFill } from "/static/js/common.js";
import { renderEvent } from "/static/js/i18n.js";

// ------------------------------------------------------------------ words
/** The nine allies by number (GC-ALLY-1); observations name them by key. */
const ALLIES = ["sorceress", "squire", "merlin", "blacksmith", "dragon-tamer", "princess", "priest", "fairy", "unicorn"];
const CLOVERS = ["boots", "goblin", "dragon-bait", "fake-grail", "magnet"];
/** A known clover token's mark (the terminal draws the same marks). */
const CLOVER_MARKS = { boots: "»", goblin: "«", "dragon-bait": "≈", "fake-grail": "×", magnet: "∪" };
/** Space kinds named in the legend, in this order. */
const LEGEND_KINDS = ["start", "castle", "church", "village", "clover", "castle-clover", "dragon", "finish"];

const tr = (ctx, key, params) => ctx.t(`grail-cup.${key}`, params || {});
/** A board message as an event: seats named as the page names them, ".you" for the reader. */
const say = (ctx, key, params) => renderEvent({ k: `grail-cup.${key}`, p: params || {} }, ctx.events);
const seatParam = (seat) => ({ seat });
const allyName = (ctx, key) => ctx.t(`grail-cup.ally.${key}`);
const allyText = (ctx, key) => ctx.t(`grail-cup.ally.${key}.text`);
const cloverName = (ctx, key) => ctx.t(`grail-cup.clover.${key}`);
const cloverText = (ctx, key) => ctx.t(`grail-cup.clover.${key}.text`);
const spaceKindName = (ctx, kind) => ctx.t(`grail-cup.space.${kind.startsWith("start-") ? "start" : kind}`);
const allyList = (ctx, keys) => (keys.length ? keys.map((k) => allyName(ctx, k)).join(", ") : tr(ctx, "board.none"));

// ------------------------------------------------------------------ what the viewer knows
/** The viewer's seat (null for a spectator and in the replay). */
const mySeat = (obs) => (obs.you ? obs.you.seat : null);

/** The spaces whose tokens the viewer remembers among others (GC-RULING-11), each with what
 * lies among them in words; none in the replay, which shows the tokens themselves. */
function rememberedClovers(obs, ctx) {
  const found = new Map();
  if (obs.reveal || !obs.you) return found;
  for (const group of obs.you.clovers_among || []) {
    if (group.spaces.length < 2) continue;  // narrowed to one space: a token seen there
    const text = tr(ctx, "board.clover-among", {
      spaces: group.spaces.join(", "), clovers: group.clovers.map((kind) => cloverName(ctx, kind)).join(", "),
    });
    for (const space of group.spaces) found.set(space, text);
  }
  return found;
}

/** The clover tokens the page may show face up: the seat's own knowledge, or in the replay
 * every token any seat knew (revealAll). */
function knownClovers(obs) {
  if (obs.reveal) return obs.reveal.clovers;
  return obs.you ? obs.you.clovers : {};
}

/** Who holds `ally` as far as the page may know: revealed (public), the viewer's own, or in
 * the replay anyone's. */
function holderOf(obs, ally) {
  const revealed = obs.allies.revealed[ally];
  if (revealed !== undefined) return revealed;
  if (obs.you && obs.you.hand.includes(ally)) return obs.you.seat;
  if (obs.reveal) {
    const seat = obs.reveal.hands.findIndex((hand) => hand.includes(ally));
    if (seat >= 0) return seat;
  }
  return null;
}

/** Where the rest of the packet goes once the drafter keeps one (GC-DRAFT-3..6,
 * GC-RULING-2/3/17): a seat, null for the last pick (the other card is discarded face down),
 * or "choose" while the first player is still to pick the direction. Twin of the terminal's
 * draft_next. */
function draftNext(obs) {
  const me = obs.you.seat;
  const wanted = obs.players <= 3 ? 2 : 1;
  if (obs.knights.every((knight, seat) => seat === me || knight.allies >= wanted)) return null;
  const step = { left: 1, right: -1 }[obs.direction];
  if (step === undefined && obs.players > 2) return "choose";
  return (me + (step || 1) + obs.players) % obs.players;
}

// ------------------------------------------------------------------ motion
// The page redraws the whole board on every message (a move, a chat line), so an animation
// is remembered with its start time and resumed where it was (a negative delay) instead of
// restarting; a redraw that changes nothing starts nothing.
const REDUCED = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
const memory = {
  spaces: new Map(), // figure ("k0".."k7", "dragon") -> {space, x, y}
  moves: new Map(), // figure -> {frames, start, duration}
  round: null,
  called: 0,
  flips: new Map(), // ally key -> start time of its flip
  packet: null, // the packet last shown, and when
  packetAt: 0,
  shownRound: null, // the round last drawn
};

/** A drawing more than a round away from the last one (the replay's slider, a page that
 * reconnects late) is a new picture, not a move: nothing walks there. */
function noteJump(obs) {
  if (memory.shownRound !== null && Math.abs(obs.round - memory.shownRound) > 1) {
    memory.spaces.clear();
    memory.moves.clear();
  }
  memory.shownRound = obs.round;
}

function animate(node, frames, start, duration, easing = "ease-in-out") {
  if (REDUCED || !node.animate) return;
  const elapsed = performance.now() - start;
  if (elapsed >= duration) return;
  node.animate(frames, { duration, delay: -elapsed, easing, fill: "backwards" });
}

// ------------------------------------------------------------------ the track
// Spaces a row; rows run left-right, then right-left (a winding road). A phone's board (the
// page's narrow layout) has fewer a row, so that a space is drawn large enough to read.
const WIDE_COLS = 14;
const NARROW_COLS = 5;
let COLS = WIDE_COLS;
const CW = 64; // a space's width and height
const CH = 80;
const GX = 10;
const GY = 22;
const MARGIN = 14;
const STEP_MS = 110; // a knight's walk: time per space
const MAX_WALK_MS = 1400;

function cellAt(index) {
  const row = Math.floor(index / COLS);
  let col = index % COLS;
  if (row % 2 === 1) col = COLS - 1 - col;
  return { x: MARGIN + col * (CW + GX), y: MARGIN + row * (CH + GY) };
}

/** A knight's place inside its space, the leader first: up to three knights share a space
 * drawn large (three a row), more are drawn small, four a row (issue 27, item 9: the markers
 * were tiny even alone). */
function slotAt(index, count = 1) {
  if (count === 1) return { x: CW / 2, y: 50 };
  if (count === 2) return { x: 17 + index * 30, y: 50 };
  if (count === 3) return { x: 11 + index * 21, y: 48 };
  return { x: 9 + (index % 4) * 15.3, y: 36 + Math.floor(index / 4) * 26 };
}
/** How much larger than the small figure a knight is drawn, by the knights on its space. */
const KNIGHT_SCALE = { 1: 2, 2: 1.7, 3: 1.45 };

const KIND_FILL = {
  start: "#e6dcc4", trail: "#f1e6c8", clover: "#d9ebc6", village: "#f3d9b5", castle: "#d9d3e6",
  "castle-clover": "#d9d3e6", church: "#eef0f7", dragon: "#d9534f", finish: "#f4d36b",
};

function kindOf(kind) {
  return kind.startsWith("start-") ? "start" : kind;
}

/** A small drawing of a space's kind, centred on (0, 0), about 18 units across. */
function kindIcon(kind, label) {
  switch (kindOf(kind)) {
    case "start":
      return svg("text", { class: "gc-start-no", x: 0, y: 6, "text-anchor": "middle" }, label);
    case "castle":
    case "castle-clover":
      return svg("g", {},
        svg("path", { d: "M-8 8 V-3 H-5 V-7 H-2 V-3 H2 V-7 H5 V-3 H8 V8 Z", fill: "#6d6a80", stroke: "#3e3b52" }),
        svg("path", { d: "M-2 8 V3 A2 2 0 0 1 2 3 V8 Z", fill: "#2b2838" }));
    case "church":
      return svg("g", {},
        svg("path", { d: "M-6 8 V0 L0 -4 L6 0 V8 Z", fill: "#f8f8ff", stroke: "#5b5f7a" }),
        svg("path", { d: "M0 -5 V-11 M-3 -8.5 H3", stroke: "#5b5f7a", "stroke-width": 1.6 }));
    case "village":
      return svg("g", {},
        svg("path", { d: "M-8 8 V0 L0 -7 L8 0 V8 Z", fill: "#a0522d", stroke: "#5d2f17" }),
        svg("rect", { x: -2, y: 3, width: 4, height: 5, fill: "#f3d9b5" }));
    case "clover":
      return cloverLeaf("#2e7d32");
    case "finish":
      return grail();
    default:
      return null;
  }
}

function cloverLeaf(colour) {
  return svg("g", { fill: colour },
    svg("circle", { cx: 0, cy: -3.5, r: 3.4 }), svg("circle", { cx: -3.4, cy: 1.4, r: 3.4 }),
    svg("circle", { cx: 3.4, cy: 1.4, r: 3.4 }),
    svg("path", { d: "M0 2 Q1 6 3 8", stroke: colour, fill: "none", "stroke-width": 1.4 }));
}

function grail() {
  return svg("g", { fill: "#b8860b", stroke: "#6d4f00", "stroke-width": 0.8 },
    svg("path", { d: "M-7 -8 H7 Q7 1 0 2 Q-7 1 -7 -8 Z" }),
    svg("path", { d: "M-1 2 H1 V6 H-1 Z" }),
    svg("path", { d: "M-5 8 Q0 5 5 8 Z" }));
}

function dragonFigure() {
  return svg("g", { class: "gc-dragon-figure" },
    svg("path", { d: "M-13 2 L-5 -13 L-1 -2 L3 -13 L11 2 Z", fill: "#7f1212" }),
    svg("path", { d: "M-9 6 Q-19 13 -21 3 L-17 5", stroke: "#b71c1c", fill: "none", "stroke-width": 3, "stroke-linecap": "round" }),
    svg("ellipse", { cx: 0, cy: 5, rx: 11, ry: 6, fill: "#c62828" }),
    svg("circle", { cx: 12, cy: -1, r: 4.6, fill: "#c62828" }),
    svg("path", { d: "M15 -2 L21 0 L15 2 Z", fill: "#c62828" }),
    svg("circle", { cx: 13, cy: -2.4, r: 1.1, fill: "#ffeb3b" }));
}

/** A clover token: face down (a leaf on green) or face up (its mark), centred on (0, 0). A
 * face-down token among spaces whose tokens the viewer remembers (`memory`, GC-RULING-11)
 * wears a gold ring, and its title says what lies among them. */
function cloverToken(ctx, kind, memory = null) {
  if (!kind) {
    const hidden = tr(ctx, "board.clover-hidden");
    return svg("g", { class: `gc-token hidden${memory ? " remembered" : ""}` },
      memory ? svg("circle", { r: 11.5, class: "gc-token-memory" }) : null,
      svg("circle", { r: 9, fill: "#2e7d32", stroke: "#1b4d1f" }),
      svg("g", { transform: "scale(0.7)" }, cloverLeaf("#a5d6a7")),
      svg("title", {}, memory ? `${hidden}: ${memory}` : hidden));
  }
  return svg("g", { class: "gc-token known" },
    svg("circle", { r: 9, fill: "#fffbe8", stroke: "#2e7d32", "stroke-width": 2 }),
    svg("text", { class: "gc-token-mark", x: 0, y: 4.5, "text-anchor": "middle" }, CLOVER_MARKS[kind]),
    svg("title", {}, `${cloverName(ctx, kind)}: ${cloverText(ctx, kind)}`));
}

function spearIcon(filled) {
  return svg("svg", { class: `gc-spear ${filled ? "on" : "off"}`, viewBox: "0 0 8 24", width: 7, height: 21, "aria-hidden": "true" },
    svg("path", { d: "M4 1 L6.5 7 L4 6 L1.5 7 Z" }), svg("path", { d: "M4 6 V23", "stroke-width": 1.6 }));
}

function sealIcon(ctx) {
  return svg("svg", { class: "gc-seal", viewBox: "-10 -10 20 20", width: 18, height: 18, role: "img", "aria-label": ctx.t("grail-cup.die.seal"), "data-testid": "gc-seal-icon" },
    svg("circle", { r: 9, fill: "#a51c1c", stroke: "#5e0f0f" }),
    svg("path", { d: "M0 -5 L1.5 -1.5 L5 -1.5 L2.2 1 L3.2 4.8 L0 2.6 L-3.2 4.8 L-2.2 1 L-5 -1.5 L-1.5 -1.5 Z", fill: "#f4d36b" }));
}

/** Each knight's seat (in race order) by space, the leader first on a shared space (GC-KNIGHTS-1). */
function knightsBySpace(obs) {
  const by = new Map();
  for (const seat of obs.order) {
    const space = obs.knights[seat].space;
    if (!by.has(space)) by.set(space, []);
    by.get(space).push(seat);
  }
  return by;
}

function placeInRace(obs, seat) {
  return obs.order.indexOf(seat) + 1;
}

/** The walk of a figure from space `from` to space `to`, as keyframes relative to where it
 * now stands (`end`): through the centre of every space in between, then into its slot. */
function walk(from, to, start, end) {
  const frames = [{ transform: `translate(${start.x - end.x}px, ${start.y - end.y}px)` }];
  const step = to > from ? 1 : -1;
  const spaces = Math.abs(to - from);
  if (spaces > 1 && spaces <= 20) {
    for (let space = from + step; space !== to; space += step) {
      const cell = cellAt(space);
      frames.push({ transform: `translate(${cell.x + CW / 2 - end.x}px, ${cell.y + 46 - end.y}px)` });
    }
  }
  frames.push({ transform: "translate(0px, 0px)" });
  return { frames, duration: Math.min(MAX_WALK_MS, 250 + STEP_MS * Math.max(1, spaces)) };
}

/** Place a figure's group at `at` on `space`; if it stood elsewhere before, it walks here. */
function placeFigure(name, node, space, at) {
  const before = memory.spaces.get(name);
  if (before && (before.space !== space || before.x !== at.x || before.y !== at.y)) {
    const { frames, duration } = walk(before.space, space, before, at);
    memory.moves.set(name, { frames, duration, start: performance.now() });
  }
  memory.spaces.set(name, { space, x: at.x, y: at.y });
  const move = memory.moves.get(name);
  if (move) animate(node, move.frames, move.start, move.duration);
}

function drawKnight(obs, ctx, seat, index, count, cell) {
  const shared = count > 1;
  const slot = slotAt(index, count);
  const at = { x: cell.x + slot.x, y: cell.y + slot.y };
  const knight = obs.knights[seat];
  const me = seat === ctx.me;
  // The figure is scaled inside the group the walk animates (its transform is the walk's).
  const scale = KNIGHT_SCALE[count];
  const body = svg("g", { class: `gc-knight${me ? " mine" : ""}` }, svg("g", { transform: scale ? `scale(${scale})` : undefined },
    svg("circle", { r: 7.2, fill: seatFill(seat), class: "gc-knight-disc" }),
    svg("text", { class: "gc-knight-no", x: 0, y: 3.2, "text-anchor": "middle" }, String(seat + 1)),
    shared ? svg("text", { class: "gc-order", x: 0, y: scale ? 14 : 17, "text-anchor": "middle" }, String(index + 1)) : null,
    obs.first_player === seat ? svg("circle", { class: "gc-seal-dot", cx: 6, cy: -6, r: 3.2 }) : null),
    svg("title", {}, [ctx.events.seatName(seat), tr(ctx, "board.race-place", { place: placeInRace(obs, seat), total: obs.players }),
      tr(ctx, "board.spears", { count: knight.spears })].join(" — ")));
  const group = svg("g", {
    transform: `translate(${at.x} ${at.y})`, "data-testid": "gc-knight", "data-seat": seat,
    "data-space": knight.space, "data-order": index + 1,
  }, body);
  placeFigure(`k${seat}`, body, knight.space, at);
  return group;
}

function drawDragon(obs, ctx) {
  const cell = cellAt(obs.dragon);
  const at = { x: cell.x + CW / 2, y: cell.y + 52 };
  const body = svg("g", {}, dragonFigure(), svg("title", {}, tr(ctx, "board.dragon-at", { space: obs.dragon })));
  placeFigure("dragon", body, obs.dragon, at);
  return svg("g", { transform: `translate(${at.x} ${at.y})`, "data-testid": "gc-dragon", "data-space": obs.dragon }, body);
}

function drawSpace(obs, ctx, index, known, remembered) {
  const kind = obs.track[index];
  const cell = cellAt(index);
  const looked = obs.merlin_looked.includes(index);
  const clover = kind === "clover" || kind === "castle-clover";
  const label = kind.startsWith("start-") ? kind.slice(6) : "";
  const group = svg("g", {
    class: `gc-space${looked ? " looked" : ""}`, transform: `translate(${cell.x} ${cell.y})`,
    "data-testid": "gc-space", "data-space": index, "data-kind": kind,
  },
  svg("rect", { class: "gc-cell", width: CW, height: CH, rx: 9, fill: KIND_FILL[kindOf(kind)] }),
  kind === "castle-clover" ? svg("rect", { class: "gc-cell-ring", x: 3, y: 3, width: CW - 6, height: CH - 6, rx: 7 }) : null,
  svg("text", { class: "gc-index", x: 5, y: 12 }, String(index)),
  // A clover space shows its token; the other kinds their icon.
  kind === "clover" ? null : svg("g", { transform: `translate(${CW - 13} 14)` }, kindIcon(kind, label)),
  clover ? svg("g", {
    transform: `translate(${CW / 2 - 3} 14)`, "data-testid": "gc-clover", "data-space": index, "data-token": known[index] || "hidden",
    "data-remembered": !known[index] && remembered.has(index) ? "1" : null,
  }, cloverToken(ctx, known[index], remembered.get(index) || null)) : null,
  svg("title", {}, `${tr(ctx, "board.space", { space: index })}: ${spaceKindName(ctx, kind)}`));
  // A decision about a space (where the dragon goes, which token Merlin looks at) may be
  // made by clicking the space: it presses the matching action button, if there is one.
  group.addEventListener("click", () => {
    for (const verb of ["dragon", "look"]) {
      const button = document.querySelector(`button[data-testid=action][data-action="${verb}:${index}"]:not([disabled])`);
      if (button) {
        button.click();
        return;
      }
    }
  });
  return group;
}

/** After the page is drawn, mark the spaces an action button names as clickable. */
function markChoosable(root) {
  requestAnimationFrame(() => {
    const wanted = new Set();
    for (const button of document.querySelectorAll("button[data-testid=action]:not([disabled])")) {
      const match = /^(?:dragon|look):(\d+)$/.exec(button.dataset.action || "");
      if (match) wanted.add(match[1]);
    }
    for (const space of root.querySelectorAll("[data-testid=gc-space]")) {
      space.classList.toggle("choosable", wanted.has(space.dataset.space));
    }
  });
}

function track(obs, ctx) {
  noteJump(obs);
  const narrow = isNarrowScreen();
  if ((narrow ? NARROW_COLS : WIDE_COLS) !== COLS) {
    // Another shape of road: every figure's remembered place is elsewhere now, nothing walks.
    COLS = narrow ? NARROW_COLS : WIDE_COLS;
    memory.spaces.clear();
    memory.moves.clear();
  }
  const count = obs.track.length;
  const rows = Math.ceil(count / COLS);
  const width = 2 * MARGIN + COLS * CW + (COLS - 1) * GX;
  const height = 2 * MARGIN + rows * CH + (rows - 1) * GY;
  const known = knownClovers(obs);
  const remembered = rememberedClovers(obs, ctx);
  const centres = obs.track.map((_, i) => {
    const cell = cellAt(i);
    return `${cell.x + CW / 2},${cell.y + CH / 2}`;
  });
  const knights = [];
  for (const [space, seats] of knightsBySpace(obs)) {
    seats.forEach((seat, index) => knights.push(drawKnight(obs, ctx, seat, index, seats.length, cellAt(space))));
  }
  const board = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: `gc-track${narrow ? " narrow" : ""}`, role: "img", "data-testid": "gc-track",
    "aria-label": tr(ctx, "board.track"),
  },
  svg("rect", { width, height, rx: 14, class: "gc-ground" }),
  svg("polyline", { points: centres.join(" "), class: "gc-road" }),
  obs.track.map((_, i) => drawSpace(obs, ctx, i, known, remembered)),
  drawDragon(obs, ctx),
  knights);
  markChoosable(board);
  return board;
}

function legend(ctx) {
  const item = (icon, text) => el("span", { class: "gc-legend-item" },
    svg("svg", { viewBox: "-12 -12 24 24", width: 22, height: 22, "aria-hidden": "true" }, icon), text);
  const kinds = LEGEND_KINDS.map((kind) => {
    const swatch = svg("g", {}, svg("rect", { x: -11, y: -11, width: 22, height: 22, rx: 4, fill: KIND_FILL[kind], stroke: "#9a7d55" }),
      kindIcon(kind === "start" ? "start-1" : kind, kind === "start" ? "1" : ""));
    return item(swatch, spaceKindName(ctx, kind));
  });
  const tokens = [item(cloverToken(ctx, null), tr(ctx, "board.clover-hidden"))];
  for (const kind of CLOVERS) tokens.push(item(cloverToken(ctx, kind), cloverName(ctx, kind)));
  return el("div", { class: "gc-legend", "data-testid": "gc-legend" },
    kinds, tokens,
    item(svg("g", { transform: "scale(0.5)" }, dragonFigure()), tr(ctx, "board.dragon")),
    item(svg("g", {}, svg("circle", { r: 7, fill: seatFill(0) }), svg("text", { class: "gc-knight-no", y: 3, "text-anchor": "middle" }, "1")),
      tr(ctx, "board.legend-knights")));
}

/** Which way the allies go round the table; two players simply alternate (GC-RULING-3). */
function directionLine(obs, ctx, tag) {
  if (obs.players === 2) return null;
  return el(tag, { class: "gc-direction" }, obs.direction
    ? say(ctx, "board.direction", { direction: { term: `grail-cup.direction.${obs.direction}` } })
    : tr(ctx, "board.direction-unset"));
}

/** The round in one line: its number, the seal, the direction, the dragon, the spears. */
function roundBar(obs, ctx) {
  const supply = [];
  for (let i = 0; i < 12; i += 1) supply.push(spearIcon(i < obs.spear_supply));
  return el("div", { class: "gc-bar", "data-testid": "gc-round" },
    el("strong", { class: "gc-round-no" }, tr(ctx, "board.round", { n: obs.round })),
    obs.first_player !== null
      ? el("span", { class: "gc-seal-line", "data-testid": "gc-seal", "data-seat": obs.first_player }, sealIcon(ctx),
        say(ctx, "board.seal-holder", { seat: seatParam(obs.first_player) }))
      : null,
    directionLine(obs, ctx, "span"),
    el("span", {}, tr(ctx, "board.dragon-at", { space: obs.dragon })),
    el("span", { class: "gc-supply", title: tr(ctx, "board.spear-supply", { count: obs.spear_supply }) },
      supply, " ", tr(ctx, "board.spear-supply", { count: obs.spear_supply })));
}

/** The board: the round's line, the track, its legend; above them, while the seat drafts,
 * the allies passed to it (the draft is the whole table's business then). */
export function drawBoard(obs, ctx) {
  return el("div", { class: "gc-board" },
    obs.you && obs.you.packet.length ? packetScreen(obs, ctx) : null,
    roundBar(obs, ctx),
    track(obs, ctx),
    legend(ctx));
}

// ------------------------------------------------------------------ the calling of the allies
function allyState(obs, ally, number) {
  const called = obs.allies.called;
  if (obs.allies.aside_up.includes(ally)) return "aside";
  const holder = holderOf(obs, ally);
  if (number <= called) {
    if (obs.allies.revealed[ally] !== undefined) return number === called && obs.winner === null ? "now" : "called";
    return "missing";
  }
  if (holder !== null && holder === mySeat(obs)) return "yours";
  if (holder !== null) return "known";
  if (obs.reveal && obs.reveal.faceDown.includes(ally)) return "out";
  return "waiting";
}

/** Remember which allies were called since the last drawing, so each flips once, in order. */
function noteCalls(obs) {
  const now = performance.now();
  if (memory.round !== obs.round) {
    memory.round = obs.round;
    memory.called = obs.allies.called;
    memory.flips.clear();
    return;
  }
  if (obs.allies.called > memory.called) {
    for (let number = memory.called + 1; number <= obs.allies.called; number += 1) {
      memory.flips.set(ALLIES[number - 1], now + (number - memory.called - 1) * 380);
    }
  }
  memory.called = obs.allies.called;
}

function allyCard(obs, ctx, ally, number) {
  const state = allyState(obs, ally, number);
  const holder = ["now", "called", "yours", "known"].includes(state) ? holderOf(obs, ally) : null;
  let status;
  if (state === "aside") status = tr(ctx, "board.state.aside");
  else if (state === "missing") status = tr(ctx, "board.holder-nobody");
  else if (state === "waiting") status = tr(ctx, "board.state.waiting");
  else if (state === "yours") status = tr(ctx, "board.state.yours");
  else if (state === "out") status = tr(ctx, "board.state.out");
  else status = ctx.events.seatName(holder);
  const cursed = obs.curse === ally;
  const card = el("li", {
    class: `gc-ally${cursed ? " cursed" : ""}`, "data-ally": ally, "data-state": state,
    "data-holder": holder === null ? undefined : holder,
    "data-color": holder === null ? undefined : seatColor(holder),
    title: `${number}. ${allyName(ctx, ally)}: ${allyText(ctx, ally)}`,
  },
  el("span", { class: "gc-num" }, String(number)),
  el("span", { class: "gc-ally-name" }, allyName(ctx, ally)),
  el("span", { class: "gc-ally-status" }, status),
  cursed ? el("span", { class: "gc-curse-tag" }, say(ctx, "board.curse", { ally: { term: `grail-cup.ally.${ally}` }, seat: seatParam(obs.sorceress) })) : null);
  const flip = memory.flips.get(ally);
  if (flip !== undefined) {
    animate(card, [
      { transform: "perspective(400px) rotateY(90deg)", boxShadow: "0 0 0 0 rgba(216, 162, 0, 0)" },
      { transform: "perspective(400px) rotateY(0deg)", boxShadow: "0 0 0 6px rgba(216, 162, 0, .8)", offset: 0.45 },
      { transform: "none", boxShadow: "0 0 0 0 rgba(216, 162, 0, 0)" },
    ], flip, 900, "ease-out");
  }
  return card;
}

function calling(obs, ctx) {
  noteCalls(obs);
  const called = obs.allies.called;
  const current = called > 0 ? ALLIES[called - 1] : null;
  const holder = current ? obs.allies.revealed[current] : undefined;
  const herald = current && holder !== undefined && obs.winner === null
    ? el("p", { class: "gc-herald", "data-testid": "gc-herald" },
      tr(ctx, "board.now-called", { ally: allyName(ctx, current) }), " — ", ctx.events.seatName(holder))
    : null;
  if (herald && memory.flips.has(current)) {
    animate(herald, [{ opacity: 0, transform: "translateY(-6px)" }, { opacity: 1, transform: "none" }], memory.flips.get(current), 500);
  }
  return el("section", { class: "gc-calling", "data-testid": "gc-calling" },
    el("h3", {}, tr(ctx, "board.calling"), " ", el("span", { class: "muted small" }, tr(ctx, "board.called", { n: called }))),
    herald,
    el("ol", { class: "gc-allies" }, ALLIES.map((ally, i) => allyCard(obs, ctx, ally, i + 1))));
}

// ------------------------------------------------------------------ the draft around the table
function draftRing(obs, ctx) {
  const n = obs.players;
  const size = 250;
  const centre = size / 2;
  const radius = 82;
  const at = (seat) => {
    // Clockwise from the top, so passing "left" (to seat + 1, GC-RULING-17) runs clockwise.
    const angle = -Math.PI / 2 + (2 * Math.PI * seat) / n;
    return { x: centre + radius * Math.cos(angle), y: centre + radius * Math.sin(angle) };
  };
  const holder = obs.waiting.decision === "draft" || obs.waiting.decision === "direction" ? obs.waiting.seat : null;
  const arrows = [];
  const step = { left: 1, right: -1 }[obs.direction];
  if (step !== undefined || n === 2) {
    for (let seat = 0; seat < n; seat += 1) {
      const next = (seat + (step || 1) + n) % n;
      if (n === 2 && seat === 1 && step === undefined) break;
      const a = at(seat);
      const b = at(next);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      // A short arrow halfway along each pass, bowed outwards.
      const out = { x: mid.x + (mid.x - centre) * 0.18, y: mid.y + (mid.y - centre) * 0.18 };
      arrows.push(svg("path", { class: "gc-pass", d: `M${a.x} ${a.y} Q${out.x} ${out.y} ${b.x} ${b.y}`, "marker-end": "url(#gc-arrow)" }));
    }
  }
  const seats = obs.knights.map((knight, seat) => {
    const p = at(seat);
    const cards = [];
    for (let i = 0; i < knight.allies; i += 1) {
      cards.push(svg("rect", { class: "gc-mini-card", x: p.x + 15 + i * 6, y: p.y - 9, width: 9, height: 13, rx: 1.5 }));
    }
    return svg("g", { class: `gc-ring-seat${seat === holder ? " holding" : ""}`, "data-seat": seat },
      seat === holder ? svg("circle", { class: "gc-ring-glow", cx: p.x, cy: p.y, r: 20 }) : null,
      svg("circle", { cx: p.x, cy: p.y, r: 14, fill: seatFill(seat), stroke: seat === ctx.me ? "#d8a200" : "#fff", "stroke-width": seat === ctx.me ? 3 : 2 }),
      svg("text", { class: "gc-knight-no big", x: p.x, y: p.y + 4.5, "text-anchor": "middle" }, String(seat + 1)),
      cards,
      svg("text", { class: "gc-ring-name", x: p.x, y: p.y + 27, "text-anchor": "middle" }, ctx.events.seatName(seat)),
      seat === holder ? svg("text", { class: "gc-ring-name choosing", x: p.x, y: p.y + 39, "text-anchor": "middle" }, tr(ctx, "board.choosing")) : null);
  });
  return el("section", { class: "gc-draft", "data-testid": "gc-draft-ring" },
    el("h3", {}, tr(ctx, "board.draft")),
    svg("svg", { viewBox: `-30 -10 ${size + 60} ${size + 20}`, class: "gc-ring", role: "img", "aria-label": tr(ctx, "board.draft") },
      svg("defs", {}, svg("marker", { id: "gc-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M0 0 L10 5 L0 10 Z", fill: "#8e1b1b" }))),
      svg("circle", { cx: centre, cy: centre, r: radius, class: "gc-ring-line" }),
      arrows, seats),
    directionLine(obs, ctx, "p"));
}

// ------------------------------------------------------------------ the knights and the round's facts
function spears(count) {
  const icons = [];
  for (let i = 0; i < count; i += 1) icons.push(spearIcon(true));
  return el("span", { class: "gc-spears" }, icons.length ? icons : "—");
}

function knightsTable(obs, ctx) {
  const rows = obs.order.map((seat, i) => {
    const knight = obs.knights[seat];
    const revealed = knight.revealed.length ? ` (${allyList(ctx, knight.revealed)})` : "";
    return el("tr", { class: seat === ctx.me ? "mine" : "", "data-seat": seat },
      el("td", {}, String(i + 1)),
      el("td", {}, el("span", { class: "dot", "data-color": seatColor(seat) }), " ", ctx.events.seatName(seat),
        obs.first_player === seat ? sealIcon(ctx) : null,
        obs.winner === seat ? el("span", { class: "turn-tag" }, tr(ctx, "board.winner")) : null,
        obs.waiting.seat === seat ? el("span", { class: "turn-tag" }, tr(ctx, "board.to-act")) : null),
      el("td", {}, String(knight.space)),
      el("td", { title: tr(ctx, "board.spears", { count: knight.spears }) }, spears(knight.spears)),
      el("td", {}, tr(ctx, "board.allies-held", { count: knight.allies }), revealed));
  });
  return el("table", { class: "gc-knights", "data-testid": "gc-knights" },
    el("caption", {}, tr(ctx, "board.knights")),
    el("thead", {}, el("tr", {}, ["place", "knight", "space", "spears", "allies"].map((c) => el("th", {}, tr(ctx, `board.col.${c}`))))),
    el("tbody", {}, rows));
}

function facts(obs, ctx) {
  const allies = obs.allies;
  const lines = [];
  if (allies.aside_up.length) lines.push(tr(ctx, "board.aside-up", { allies: allyList(ctx, allies.aside_up) }));
  const faceDown = allies.aside_down + allies.random_discard + allies.discarded;
  if (faceDown) lines.push(tr(ctx, "board.face-down", { count: faceDown }));
  if (obs.reveal && obs.reveal.faceDown.length) lines.push(tr(ctx, "board.face-down-allies", { allies: allyList(ctx, obs.reveal.faceDown) }));
  if (obs.squire_named !== null && obs.squire !== null) {
    lines.push(say(ctx, "board.squire", { knight: seatParam(obs.squire_named), seat: seatParam(obs.squire) }));
  }
  if (obs.clover_in_play) lines.push(tr(ctx, "board.clover-in-play", { clover: cloverName(ctx, obs.clover_in_play) }));
  if (obs.merlin_looked.length) lines.push(tr(ctx, "board.merlin-looked", { spaces: obs.merlin_looked.join(", ") }));
  const known = Object.entries(obs.clover_known_by || {});
  if (known.length) {
    // GC-RULING-11: who has seen the token on a space is public (what he saw is not).
    lines.push(tr(ctx, "board.clover-known", { spaces: known.map(([space, seats]) => `${space} (${seats.map((s) => ctx.events.seatName(s)).join(", ")})`).join(", ") }));
  }
  if (obs.seal_rolled_by !== null) lines.push(say(ctx, "board.seal-next", { seat: seatParam(obs.seal_rolled_by) }));
  const last = Object.entries(obs.last_round);
  if (last.length) {
    lines.push(tr(ctx, "board.last-round", { allies: last.map(([ally, seat]) => `${allyName(ctx, ally)} (${ctx.events.seatName(seat)})`).join(", ") }));
  }
  return el("ul", { class: "gc-facts", "data-testid": "gc-facts" }, lines.map((line) => el("li", {}, line)));
}

/** What a decision of the race is about, under its prompt on a phone, whose "Play" tab hides
 * the table: the knights in race order (where each stands, his spears, his allies). Nothing
 * at the draft, whose packet is in the hand. */
export function decisionContext(obs, ctx) {
  return ["draft", "direction"].includes(obs.waiting.decision) ? [] : [knightsTable(obs, ctx)];
}

/** The round under the board: the draft around the table while it runs, the calling of the
 * allies, the knights in race order and the round's public facts. */
export function drawTable(obs, ctx) {
  const drafting = ["draft", "direction"].includes(obs.waiting.decision);
  return el("section", { class: "panel gc-table" },
    calling(obs, ctx),
    el("div", { class: "gc-row" },
      drafting ? draftRing(obs, ctx) : null,
      el("div", { class: "gc-col" }, facts(obs, ctx), knightsTable(obs, ctx))));
}

// ------------------------------------------------------------------ the seat's own allies: the private screen
function cardItem(ctx, ally, extra) {
  return el("li", { class: "card gc-card", "data-ally": ally },
    el("span", { class: "card-count" }, String(ALLIES.indexOf(ally) + 1)),
    el("span", { class: "card-name" }, allyName(ctx, ally)),
    el("span", { class: "card-text" }, allyText(ctx, ally)),
    extra);
}

function keepButton(ctx, ally) {
  // The keep decision itself is the page's action button; this one presses it, so the card
  // in the hand is the natural thing to click.
  const button = el("button", { type: "button", class: "small primary gc-keep", "data-testid": "gc-keep", "data-ally": ally }, tr(ctx, "board.keep"));
  button.addEventListener("click", () => {
    const action = document.querySelector(`button[data-testid=action][data-action="keep:${ally}"]:not([disabled])`);
    if (action) action.click();
  });
  return button;
}

function packetScreen(obs, ctx) {
  const you = obs.you;
  const next = draftNext(obs);
  let hint;
  if (next === null) hint = tr(ctx, "board.pass-last");
  else if (next === "choose") hint = tr(ctx, "board.pass-choose");
  else hint = say(ctx, "board.pass-on", { seat: seatParam(next) });
  const key = `${obs.round}:${you.packet.join(",")}`;
  if (memory.packet !== key) {
    memory.packet = key;
    memory.packetAt = performance.now();
  }
  const cards = you.packet.map((ally) => cardItem(ctx, ally, keepButton(ctx, ally)));
  // The packet slides in from the neighbour who passed it.
  const from = obs.direction === "right" ? 40 : -40;
  cards.forEach((card, i) => animate(card, [{ opacity: 0, transform: `translateX(${from}px)` }, { opacity: 1, transform: "none" }], memory.packetAt + i * 70, 420, "ease-out"));
  return el("div", { class: "gc-packet", "data-testid": "gc-packet" },
    el("h2", {}, tr(ctx, "board.packet")),
    el("p", { class: "gc-hint", "data-testid": "gc-pass-hint" }, hint),
    el("ul", { class: "hand" }, cards));
}

/** The seat's own allies, what it saw in the draft, the clover tokens it knows. */
export function drawPrivate(obs, ctx) {
  const you = obs.you;
  if (!you) return null;
  const revealed = obs.knights[you.seat].revealed;
  const hand = you.hand.length
    ? el("ul", { class: "hand", "data-testid": "gc-hand" }, you.hand.map((ally) => cardItem(ctx, ally,
      revealed.includes(ally) ? el("span", { class: "gc-revealed-tag" }, tr(ctx, "board.revealed")) : null)))
    : el("p", { class: "muted", "data-testid": "gc-hand" }, tr(ctx, "board.none"));
  const known = cloverMemory(ctx, you);
  return el("section", { class: "panel private gc-private", "data-testid": "private" },
    el("h2", {}, tr(ctx, "board.your-allies")),
    hand,
    you.seen.length
      ? el("div", { "data-testid": "gc-seen" }, el("h3", {}, tr(ctx, "board.seen")),
        el("p", {}, you.seen.map((packet) => allyList(ctx, packet)).join(" | ")))
      : null,
    known.length
      ? el("div", { "data-testid": "gc-clovers" }, el("h3", {}, tr(ctx, "board.known-clovers")),
        el("p", {}, known.join(", ")))
      : null);
}

// ------------------------------------------------------------------ seats, actions, result
/** A seat's badge: where its knight is, its spears and allies, the seal, whose turn. */
export function seatBadge(seat, obs, ctx) {
  if (!obs || !obs.knights || seat >= obs.knights.length) return null;
  const knight = obs.knights[seat];
  const parts = [
    // One span, with a separator: "Space 23" ran into "4 of 4 in the race" (issue 27, item 9).
    el("span", { class: "where", "data-testid": "gc-where" }, `${tr(ctx, "board.space", { space: knight.space })} · ${
      tr(ctx, "board.race-place", { place: placeInRace(obs, seat), total: obs.players })}`),
    el("span", { title: tr(ctx, "board.spears", { count: knight.spears }) }, spears(knight.spears)),
    el("span", { class: "hand-size" }, tr(ctx, "board.allies-held", { count: knight.allies })),
  ];
  if (knight.revealed.length) parts.push(el("span", { class: "muted small" }, allyList(ctx, knight.revealed)));
  if (obs.first_player === seat) parts.push(sealIcon(ctx));
  if (obs.waiting.seat === seat) parts.push(el("span", { class: "turn-tag" }, tr(ctx, "board.to-act")));
  if (obs.winner === seat) parts.push(el("span", { class: "turn-tag" }, tr(ctx, "board.winner")));
  return el("span", { class: "knight" }, parts);
}

/** The many "dragon:N" and "look:N" buttons are also the board's spaces. */
export function actionGroup(text, obs, ctx) {
  return /^(dragon|look):/.test(text) ? tr(ctx, "board.group.spaces") : "";
}

/** Who reached the finish, and in which round (GC-END-1). */
/** A bot's name (issue 39, item 8): its knight's, by the seat's colour ("Red Knight"). */
export function botName(seat, obs, ctx) {
  return ctx.t(`bot.knight.${seatColor(seat)}`, {}, "");
}

/** What the end means for a seat (issue 39, item 7): every knight rides for himself. */
export function verdict(obs, ctx) {
  if (!obs || obs.winner === null || obs.winner === undefined || !obs.you) return null;
  return { won: obs.winner === obs.you.seat, as: "alone", reason: "" };
}

export function resultText(obs, ctx) {
  if (obs.winner === null) return "";
  return say(ctx, "board.result.win", { seat: seatParam(obs.winner), n: obs.round });
}

/** The clover tokens a seat knows, in words: each where it lies, then those it saw that Merlin
 * has since rearranged, which lie among his spaces (GC-RULING-11). */
function cloverMemory(ctx, you) {
  const exact = Object.entries(you.clovers).sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([space, kind]) => tr(ctx, "board.clover-at", { space, clover: cloverName(ctx, kind) }));
  // (A memory narrowed to one space by the tokens turned beside it says where the token lies.)
  const among = (you.clovers_among || []).map((group) => (group.spaces.length === 1
    ? tr(ctx, "board.clover-at", { space: group.spaces[0], clover: cloverName(ctx, group.clovers[0]) })
    : tr(ctx, "board.clover-among", {
      spaces: group.spaces.join(", "), clovers: group.clovers.map((kind) => cloverName(ctx, kind)).join(", "),
    })));
  return [...exact, ...among];
}

// ------------------------------------------------------------------ the replay
/** The replay's panel: every seat's allies, what each saw in the draft, the tokens each knew. */
export function drawSecrets(observations, ctx) {
  return el("section", { class: "panel secrets", "data-testid": "secrets" },
    el("h2", {}, tr(ctx, "board.secrets")),
    el("div", { class: "secret-grid" }, observations.map((obs) => {
      const you = obs.you;
      const known = cloverMemory(ctx, you);
      return el("div", { class: "secret", "data-seat": you.seat },
        el("h3", {}, el("span", { class: "dot", "data-color": seatColor(you.seat) }), " ", ctx.seatName(you.seat)),
        el("p", { "data-testid": `gc-secret-hand-${you.seat}` }, el("strong", {}, tr(ctx, "board.col.allies")), ": ", allyList(ctx, you.hand)),
        you.packet.length ? el("p", {}, el("strong", {}, tr(ctx, "board.secret.packet")), ": ", allyList(ctx, you.packet)) : null,
        you.seen.length ? el("p", { class: "small" }, el("strong", {}, tr(ctx, "board.secret.seen")), ": ", you.seen.map((p) => allyList(ctx, p)).join(" | ")) : null,
        known.length ? el("p", { class: "small" }, el("strong", {}, tr(ctx, "board.secret.clovers")), ": ",
          known.join(", ")) : null);
    })),
    el("p", { class: "muted small" }, tr(ctx, "board.clover-undrawn")));
}

/** The spectators' view with every secret the seats held: each seat's allies, every clover
 * token any seat knew, and the allies face down this round (those in no hand, no packet and
 * not face up). */
export function revealAll(spectator, observations) {
  const obs = structuredClone(spectator);
  const hands = observations.map((o) => (o.you ? o.you.hand : []));
  const clovers = {};
  for (const o of observations) Object.assign(clovers, o.you ? o.you.clovers : {});
  const placed = new Set([...obs.allies.aside_up, ...hands.flat(), ...observations.flatMap((o) => (o.you ? o.you.packet : []))]);
  // Only once every ally of the round is placed (none left in the deck) is the rest exactly
  // the face-down ones.
  const faceDown = obs.allies.aside_down + obs.allies.random_discard + obs.allies.discarded;
  const rest = ALLIES.filter((ally) => !placed.has(ally));
  obs.reveal = { hands, clovers, faceDown: faceDown > 0 && rest.length === faceDown ? rest : [] };
  return obs;
}

// ------------------------------------------------------------------ styles
const CSS = `
.gc-board { display: flex; flex-direction: column; gap: .4em; }
.gc-track { width: 100%; height: auto; display: block; }
.gc-ground { fill: #e8dcc0; }
.gc-road { fill: none; stroke: #c9b083; stroke-width: 12; stroke-linejoin: round; stroke-linecap: round; }
.gc-cell { stroke: #9a7d55; stroke-width: 1.5; }
.gc-cell-ring { fill: none; stroke: #2e7d32; stroke-width: 2; stroke-dasharray: 4 3; }
.gc-space[data-kind=dragon] .gc-index { fill: #fff; }
.gc-space.looked .gc-cell { stroke: #6a3d9a; stroke-width: 3; stroke-dasharray: 6 3; }
.gc-space.choosable { cursor: pointer; }
.gc-space.choosable .gc-cell { stroke: #d8a200; stroke-width: 4; }
.gc-space.choosable:hover .gc-cell { fill: #fff3c4; }
.gc-index { font: 10px var(--sans); fill: #6b5a44; }
.gc-start-no { font: bold 15px var(--serif); fill: #5b4a36; }
.gc-token-mark { font: bold 12px var(--sans); fill: #1b4d1f; }
.gc-token-memory { fill: none; stroke: #c9a227; stroke-width: 2; stroke-dasharray: 3 2; }
.gc-knight-disc { stroke: #fff; stroke-width: 1.6; }
.gc-knight.mine .gc-knight-disc { stroke: #ffd34d; stroke-width: 3; }
.gc-knight-no { font: bold 9px var(--sans); fill: #fff; pointer-events: none; }
.gc-knight-no.big { font-size: 13px; }
.gc-order { font: bold 8px var(--sans); fill: #3b2a1a; }
.gc-seal-dot { fill: #a51c1c; stroke: #f4d36b; stroke-width: 1; }
.gc-bar { display: flex; flex-wrap: wrap; gap: .3em 1.2em; align-items: center; padding: .2em .4em; }
.gc-round-no { font-family: var(--serif); color: var(--red); font-size: 1.05em; }
.gc-seal-line, .gc-supply, .gc-spears { display: inline-flex; align-items: center; gap: .25em; }
.gc-seal { vertical-align: middle; }
.gc-spear path { stroke: #5b4a36; fill: #5b4a36; }
.gc-spear.off path { stroke: #cdbb98; fill: #cdbb98; }
.gc-legend { display: flex; flex-wrap: wrap; gap: .2em 1em; font-size: .8em; color: var(--muted); padding: 0 .4em .2em; }
.gc-legend-item { display: inline-flex; align-items: center; gap: .3em; }
.gc-row { display: flex; gap: 1em; flex-wrap: wrap; align-items: flex-start; }
.gc-col { flex: 1; min-width: 24em; }
.gc-draft { flex: 0 0 auto; width: 300px; }
.gc-ring { width: 100%; height: auto; }
.gc-ring-line { fill: none; stroke: #d6c6a3; stroke-width: 2; stroke-dasharray: 5 4; }
.gc-pass { fill: none; stroke: #8e1b1b; stroke-width: 2; }
.gc-ring-glow { fill: rgba(216, 162, 0, .35); stroke: #d8a200; stroke-width: 2; }
.gc-ring-name { font: 11px var(--sans); fill: #3b2a1a; }
p.gc-direction { color: var(--muted); font-size: .85em; }
.gc-ring-name.choosing { font-weight: bold; fill: #8e1b1b; }
.gc-mini-card { fill: #3a3346; stroke: #fff; stroke-width: 1; }
.gc-allies { list-style: none; padding: 0; margin: .3em 0 .6em; display: grid; grid-template-columns: repeat(9, minmax(5.4em, 1fr)); gap: .35em; }
.gc-ally { position: relative; border: 2px solid #cbb892; border-radius: 8px; background: #fff; padding: .3em .35em; min-height: 5.6em;
  display: flex; flex-direction: column; gap: .1em; font-size: .78em; box-shadow: 0 1px 2px rgba(0, 0, 0, .15); }
.gc-num { font: bold 1.5em var(--serif); color: var(--red); line-height: 1; }
.gc-ally-name { font-family: var(--serif); font-weight: bold; overflow-wrap: anywhere; }
.gc-ally-status { color: var(--muted); }
.gc-ally[data-state=waiting] { background: #3a3346; border-color: #000; color: #e8e2f0; }
.gc-ally[data-state=waiting] .gc-num { color: #f4d36b; }
.gc-ally[data-state=waiting] .gc-ally-status { color: #bdb5cc; }
.gc-ally[data-state=aside] { opacity: .55; border-style: dashed; }
.gc-ally[data-state=missing], .gc-ally[data-state=out] { opacity: .6; background: #f1ebdd; }
.gc-ally[data-state=called], .gc-ally[data-state=now], .gc-ally[data-state=known] { border-color: var(--c); }
.gc-ally[data-state=called] .gc-ally-status, .gc-ally[data-state=now] .gc-ally-status,
.gc-ally[data-state=known] .gc-ally-status, .gc-ally[data-state=yours] .gc-ally-status { color: var(--c); font-weight: bold; }
.gc-ally[data-state=yours] { border-color: #d8a200; background: #fff8dc; }
.gc-ally[data-state=now] { box-shadow: 0 0 0 3px #d8a200; }
.gc-ally.cursed { outline: 2px dashed #6a3d9a; outline-offset: 1px; }
.gc-curse-tag { color: #4a2470; background: #efe6f7; border-radius: 4px; padding: 0 .2em; font-size: .9em; }
.gc-herald { margin: .2em 0; font: bold 1.05em var(--serif); color: var(--red); }
.gc-facts { margin: .3em 0; padding-left: 1.2em; font-size: .9em; }
.gc-knights { border-collapse: collapse; width: 100%; font-size: .9em; margin-top: .5em; }
.gc-knights caption { text-align: left; font: bold .95rem var(--serif); margin-bottom: .2em; }
.gc-knights th { text-align: left; color: var(--muted); font-weight: normal; border-bottom: 1px solid var(--line); padding: .15em .4em; }
.gc-knights td { padding: .2em .4em; border-bottom: 1px dotted #e2d5bb; vertical-align: middle; }
.gc-knights tr.mine { background: #fff4d9; }
.gc-packet { border: 2px solid #d8a200; border-radius: 10px; padding: .5em .7em; margin-bottom: .8em; background: #fffaf0;
  overflow-x: clip; /* the passed cards slide in from beside it */ }
.gc-hint { font-weight: bold; margin: .1em 0 .5em; }
.gc-card { min-height: 8.4em; }
.gc-card .card-name { padding-right: 1.2em; }
.gc-card .gc-keep { margin-top: auto; align-self: flex-start; }
.gc-revealed-tag { margin-top: auto; font-size: .75em; color: var(--good); font-weight: bold; }
/* A phone (style.css's narrow layout): the track's small marks a size up, the allies three a
   row, the columns of the table panel one under the other. */
.gc-track.narrow .gc-index { font-size: 11px; }
.gc-track.narrow .gc-knight-no { font-size: 10px; }
.gc-track.narrow .gc-order { font-size: 10px; }
@media (max-width: 640px) {
  .gc-allies { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .gc-col { min-width: 0; flex-basis: 100%; }
  .gc-draft { width: 100%; max-width: 320px; }
  .gc-knights { font-size: .85em; }
  .gc-legend .gc-knight-no { font-size: 11px; }
}
`;

if (typeof CSSStyleSheet === "function" && "adoptedStyleSheets" in document) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
