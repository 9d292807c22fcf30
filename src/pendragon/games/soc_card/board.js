// Shadows over Camelot: The Card Game on the table page: the board (SVG: the threat pile
// with its top card and count, the five quests and the ones its symbol opens, the swords on
// the table, the decks, what is in force), the table (whose turn, what is awaited, Morgan's
// silence, Morgan #1's announcement, Vivien's hand-over, the pile under resolution), the
// seat's own cards (loyalty, Vivien's offer, drawn cards, Knight cards, what it alone knows),
// the seats' badges, the result, and the replay's view of every secret.
// Input: observation dicts only (games/soc_card/rules/view.py documents their fields). The
// log, the action buttons and the decision under way are events worded by the page.
// Nothing is counted for the player (SCG-RULING-8): the pile shows its top card and its
// size, never the cards beneath, and no quest total is ever computed here.
// Served at /games/soc-card/board.js, so the page's modules are imported by absolute path.
import { el, svg } from "/static/js/dom.js";
import { renderEvent } from "/static/js/i18n.js";
import { isNarrowScreen, textWidth } from "/static/js/common.js";

const QUESTS = ["picts", "saxons", "dragon", "excalibur", "grail"];
// The quests a character card's symbol opens (rumor_deck.json's "symbol", SCG-RULING-4);
// a quest card opens its own quest, every other card none. A test checks this against the
// rules' data.
const SYMBOLS = { "morgan-3": "any", "morgan-5": "war", "morgan-7": "any", "morgan-8": "war", mordred: "war" };
const QUEST_FILL = { picts: "#3f5d8a", saxons: "#8a3f3f", dragon: "#b5521b", excalibur: "#4f6f7f", grail: "#b8901c" };
const KIND_FILL = { morgan: "#4a2a5a", merlin: "#1f4f8a", mordred: "#2a2a2a", vivien: "#1b6b5a" };
const END_SWORDS = 7;

// ------------------------------------------------------------------ words
const tr = (ctx, key, params) => ctx.t(key, params || {});
/** A message of the catalog as an event: seats worded by the page, ".you" forms for the reader. */
const say = (ctx, key, params) => renderEvent({ k: key, p: params || {} }, ctx.events);
const seatP = (seat) => ({ seat });
const termP = (term) => ({ term });
const cardName = (ctx, key) => tr(ctx, `soc-card.card.${key}`);
const cardText = (ctx, key) => ctx.t(`soc-card.card.${key}.text`, {}, "");
const questName = (ctx, key) => tr(ctx, `soc-card.quest.${key}`);
const loyaltyName = (ctx, key) => tr(ctx, `soc-card.loyalty.${key}`);
const knightName = (ctx, key) => tr(ctx, `soc-card.knight.${key}`);

/** "picts-4" -> "picts"; a character card -> null. */
function cardQuest(key) {
  const quest = key.split("-")[0];
  return QUESTS.includes(quest) ? quest : null;
}

/** "picts-4" -> "4", "picts-q" -> "?", a character card -> its number ("morgan-4-2" -> "4"). */
function cardValue(key) {
  const parts = key.split("-");
  if (cardQuest(key)) return parts[1] === "q" ? "?" : parts[1];
  return parts[1] || "";
}

function cardKind(key) {
  return cardQuest(key) ? "quest" : key.split("-")[0];
}

function cardFill(key) {
  const quest = cardQuest(key);
  return quest ? QUEST_FILL[quest] : KIND_FILL[cardKind(key)] || "#555";
}

/** The quests a player may go on by the top card (SCG-QUEST-1, SCG-MORGAN-1, SCG-RULING-13). */
export function openQuests(obs) {
  if (!obs.deck && !obs.discard) return [...QUESTS];
  const top = obs.pile.top;
  if (!top) return [];
  if (top.face_down) return [top.announced];
  const quest = cardQuest(top.card);
  if (quest) return [quest];
  const symbol = SYMBOLS[top.card];
  if (symbol === "any") return [...QUESTS];
  if (symbol === "war") return ["picts", "saxons"];
  return [];
}

// ------------------------------------------------------------------ SVG pieces
const W = 1200;
const H = 650;
// A panel narrower than this draws its narrow form (a phone's board: one column of panels).
const NARROW = 600;
const BADGE_FONT = 'bold 13px "DejaVu Sans", Arial, sans-serif'; // .b-badge-text

function text(x, y, content, props = {}) {
  return svg("text", { x, y, class: props.class || "b-text", "text-anchor": props.anchor || "start", ...props.attrs }, content);
}

function title(content) {
  return svg("title", {}, content);
}

function panel(x, y, w, h, heading, key) {
  const group = svg("g", { class: "quest", "data-panel": key });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 14, class: "b-panel" }));
  group.append(text(x + 16, y + 28, heading, { class: "b-title" }));
  return group;
}

/** A quest's symbol, drawn in white around (cx, cy) at scale s (1 = about 40 px). */
function symbol(quest, cx, cy, s = 1) {
  const p = (points) => points.map(([x, y]) => `${cx + x * s} ${cy + y * s}`).join(" L");
  const attrs = { fill: "#fff", stroke: "#fff", "stroke-width": 2 * s, "stroke-linejoin": "round" };
  const group = svg("g", { class: "quest-symbol", "data-symbol": quest });
  if (quest === "picts") { // a spear
    group.append(svg("line", { x1: cx - 14 * s, y1: cy + 16 * s, x2: cx + 10 * s, y2: cy - 8 * s, stroke: "#fff", "stroke-width": 4 * s }));
    group.append(svg("path", { d: `M${p([[8, -18], [18, -18], [18, -8], [12, -4]])} Z`, ...attrs }));
  } else if (quest === "saxons") { // a shield
    group.append(svg("path", { d: `M${p([[-14, -16], [14, -16], [14, 0]])} Q${cx + 14 * s} ${cy + 14 * s} ${cx} ${cy + 20 * s} Q${cx - 14 * s} ${cy + 14 * s} ${cx - 14 * s} ${cy} Z`, ...attrs }));
  } else if (quest === "dragon") { // a wing
    group.append(svg("path", { d: `M${p([[-18, 12], [-6, -16], [0, -4], [8, -18], [12, -2], [20, -10], [14, 14]])} Z`, ...attrs }));
  } else if (quest === "excalibur") { // a sword
    group.append(svg("path", { d: `M${p([[0, -22], [4, -16], [4, 8], [-4, 8], [-4, -16]])} Z`, ...attrs }));
    group.append(svg("rect", { x: cx - 12 * s, y: cy + 8 * s, width: 24 * s, height: 4 * s, ...attrs }));
    group.append(svg("rect", { x: cx - 2 * s, y: cy + 12 * s, width: 4 * s, height: 9 * s, ...attrs }));
  } else { // the grail: a cup
    group.append(svg("path", { d: `M${p([[-14, -16], [14, -16]])} Q${cx + 14 * s} ${cy + 4 * s} ${cx + 3 * s} ${cy + 6 * s} L${p([[3, 14], [10, 18], [-10, 18], [-3, 14], [-3, 6]])} Q${cx - 14 * s} ${cy + 4 * s} ${cx - 14 * s} ${cy - 16 * s} Z`, ...attrs }));
  }
  return group;
}

/** A rumor card face up: its colour, its name, its value or number, its quest's symbol. */
function cardFace(ctx, key, x, y, w, h) {
  const group = svg("g", { class: "rumor-card", "data-card": key });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 8, fill: "#fffdf6", stroke: "#3b2a1a", "stroke-width": 2 }));
  group.append(svg("rect", { x: x + 6, y: y + 6, width: w - 12, height: h - 12, rx: 6, fill: cardFill(key) }));
  const quest = cardQuest(key);
  if (quest) group.append(symbol(quest, x + w / 2, y + h / 2 - 8, w / 110));
  group.append(text(x + w / 2, y + (quest ? h - 22 : h / 2 + 14), cardValue(key), { class: "b-count white", anchor: "middle" }));
  group.append(text(x + w / 2, y + 26, cardName(ctx, key), { class: "b-badge-text", anchor: "middle" }));
  group.append(title([cardName(ctx, key), cardText(ctx, key)].filter(Boolean).join("\n")));
  return group;
}

function faceDown(x, y, w, h) {
  const group = svg("g", { class: "face-down" });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 8, class: "b-card hidden" }));
  group.append(svg("path", { d: `M${x + 8} ${y + 8} L${x + w - 8} ${y + h - 8} M${x + w - 8} ${y + 8} L${x + 8} ${y + h - 8}`, class: "b-hatch" }));
  return group;
}

function drawPile(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.pile"), "pile");
  const pile = obs.pile;
  const compact = w < 460;
  const cx = x + 24;
  const cy = y + 50;
  const cw = compact ? 120 : 150;
  const ch = compact ? 168 : 210;
  // The cards beneath, as a stack (how many lie there is public; what they are is not).
  const under = Math.min(Math.max(pile.count - 1, 0), 6);
  for (let i = under; i > 0; i--) {
    group.append(svg("rect", { x: cx + i * 4, y: cy + i * 4, width: cw, height: ch, rx: 8, class: "b-card hidden stack" }));
  }
  const top = pile.top;
  const slot = svg("g", { "data-testid": "top-card", "data-card": top ? top.card || "" : "", "data-face-down": top && top.face_down ? "true" : "false" });
  if (!top) {
    slot.append(svg("rect", { x: cx, y: cy, width: cw, height: ch, rx: 8, class: "b-card empty" }));
    slot.append(text(cx + cw / 2, cy + ch / 2, tr(ctx, "soc-card.board.empty"), { class: "b-label", anchor: "middle" }));
  } else if (top.face_down && !top.card) {
    slot.append(faceDown(cx, cy, cw, ch));
    slot.append(svg("circle", { cx: cx + cw / 2, cy: cy + ch / 2, r: 34, fill: QUEST_FILL[top.announced], stroke: "#fff", "stroke-width": 3 }));
    slot.append(symbol(top.announced, cx + cw / 2, cy + ch / 2, 1.1));
    slot.append(title(say(ctx, "soc-card.board.announced-by", { seat: seatP(top.by), card: termP(`soc-card.card.${top.announced_card}`) })));
  } else {
    slot.append(cardFace(ctx, top.card, cx, cy, cw, ch));
    if (top.face_down) { // the replay: a face-down card with its face revealed
      slot.append(svg("rect", { x: cx - 3, y: cy - 3, width: cw + 6, height: ch + 6, rx: 10, fill: "none", stroke: "#d8a200", "stroke-width": 3, "stroke-dasharray": "8 5" }));
    }
  }
  group.append(slot);
  const tx = x + cw + 50;
  let ty = y + 70;
  const line = (content, cls = "b-text", testid = undefined) => {
    group.append(text(tx, ty, content, { class: cls, attrs: { "data-testid": testid } }));
    ty += 22;
  };
  line(tr(ctx, "soc-card.board.pile-count", { count: pile.count }), "b-label", "pile-count");
  ty += 6;
  line(tr(ctx, "soc-card.board.top"), "b-label");
  if (!top) line(tr(ctx, "soc-card.board.empty"), "b-text");
  else if (top.face_down) {
    line(tr(ctx, "soc-card.board.face-down"), "b-text");
    line(tr(ctx, "soc-card.board.announced", { card: cardName(ctx, top.announced_card) }), "b-text", "announced");
    line(say(ctx, "soc-card.board.laid-by", { seat: seatP(top.by) }), "b-small");
    const mine = obs.you && obs.you.top_card;
    if (mine) line(tr(ctx, "soc-card.board.your-card", { card: cardName(ctx, mine) }), "b-small");
    if (top.card) line(tr(ctx, "soc-card.board.face-down-card", { card: cardName(ctx, top.card) }), "b-small");
  } else {
    line(cardName(ctx, top.card), "b-text");
  }
  if (obs.merlin_4_token) {
    // Merlin #4's token lies face down beside the pile (SCG-MERLIN-4, SCG-RULING-16).
    const known = (obs.you && obs.you.merlin_4_token) || obs.revealed_token || null;
    const token = svg("g", { class: "merlin-token", "data-testid": "merlin-token", "data-quest": known || "" });
    token.append(svg("circle", { cx: tx + 22, cy: y + h - 40, r: 20, fill: known ? QUEST_FILL[known] : KIND_FILL.merlin, stroke: "#fff", "stroke-width": 3 }));
    if (known) token.append(symbol(known, tx + 22, y + h - 40, 0.55));
    else token.append(text(tx + 22, y + h - 34, "M", { class: "b-token-label", anchor: "middle" }));
    token.append(text(tx + 50, y + h - 35, known ? tr(ctx, "soc-card.board.token-quest", { quest: questName(ctx, known) }) : tr(ctx, "soc-card.board.token"), { class: "b-small" }));
    token.append(title(cardText(ctx, "merlin-4")));
    group.append(token);
  }
  return group;
}

/** The quests as a list, one a row (a narrow board): emblem, name, what it is worth. */
function drawQuestList(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.quests"), "quests");
  const open = openQuests(obs);
  const step = (h - 48) / QUESTS.length;
  QUESTS.forEach((quest, i) => {
    const cx = x + 46;
    const cy = y + 48 + step * (i + 0.5);
    const isOpen = open.includes(quest);
    const emblem = svg("g", { class: `quest-emblem ${isOpen ? "open" : ""}`, "data-quest": quest, "data-open": isOpen ? "true" : "false" });
    if (isOpen) emblem.append(svg("circle", { cx, cy, r: 30, fill: "none", stroke: "#d8a200", "stroke-width": 4 }));
    emblem.append(svg("circle", { cx, cy, r: 25, fill: QUEST_FILL[quest], stroke: "#3b2a1a", "stroke-width": 2, opacity: isOpen || !open.length ? 1 : 0.55 }));
    emblem.append(symbol(quest, cx, cy, 0.8));
    emblem.append(text(cx + 44, cy - 3, questName(ctx, quest), { class: "b-title" }));
    emblem.append(text(cx + 44, cy + 17, tr(ctx, `soc-card.quest.${quest}.text`), { class: "b-small" }));
    if (isOpen) emblem.append(text(x + w - 14, cy - 3, tr(ctx, "soc-card.board.open"), { class: "b-over-text", anchor: "end" }));
    emblem.append(title([questName(ctx, quest), isOpen ? tr(ctx, "soc-card.board.open.text") : ""].filter(Boolean).join("\n")));
    group.append(emblem);
  });
  return group;
}

function drawQuests(ctx, obs, x, y, w, h) {
  if (w < NARROW) return drawQuestList(ctx, obs, x, y, w, h);
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.quests"), "quests");
  const open = openQuests(obs);
  const step = (w - 40) / QUESTS.length;
  QUESTS.forEach((quest, i) => {
    const cx = x + 20 + step * (i + 0.5);
    const cy = y + 120;
    const isOpen = open.includes(quest);
    const emblem = svg("g", { class: `quest-emblem ${isOpen ? "open" : ""}`, "data-quest": quest, "data-open": isOpen ? "true" : "false" });
    if (isOpen) emblem.append(svg("circle", { cx, cy, r: 60, fill: "none", stroke: "#d8a200", "stroke-width": 6 }));
    emblem.append(svg("circle", { cx, cy, r: 50, fill: QUEST_FILL[quest], stroke: "#3b2a1a", "stroke-width": 2, opacity: isOpen || !open.length ? 1 : 0.55 }));
    emblem.append(symbol(quest, cx, cy, 1.5));
    // A long name is squeezed into its column (the stylesheet fixes the font's size).
    const name = questName(ctx, quest);
    const fit = name.length * 11 > step - 8 ? { textLength: step - 8, lengthAdjust: "spacingAndGlyphs" } : {};
    emblem.append(text(cx, cy + 86, name, { class: "b-title", anchor: "middle", attrs: fit }));
    emblem.append(text(cx, cy + 108, tr(ctx, `soc-card.quest.${quest}.text`), { class: "b-small", anchor: "middle" }));
    if (isOpen) emblem.append(text(cx, cy + 132, tr(ctx, "soc-card.board.open"), { class: "b-over-text", anchor: "middle" }));
    emblem.append(title([questName(ctx, quest), isOpen ? tr(ctx, "soc-card.board.open.text") : ""].filter(Boolean).join("\n")));
    group.append(emblem);
  });
  return group;
}

/** One sword standing upright at (sx, sy): white, black, or an empty place. */
function sword(sx, sy, colour) {
  const group = svg("g", { class: `sword ${colour}` });
  const fill = colour === "white" ? "#f5f5f0" : colour === "black" ? "#1a1a1a" : "none";
  const stroke = colour === "empty" ? "#c2ad88" : "#555";
  const dash = colour === "empty" ? "4 3" : undefined;
  group.append(svg("path", { d: `M${sx} ${sy} L${sx + 6} ${sy + 10} L${sx + 6} ${sy + 56} L${sx - 6} ${sy + 56} L${sx - 6} ${sy + 10} Z`, fill, stroke, "stroke-width": 1.5, "stroke-dasharray": dash }));
  group.append(svg("rect", { x: sx - 14, y: sy + 56, width: 28, height: 6, rx: 2, fill: colour === "empty" ? "none" : "#b8860b", stroke, "stroke-dasharray": dash }));
  group.append(svg("rect", { x: sx - 3, y: sy + 62, width: 6, height: 12, fill: colour === "empty" ? "none" : "#6d4f00", stroke, "stroke-dasharray": dash }));
  return group;
}

function drawSwords(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.swords"), "swords");
  // A narrow board writes each row's count above its swords instead of beside them.
  const narrow = w < NARROW;
  const rows = narrow
    ? [["white", obs.swords.white, y + 62], ["black", obs.swords.black, y + 166]]
    : [["white", obs.swords.white, y + 40], ["black", obs.swords.black, y + 122]];
  for (const [colour, count, ry] of rows) {
    const places = Math.max(END_SWORDS, count);
    const step = Math.min(44, (w - (narrow ? 60 : 260)) / places);
    const row = svg("g", { "data-testid": `${colour}-swords`, "data-count": count });
    for (let i = 0; i < places; i++) row.append(sword(x + 34 + i * step, ry, i < count ? colour : "empty"));
    // The seventh place: a colour's seven swords end the game (SCG-END-1).
    const goal = x + 34 + (END_SWORDS - 0.5) * step;
    row.append(svg("line", { x1: goal, y1: ry - 4, x2: goal, y2: ry + 78, stroke: "#9a7d55", "stroke-width": 2, "stroke-dasharray": "3 3" }));
    const label = tr(ctx, `soc-card.board.${colour}-swords`, { count });
    const fill = colour === "white" ? "#5b4a36" : "#1a1008";
    if (narrow) row.append(text(x + 16, ry - 8, label, { class: "b-count", attrs: { fill } }));
    else row.append(text(x + w - 16, ry + 44, label, { class: "b-count", anchor: "end", attrs: { fill } }));
    group.append(row);
  }
  group.append(text(x + 16, y + h - 9, tr(ctx, "soc-card.board.swords-goal"), { class: "b-small" }));
  return group;
}

function drawDecks(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.decks"), "decks");
  const decks = [["deck", obs.deck, "#26344d"], ["discard", obs.discard, "#8b7a5c"], ["aside", obs.morgans_aside, KIND_FILL.morgan]];
  if (obs.expert) decks.push(["knight-deck", obs.knight_deck, "#6d1a12"]);
  decks.forEach(([key, count, fill], i) => {
    const dy = y + 44 + i * 44;
    const g = svg("g", { class: "deck", "data-testid": `deck-${key}`, "data-count": count });
    g.append(svg("rect", { x: x + 20, y: dy + 3, width: 50, height: 36, rx: 5, fill, opacity: 0.5 }));
    g.append(svg("rect", { x: x + 16, y: dy, width: 50, height: 36, rx: 5, fill, stroke: "#3b2a1a" }));
    g.append(text(x + 41, dy + 24, String(count), { class: "b-token-label", anchor: "middle" }));
    g.append(text(x + 80, dy + 23, tr(ctx, `soc-card.board.${key}`), { class: "b-label" }));
    group.append(g);
  });
  return group;
}

/** What is in force, as [key, label, tip, fill] badges. */
function inForce(ctx, obs) {
  const badges = [];
  if (obs.silence) badges.push(["silence", tr(ctx, "soc-card.board.silence"), tr(ctx, "soc-card.board.silence.text"), "#8a1c1c"]);
  for (const morgan of ["morgan-1", "morgan-2"]) {
    if (obs.in_force[morgan]) badges.push([morgan, cardName(ctx, morgan), cardText(ctx, morgan), KIND_FILL.morgan]);
  }
  if (obs.merlin_4_token) badges.push(["merlin-4", tr(ctx, "soc-card.board.token"), cardText(ctx, "merlin-4"), KIND_FILL.merlin]);
  return badges;
}

/** The badges placed in a panel `w` wide: beside the title on a wide board, in rows under
 * it on a narrow one; each [badge, dx, dy, width]. */
function placeInForce(ctx, obs, w) {
  const start = w < NARROW ? 16 : 160;
  let dx = start;
  let dy = w < NARROW ? 40 : 10;
  return inForce(ctx, obs).map((badge) => {
    const width = Math.min(w - 32, 24 + textWidth(badge[1], BADGE_FONT));
    if (dx > start && dx + width > w - 16) {
      dx = start;
      dy += 36;
    }
    const placed = [badge, dx, dy, width];
    dx += width + 10;
    return placed;
  });
}

/** How tall the panel of what is in force must be. */
function inForceHeight(ctx, obs, w) {
  const placed = placeInForce(ctx, obs, w);
  const bottom = placed.length ? placed[placed.length - 1][2] + 38 : (w < NARROW ? 40 : 38);
  return Math.max(48, bottom + 10);
}

function drawInForce(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc-card.board.in-force"), "in-force");
  const placed = placeInForce(ctx, obs, w);
  if (!placed.length) group.append(text(x + (w < NARROW ? 200 : 160), y + 30, "—", { class: "b-label" }));
  for (const [[key, label, tip, fill], dx, dy, width] of placed) {
    const badge = svg("g", { class: "b-effect", "data-testid": `in-force-${key}` });
    badge.append(svg("rect", { x: x + dx, y: y + dy, width, height: 28, rx: 8, fill }));
    badge.append(text(x + dx + width / 2, y + dy + 19, label, { class: "b-badge-text", anchor: "middle" }));
    if (tip) badge.append(title(tip));
    group.append(badge);
  }
  return group;
}

/** The board as an SVG element: two rows of panels, or on a phone (the page's narrow
 * layout) one column of narrower panels, readable at the phone's width (issue 17, item 9). */
export function drawBoard(obs, ctx) {
  const narrow = isNarrowScreen();
  const width = narrow ? 424 : W;
  const boxes = [];
  let height = H;
  if (narrow) {
    const column = [[drawPile, 250], [drawInForce, inForceHeight(ctx, obs, 400)], [drawSwords, 264], [drawQuests, 358], [drawDecks, 226]];
    let y = 12;
    for (const [draw, h] of column) {
      boxes.push([draw, 12, y, 400, h]);
      y += h + 12;
    }
    height = y;
  } else {
    const force = inForceHeight(ctx, obs, 1176);
    boxes.push([drawPile, 12, 12, 460, 330], [drawQuests, 484, 12, 704, 330], [drawSwords, 12, 354, 760, 226],
      [drawDecks, 784, 354, 404, 226], [drawInForce, 12, 592, 1176, force]);
    height = 592 + force + 10;
  }
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `soc-board soc-card-board${narrow ? " narrow" : ""}`, role: "img", "aria-label": tr(ctx, "soc-card.board.aria") });
  root.append(svg("rect", { x: 0, y: 0, width, height, rx: 18, class: "b-ground" }));
  for (const [draw, x, y, w, h] of boxes) root.append(draw(ctx, obs, x, y, w, h));
  return root;
}

// ------------------------------------------------------------------ seats
/** A seat's badge: its loyalty once revealed, whether it has accused, its face-down Knight
 * cards, whose turn it is and who decides. Never another seat's hidden loyalty. */
export function seatBadge(seat, obs, ctx) {
  if (!obs || !obs.seats || seat >= obs.seats.length) return null;
  const entry = obs.seats[seat];
  const parts = [];
  if (entry.loyalty) {
    parts.push(el("span", { class: `loyalty-tag ${entry.loyalty}`, "data-testid": `loyalty-tag-${seat}` }, loyaltyName(ctx, entry.loyalty)));
  }
  if (entry.accused) parts.push(el("span", { class: "muted small" }, tr(ctx, "soc-card.board.has-accused")));
  if (entry.offered) parts.push(el("span", { class: "hand-size", "data-testid": `offered-${seat}` }, tr(ctx, "soc-card.board.offered")));
  if (entry.knights) parts.push(el("span", { class: "hand-size" }, tr(ctx, "soc-card.board.knights", { count: entry.knights })));
  if (obs.hand && obs.hand.seat === seat) parts.push(el("span", { class: "hand-size" }, say(ctx, "soc-card.board.holds", { seat: seatP(seat), count: obs.hand.count })));
  if (obs.status === "playing") {
    if (obs.turn === seat) parts.push(el("span", { class: "turn-tag" }, tr(ctx, "soc-card.board.turn-tag")));
    if (obs.to_act === seat && obs.turn !== seat) parts.push(el("span", { class: "turn-tag" }, tr(ctx, "soc-card.board.deciding")));
  }
  return parts.length ? el("span", { class: "knight" }, parts) : null;
}

// ------------------------------------------------------------------ actions
const GROUPS = { listen: "soc-card.board.group.rumors", quest: "soc-card.board.quests", accuse: "soc-card.board.group.accuse", play: "soc-card.board.knight-deck", galahad: "soc-card.board.knight-deck" };

/** The turn's menu grouped: rumors, quests, accusations, Knight cards (SCG-TURN-1). */
export function actionGroup(text, obs, ctx) {
  if (!obs || obs.decision !== "turn") return "";
  const key = GROUPS[text.split(":")[0]];
  return key ? tr(ctx, key) : "";
}

// ------------------------------------------------------------------ result
export function resultText(obs, ctx) {
  if (obs.status === "playing") return "";
  const parts = [tr(ctx, `soc-card.result.${obs.status}`)];
  if (obs.end_reason) parts.push(tr(ctx, `soc-card.end.${obs.end_reason}`));
  // No sword on the table: nothing to count (issue 39, item 14).
  if (obs.swords.white + obs.swords.black) parts.push(tr(ctx, "soc-card.result.swords", { white: obs.swords.white, black: obs.swords.black }));
  return parts.join(" — ");
}

/** Whether a move cannot be taken back, so the page asks first (issue 39, item 9): an
 * accusation (each knight has one, and a wrong one costs the loyal side). */
export function irreversible(text) {
  return text.startsWith("accuse:");
}

/** What the end means for a seat (issue 39, item 7): its side won or lost (a traitor's as
 * the traitor; alone at the table, the player's own), and why the game ended. */
export function verdict(obs, ctx) {
  if (!obs || obs.status === "playing" || !obs.you || !obs.you.loyalty) return null;
  const traitor = obs.you.loyalty === "traitor";
  const won = traitor ? obs.status === "evil-win" : obs.status === "loyal-win";
  const reason = obs.end_reason ? tr(ctx, `soc-card.end.${obs.end_reason}`) : "";
  return { won, as: traitor ? "traitor" : obs.seats.length === 1 ? "alone" : "side", reason };
}

// ------------------------------------------------------------------ the table
function chip(ctx, key) {
  return el("span", { class: `chip ${cardQuest(key) ? "white" : "black"}`, "data-card": key, title: cardText(ctx, key) || undefined }, cardName(ctx, key));
}

function row(label, content, testid) {
  return el("div", { class: "row", "data-testid": testid }, label ? el("span", { class: "row-label" }, label) : null, content);
}

/** What the decision under way is about: the silence, Morgan #1's announcement, Vivien's
 * exchange, a pending hand, the pile being resolved. Rows of the table, and on a phone, whose
 * "Play" tab hides the table, under the decision's prompt too. */
export function decisionContext(obs, ctx) {
  const rows = [];
  if (obs.silence) {
    rows.push(row(tr(ctx, "soc-card.board.silence"), tr(ctx, "soc-card.board.silence.text"), "silence"));
  }
  const top = obs.pile.top;
  if (top && top.face_down) {
    rows.push(row(cardName(ctx, "morgan-1"), say(ctx, "soc-card.board.announced-by", {
      seat: seatP(top.by), card: termP(`soc-card.card.${top.announced_card}`),
    }), "announcement"));
  }
  if (["vivien-give", "vivien-keep"].includes(obs.decision) && obs.to_act >= 0) {
    rows.push(row(cardName(ctx, "vivien"), say(ctx, `soc-card.board.${obs.decision}`, { seat: seatP(obs.to_act) }), "vivien"));
  }
  if (obs.hand) {
    rows.push(row("", say(ctx, "soc-card.board.holds", { seat: seatP(obs.hand.seat), count: obs.hand.count }), "held"));
    if (obs.hand.cards) rows.push(row("", tr(ctx, "soc-card.board.drawn", { cards: obs.hand.cards.map((k) => cardName(ctx, k)).join(", ") }), "held-cards"));
  }
  if (obs.resolving) {
    rows.push(row(tr(ctx, "soc-card.board.resolving", { quest: questName(ctx, obs.resolving.quest) }),
      obs.resolving.cards.map((key) => chip(ctx, key)), "resolving"));
  }
  return rows;
}

/** What lies on the table for all to see: the turn, what is awaited, the decision's rows
 * (`decisionContext`), the pile last resolved, the knights played, the loyalties shown. */
export function drawTable(obs, ctx) {
  const rows = [];
  if (obs.status === "playing") {
    rows.push(el("p", { class: "turn-line", "data-testid": "turn" }, say(ctx, "soc-card.board.turn", { seat: seatP(obs.turn) })));
    if (obs.to_act !== null && obs.to_act >= 0) {
      rows.push(el("p", { class: "muted", "data-testid": "awaited" }, say(ctx, "soc-card.board.awaited", {
        // Alone at the table there is nobody to accuse: the solo turn has its own words.
        seat: seatP(obs.to_act), what: termP(`soc-card.board.decision.${obs.decision === "turn" && obs.seats.length === 1 ? "turn-solo" : obs.decision}`),
      })));
    }
  }
  rows.push(...decisionContext(obs, ctx));
  if (!obs.resolving && obs.last_resolution) {
    const last = obs.last_resolution;
    const extra = [];
    if (last.token) extra.push(el("span", { class: "chip" }, tr(ctx, "soc-card.board.token-quest", { quest: questName(ctx, last.token) })));
    if (last.bonus) extra.push(el("span", { class: "chip" }, tr(ctx, "soc-card.board.last-bonus", { number: last.bonus })));
    rows.push(row(tr(ctx, "soc-card.board.last", { quest: questName(ctx, last.quest) }),
      [...last.cards.map((key) => chip(ctx, key)), ...extra], "last-resolution"));
  }
  const played = Object.entries(obs.knights_played || {}).filter(([, n]) => n > 0);
  if (played.length) {
    rows.push(row(tr(ctx, "soc-card.board.knights-played"),
      played.map(([key, n]) => el("span", { class: "chip", title: ctx.t(`soc-card.knight.${key}.text`, {}, "") || undefined }, n > 1 ? `${knightName(ctx, key)} ×${n}` : knightName(ctx, key))), "knights-played"));
  }
  if (obs.loyalties) {
    rows.push(row(tr(ctx, "soc-card.board.loyalties"), obs.loyalties.map((loyalty, seat) =>
      el("span", { class: `loyalty-tag ${loyalty}` }, `${ctx.seatName(seat)}: ${loyaltyName(ctx, loyalty)}`)), "loyalties"));
  }
  return el("section", { class: "panel on-table", "data-testid": "on-table" },
    el("h2", {}, tr(ctx, "soc-card.board.table")), rows);
}

// ------------------------------------------------------------------ the seat's own
function loyaltyCard(ctx, loyalty, testid, heading) {
  return el("div", { class: `card loyalty ${loyalty}`, "data-testid": testid, "data-loyalty": loyalty },
    heading ? el("span", { class: "card-text" }, heading) : null,
    el("span", { class: "card-name" }, loyaltyName(ctx, loyalty)),
    el("span", { class: "card-text" }, tr(ctx, `soc-card.loyalty.${loyalty}.text`)));
}

function rumorCards(ctx, keys, testid, mine) {
  if (!keys.length) return el("p", { class: "muted", "data-testid": testid }, tr(ctx, mine ? "soc-card.board.no-hand" : "soc-card.board.none"));
  return el("ul", { class: "hand", "data-testid": testid }, keys.map((key) =>
    el("li", { class: "card", "data-card": key },
      el("span", { class: "card-name" }, cardName(ctx, key)),
      el("span", { class: "card-text" }, cardText(ctx, key)))));
}

function knightCards(ctx, knights, testid) {
  const held = Object.entries(knights || {}).filter(([, n]) => n > 0);
  if (!held.length) return el("p", { class: "muted", "data-testid": testid }, tr(ctx, "soc-card.board.none"));
  return el("ul", { class: "hand", "data-testid": testid }, held.map(([key, n]) =>
    el("li", { class: "card special", "data-card": key },
      el("span", { class: "card-name" }, knightName(ctx, key)),
      n > 1 ? el("span", { class: "card-count" }, `×${n}`) : null,
      el("span", { class: "card-text" }, ctx.t(`soc-card.knight.${key}.text`, {}, "")))));
}

function knowledge(ctx, you, mine) {
  const items = [];
  if (you.merlin_4_token) items.push(tr(ctx, mine ? "soc-card.board.token-yours" : "soc-card.board.token-quest", { quest: questName(ctx, you.merlin_4_token) }));
  if (you.top_card) items.push(tr(ctx, mine ? "soc-card.board.your-card" : "soc-card.board.face-down-card", { card: cardName(ctx, you.top_card) }));
  if ((you.deck_seen || []).length) items.push(tr(ctx, "soc-card.board.deck-seen", { cards: you.deck_seen.map((k) => cardName(ctx, k)).join(", ") }));
  for (const [seat, loyalty] of Object.entries(you.known_loyalties || {})) {
    items.push(tr(ctx, "soc-card.board.known-loyalty", { who: ctx.seatName(Number(seat)), loyalty: loyaltyName(ctx, loyalty) }));
  }
  if (!items.length) return null;
  return el("div", { class: "knowledge", "data-testid": "knowledge" },
    el("h3", {}, tr(ctx, mine ? "soc-card.board.known" : "soc-card.board.known-neutral")),
    el("ul", {}, items.map((item) => el("li", {}, item))));
}

/** A seat's own cards; ``mine``: worded for the seat itself (else for the replay's reader). */
function ownCards(ctx, obs, mine) {
  const you = obs.you;
  return [
    el("div", { class: "private-row" },
      you.loyalty ? loyaltyCard(ctx, you.loyalty, "loyalty", mine ? tr(ctx, "soc-card.board.loyalty") : "")
        : el("p", { class: "muted", "data-testid": "no-loyalty" }, tr(ctx, "soc-card.board.no-loyalty")),
      // Vivien's hand-over: the set-aside card offered, to keep or take in secret (SCG-VIVIEN-2).
      you.offer ? loyaltyCard(ctx, you.offer, "offer", mine
        ? `${tr(ctx, "soc-card.board.offer")} — ${tr(ctx, "soc-card.board.offer.text")}` : cardName(ctx, "vivien")) : null,
      el("div", { class: "hand-box" },
        el("h3", {}, tr(ctx, mine ? "soc-card.board.hand" : "soc-card.board.hand-neutral")),
        rumorCards(ctx, you.hand || [], mine ? "hand" : `hand-${obs.seat}`, mine))),
    obs.expert ? el("div", { class: "hand-box" },
      el("h3", {}, tr(ctx, mine ? "soc-card.board.your-knights" : "soc-card.board.knight-deck")),
      knightCards(ctx, you.knights, mine ? "knights" : `knights-${obs.seat}`)) : null,
    knowledge(ctx, you, mine),
  ];
}

/** The seat's own cards and what it alone knows (a spectator has none). */
export function drawPrivate(obs, ctx) {
  if (!obs.you) return null;
  return el("section", { class: "panel private", "data-testid": "private" },
    el("h2", {}, tr(ctx, "soc-card.board.yours")), ownCards(ctx, obs, true));
}

// ------------------------------------------------------------------ the replay
/** Every seat's secrets at this position of a finished game. */
export function drawSecrets(observations, ctx) {
  return el("section", { class: "panel secrets", "data-testid": "secrets" },
    el("h2", {}, tr(ctx, "soc-card.board.secrets")),
    el("div", { class: "secret-grid" }, observations.map((obs) =>
      el("div", { class: "secret", "data-seat": obs.seat }, el("h3", {}, ctx.seatName(obs.seat)), ownCards(ctx, obs, false)))));
}

/** The spectators' board with every secret shown: every loyalty card, the face of a
 * face-down card on the pile, Merlin's token and a pending hand of drawn cards. */
export function revealAll(spectator, observations) {
  const obs = structuredClone(spectator);
  const own = (seat) => observations.find((o) => o.seat === seat);
  obs.seats = obs.seats.map((entry, seat) => {
    const mine = own(seat);
    return mine && mine.you.loyalty ? { ...entry, loyalty: mine.you.loyalty } : entry;
  });
  // Every loyalty card as it lies at this moment (after Vivien's swaps), on the table panel.
  if (!obs.solo && obs.seats.every((entry) => entry.loyalty)) obs.loyalties = obs.seats.map((entry) => entry.loyalty);
  const top = obs.pile.top;
  if (top && top.face_down) {
    const layer = own(top.by);
    if (layer && layer.you.top_card) obs.pile.top = { ...top, card: layer.you.top_card };
  }
  for (const other of observations) {
    if (other.you.merlin_4_token) obs.revealed_token = other.you.merlin_4_token;
  }
  if (obs.hand) {
    const holder = own(obs.hand.seat);
    if (holder) obs.hand = { ...obs.hand, cards: holder.you.hand };
  }
  return obs;
}
