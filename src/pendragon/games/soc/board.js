// Shadows over Camelot on the table page: the board (SVG), the table, the private panel,
// the seats' badges and the result. Input: observation dicts only (games/soc/rules/view.py
// documents their layout). The log, the action buttons and the decision under way are
// events worded by the page (/static/js/i18n.js); this module only draws.
// Served at /games/soc/board.js, so the page's modules are imported by absolute path.
import { el, svg } from "/static/js/dom.js";
import { isNarrowScreen, seatFill, textWidth } from "/static/js/common.js";

// ------------------------------------------------------------------ names
function tr(ctx, key, params, otherwise) {
  return ctx.t(key, params || {}, otherwise);
}
const whiteName = (ctx, key) => tr(ctx, `soc.white.${key}`, {}, key);
const whiteText = (ctx, key) => tr(ctx, `soc.white.${key}.text`, {}, "");
const blackName = (ctx, key) => tr(ctx, `soc.black.${key}`, {}, key);
const blackText = (ctx, key) => tr(ctx, `soc.black.${key}.text`, {}, "");
const knightName = (ctx, key) => (key ? tr(ctx, `soc.knight.${key}`, {}, key) : "?");
const knightAbility = (ctx, key) => (key ? tr(ctx, `soc.knight.${key}.ability`, {}, "") : "");
const placeName = (ctx, key) => tr(ctx, `soc.place.${key}`, {}, key);

function knightOf(obs, seat) {
  if (!obs || !obs.knights) return null;
  const knight = obs.knights.find((k) => k.seat === seat);
  return knight ? knight.knight : null;
}

/** How the page names a seat in events: "Alice (Sir Kay)", "Seat 3 (Sir Kay)" or "you". */
export function seatLabel(seat, obs, ctx) {
  return labelSeat(ctx, seat, obs);
}

function labelSeat(ctx, seat, obs) {
  if (seat === ctx.me) return ctx.seatName(seat);
  const base = ctx.seatName(seat);
  const knight = knightOf(obs || ctx.obs, seat);
  // A bot bears its knight's name already (issue 39, item 8): "Sir Kay", not "Sir Kay (Sir Kay)".
  return knight && knightName(ctx, knight) !== base ? `${base} (${knightName(ctx, knight)})` : base;
}

/** The seat's knight by name ("Sir Kay"; one's own too, where "you" would not fit the
 * sentence), or its label before the knights are dealt. */
function knightOrSeat(ctx, seat, obs) {
  const knight = knightOf(obs, seat);
  return knight ? knightName(ctx, knight) : labelSeat(ctx, seat, obs);
}

/** A bot's name: the knight it plays (issue 39, item 8), once the knights are dealt. */
export function botName(seat, obs, ctx) {
  const knight = knightOf(obs, seat);
  return knight ? knightName(ctx, knight) : "";
}

/** What the end means for a seat (issue 39, item 7): its side won or lost, a traitor's
 * alone; and why the game ended. */
/** Whether a lobby option applies with the others chosen (issue 39, item 13): the squires'
 * settings with the Squire's Challenge, the played-black-cards rule with Merlin's Company,
 * the three brave knights at three seats. */
export function optionApplies(name, options, players) {
  if (name === "squires_hard" || name === "squires_cards") return Boolean(options.squires);
  if (name === "played_black") return options.expansion === "merlins-company";
  if (name === "three_brave_knights") return players === 3;
  return true;
}

/** A log line's events without the one that only repeats another (issue 39, item 10): "You:
 * Lose 1 life." before "You lose 1 life." says it once. */
export function compactEvents(events) {
  const lost = events.some((event) => event.k === "soc.log.life-lost");
  return lost ? events.filter((event) => !(event.k === "soc.log.act" && event.p && event.p.action
    && event.p.action.k === "soc.action.lose-life")) : events;
}

/** Whether a move cannot be taken back, so the page asks first (issue 39, item 9): an
 * accusation (each knight has one, and a wrong one costs the loyal side). */
export function irreversible(text) {
  return text.startsWith("accuse:");
}

export function verdict(obs, ctx) {
  if (!obs || obs.status === "running" || !obs.you || !obs.you.loyalty) return null;
  const traitor = obs.you.loyalty === "traitor";
  const won = traitor ? obs.status === "evil-win" : obs.status === "loyal-win";
  const reason = obs.end_reason ? tr(ctx, `soc.end.${obs.end_reason}`, {}, "") : "";
  return { won, as: traitor ? "traitor" : "side", reason };
}

function lastWord(ctx, knight) {
  const name = knightName(ctx, knight);
  const words = name.split(/\s+/);
  return words[words.length - 1] || name;
}

/** A knight's token letters: the shortest start of his name's last word that no other
 * knight at the table shares (issue 39, item 14: Merlin's Company's Gaheris, Gareth and
 * Geraint read "Gah", "Gar", "Ge", not three "G"). */
function initial(ctx, knight, obs) {
  if (!knight) return "?";
  const own = lastWord(ctx, knight);
  const others = ((obs && obs.knights) || []).map((k) => k.knight).filter((k) => k && k !== knight)
    .map((k) => lastWord(ctx, k).toLocaleUpperCase());
  for (let n = 1; n <= own.length; n++) {
    const start = own.slice(0, n).toLocaleUpperCase();
    if (!others.some((other) => other.startsWith(start))) return own.slice(0, 1).toLocaleUpperCase() + own.slice(1, n);
  }
  return own;
}

/** Whether `seat` is out of the game: its knight died (the page then says so, and offers no
 * hand-over of the seat to a bot, which would play nothing). */
export function seatOut(seat, obs, ctx) {
  const knight = obs && obs.knights ? obs.knights.find((k) => k.seat === seat) : null;
  return knight && knight.status === "dead" ? tr(ctx, "table.knight_dead") : "";
}

// ------------------------------------------------------------------ actions
const GROUPS = {
  move: "move", "draw-white": "quest", "fight-siege": "quest", play: "quest", special: "special",
  heal: "heal", "heal-with-any": "heal", accuse: "accuse", sacrifice: "turn", "end-turn": "turn",
  "arthur-exchange": "turn",
};

export function actionGroup(text, obs, ctx) {
  if (!obs || obs.waiting.decision !== "heroic") return "";
  const prefix = text.split(":")[0];
  const group = GROUPS[prefix] || "other";
  return tr(ctx, `soc.group.${group}`, {}, group);
}

// ------------------------------------------------------------------ result
export function resultText(obs, ctx) {
  if (obs.status === "running") return "";
  // Evil without a traitor at the table wins alone (as rules/view.py result_key says).
  const alone = obs.status === "evil-win" && !(obs.knights || []).some((k) => k.loyalty === "traitor");
  const result = tr(ctx, `soc.result.${alone ? "evil-win-alone" : obs.status}`, {}, obs.status);
  const reason = obs.end_reason ? tr(ctx, `soc.end.${obs.end_reason}`, {}, obs.end_reason) : "";
  // No sword was laid (every knight died first): nothing to count (issue 39, item 14).
  const laid = obs.round_table.white + obs.round_table.black;
  const swords = laid ? tr(ctx, "soc.result.swords", { white: obs.round_table.white, black: obs.round_table.black }) : "";
  return [result, reason, swords].filter(Boolean).join(" — ");
}

// ------------------------------------------------------------------ SVG board
const W = 1200;
const H = 760;
const INK = "#3b2a1a";
// The fonts of .b-title, .b-sub and .b-badge-text in style.css, for measuring.
const TITLE_FONT = 'bold 19px "DejaVu Serif", Georgia, serif';
const SUB_FONT = 'italic 12px "DejaVu Sans", Arial, sans-serif';
const BADGE_FONT = 'bold 13px "DejaVu Sans", Arial, sans-serif';

function text(x, y, content, props = {}) {
  return svg("text", { x, y, class: props.class || "b-text", "text-anchor": props.anchor || "start", ...props.attrs }, content);
}

function title(content) {
  return svg("title", {}, content);
}

function panel(x, y, w, h, heading, props = {}) {
  const group = svg("g", { class: `quest ${props.over ? "over" : ""}`, "data-quest": props.quest || "" });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 14, class: `b-panel ${props.kind || ""}` }));
  // A title and its subtitle share the first line when both fit (with a gap between them);
  // a long pair (Russian, Czech) puts the subtitle on a line of its own under the title.
  const fits = !props.subtitle || textWidth(heading, TITLE_FONT) + textWidth(props.subtitle, SUB_FONT) + 16 + 14 + 18 <= w;
  group.append(text(x + 16, fits ? y + 28 : y + 24, heading, { class: "b-title" }));
  if (props.subtitle && fits) group.append(text(x + w - 14, y + 27, props.subtitle, { class: "b-sub", anchor: "end" }));
  else if (props.subtitle) group.append(text(x + 16, y + 41, props.subtitle, { class: "b-sub" }));
  return group;
}

function cardSlot(x, y, w, h, kind, label, tip) {
  const group = svg("g", { class: `slot ${kind}` });
  group.append(svg("rect", { x, y, width: w, height: h, rx: 5, class: `b-card ${kind}` }));
  if (kind === "hidden") {
    group.append(svg("path", { d: `M${x + 5} ${y + 5} L${x + w - 5} ${y + h - 5} M${x + w - 5} ${y + 5} L${x + 5} ${y + h - 5}`, class: "b-hatch" }));
  }
  if (label !== undefined && label !== null && label !== "") {
    group.append(text(x + w / 2, y + h / 2 + 6, String(label), { class: `b-card-label ${kind}`, anchor: "middle" }));
  }
  if (tip) group.append(title(tip));
  return group;
}

function knightTokens(ctx, obs, seats, x, y, props = {}) {
  const group = svg("g", { class: "tokens" });
  const step = props.step || 32;
  seats.forEach((seat, i) => {
    const cx = props.vertical ? x : x + i * step;
    const cy = props.vertical ? y + i * step : y;
    const knight = knightOf(obs, seat);
    const token = svg("g", { class: `token ${seat === ctx.me ? "mine" : ""}`, "data-seat": seat });
    token.append(svg("circle", { cx, cy, r: 13, fill: seatFill(seat), class: "b-token" }));
    const letters = initial(ctx, knight, obs);
    token.append(text(cx, cy + 5, letters, { class: `b-token-label l${Math.min(3, letters.length)}`, anchor: "middle" }));
    token.append(title(labelSeat(ctx, seat, obs)));
    group.append(token);
  });
  return group;
}

const OVER_FONT = 'italic bold 16px "DejaVu Serif", Georgia, serif';

/** `content` cut into lines no wider than `width` in `font` (at spaces; a word longer than
 * the width gets a line of its own). */
function wrapText(content, font, width) {
  const lines = [];
  for (const word of String(content).split(/\s+/)) {
    const last = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && textWidth(last, font) <= width) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  return lines;
}

function overlay(x, y, w, h, content) {
  const group = svg("g", { class: "over-mark" });
  group.append(svg("rect", { x: x + 4, y: y + 40, width: w - 8, height: h - 48, rx: 10, class: "b-over" }));
  // A long line (a relic's holder, in Russian) wraps inside the panel instead of running out.
  const lines = wrapText(content, OVER_FONT, w - 28);
  const top = y + h / 2 + 12 - ((lines.length - 1) * 20) / 2;
  lines.forEach((line, i) => group.append(text(x + w / 2, top + i * 20, line, { class: "b-over-text", anchor: "middle" })));
  return group;
}

function blackEntry(ctx, entry, dragon) {
  if (entry.hidden) {
    const tip = entry.by === undefined ? tr(ctx, "soc.board.face_down")
      : tr(ctx, "soc.board.face_down_by", { seat: labelSeat(ctx, entry.by) });
    return ["hidden", "?", tip];
  }
  const name = blackName(ctx, entry.card);
  const tip = entry.face_down ? `${name} (${tr(ctx, "soc.board.face_down_yours")})` : name;
  return [entry.face_down ? "black mine" : "black", entry.value, tip];
  // dragon values already include +4 in the observation
}

/** The label and tip of a board's white card `i` (MC-W-FIGHT-ANY): a "?" card played as 3
 * reads "?3", so the table tells it from a Fight 3 as it would across the board. */
function whiteCard(ctx, quest, i) {
  const value = quest.white[i];
  if (!(quest.white_any || []).includes(i)) return [value, undefined];
  return [`?${value}`, tr(ctx, "soc.board.any_card", { value })];
}

function drawBlackKnight(ctx, obs, x, y, w, h) {
  const quest = obs.quests["black-knight"];
  const group = panel(x, y, w, h, placeName(ctx, "black-knight"), { subtitle: tr(ctx, "soc.board.bk_goal"), quest: "black-knight" });
  group.append(text(x + 16, y + 58, tr(ctx, "soc.board.knights_side"), { class: "b-label" }));
  for (let i = 0; i < 4; i++) {
    group.append(cardSlot(x + 16 + i * 52, y + 66, 44, 56, quest.white[i] ? "white" : "empty", ...whiteCard(ctx, quest, i)));
  }
  group.append(text(x + 16, y + 142, tr(ctx, "soc.board.evil_side"), { class: "b-label" }));
  for (let i = 0; i < 4; i++) {
    const entry = quest.black[i];
    if (!entry) group.append(cardSlot(x + 16 + i * 52, y + 150, 44, 40, "empty"));
    else group.append(cardSlot(x + 16 + i * 52, y + 150, 44, 40, ...blackEntry(ctx, entry)));
  }
  group.append(knightTokens(ctx, obs, quest.knights, x + w - 60, y + 80, { vertical: true }));
  return group;
}

function drawLancelot(ctx, obs, x, y, w, h) {
  const quest = obs.quests.lancelot;
  const dragon = quest.side === "dragon";
  const heading = dragon ? tr(ctx, "soc.board.dragon") : placeName(ctx, "lancelot");
  const goal = dragon ? tr(ctx, "soc.board.dragon_goal") : tr(ctx, "soc.board.lancelot_goal");
  const over = quest.side === "over";
  const group = panel(x, y, w, h, over ? tr(ctx, "soc.board.dragon") : heading, { subtitle: over ? "" : goal, over, quest: "lancelot", kind: dragon ? "dragon" : "" });
  if (over) {
    group.append(overlay(x, y, w, h, tr(ctx, "soc.board.quest_over")));
    return group;
  }
  group.append(text(x + 16, y + 58, tr(ctx, "soc.board.knights_side"), { class: "b-label" }));
  const spots = dragon ? 9 : 5;
  const cw = dragon ? 26 : 40;
  const step = dragon ? 31 : 48;
  for (let i = 0; i < spots; i++) {
    group.append(cardSlot(x + 16 + i * step, y + 66, cw, 56, quest.white[i] ? "white" : "empty", ...whiteCard(ctx, quest, i)));
  }
  group.append(text(x + 16, y + 142, tr(ctx, "soc.board.evil_side"), { class: "b-label" }));
  for (let i = 0; i < 5; i++) {
    const entry = quest.black[i];
    if (!entry) group.append(cardSlot(x + 16 + i * 48, y + 150, 40, 40, "empty"));
    else group.append(cardSlot(x + 16 + i * 48, y + 150, 40, 40, ...blackEntry(ctx, entry, dragon)));
  }
  group.append(knightTokens(ctx, obs, quest.knights, x + w - 40, y + 80, { vertical: !dragon, step: 32 }));
  return group;
}

function drawExcalibur(ctx, obs, x, y, w, h) {
  const quest = obs.quests.excalibur;
  const group = panel(x, y, w, h, placeName(ctx, "excalibur"), { subtitle: tr(ctx, "soc.board.excalibur_goal"), over: quest.over, quest: "excalibur" });
  const left = x + 35;
  const step = (w - 70) / 10;
  const riverY = y + 105;
  group.append(svg("rect", { x: x + 14, y: riverY - 22, width: w - 28, height: 44, rx: 20, class: "b-river" }));
  for (let p = -5; p <= 5; p++) {
    const cx = left + (p + 5) * step;
    const kind = p === -5 ? "evil-bank" : p === 5 ? "good-bank" : "ford";
    group.append(svg("circle", { cx, cy: riverY, r: p === 0 ? 9 : 7, class: `b-ford ${kind}` }));
  }
  const sx = left + (quest.position + 5) * step;
  const sword = svg("g", { class: "b-sword", "data-position": quest.position });
  sword.append(svg("path", { d: `M${sx} ${riverY - 44} L${sx + 5} ${riverY - 36} L${sx + 5} ${riverY - 6} L${sx} ${riverY + 2} L${sx - 5} ${riverY - 6} L${sx - 5} ${riverY - 36} Z`, class: "b-blade" }));
  sword.append(svg("rect", { x: sx - 12, y: riverY - 36, width: 24, height: 5, rx: 2, class: "b-hilt" }));
  sword.append(title(tr(ctx, "soc.board.sword_at", { n: quest.position })));
  group.append(sword);
  group.append(text(x + 16, y + 150, tr(ctx, "soc.board.evil_bank"), { class: "b-label" }));
  group.append(text(x + w - 16, y + 150, tr(ctx, "soc.board.good_bank"), { class: "b-label", anchor: "end" }));
  group.append(knightTokens(ctx, obs, quest.knights, x + 30, y + 178));
  if (quest.over) group.append(overlay(x, y, w, h, relicText(ctx, obs, "excalibur")));
  return group;
}

function drawWar(ctx, obs, key, x, y, w, h) {
  const war = obs.quests[key];
  const group = panel(x, y, w, h, placeName(ctx, key), { subtitle: tr(ctx, "soc.board.war_goal"), quest: key });
  group.append(text(x + 16, y + 58, tr(ctx, key === "picts" ? "soc.board.picts_figures" : "soc.board.saxons_figures"), { class: "b-label" }));
  for (let i = 0; i < 4; i++) {
    const cx = x + 36 + i * 42;
    const filled = i < war.figures;
    group.append(svg("circle", { cx, cy: y + 86, r: 15, class: `b-figure ${filled ? "on" : "off"} ${key}` }));
    if (filled) group.append(svg("path", { d: `M${cx - 7} ${y + 94} L${cx} ${y + 76} L${cx + 7} ${y + 94} Z`, class: "b-figure-mark" }));
  }
  if (war.mordred) {
    const badge = svg("g", { class: "b-mordred" });
    badge.append(svg("rect", { x: x + 210, y: y + 70, width: 140, height: 32, rx: 8, class: "b-badge evil" }));
    badge.append(text(x + 280, y + 92, blackName(ctx, "mordred"), { class: "b-badge-text", anchor: "middle" }));
    badge.append(title(`${blackText(ctx, "mordred")}\n${tr(ctx, "soc.board.mordred_slot", { name: blackName(ctx, "mordred") })}`));
    group.append(badge);
  }
  group.append(text(x + 16, y + 128, tr(ctx, "soc.board.knights_side"), { class: "b-label" }));
  const values = [1, 2, 3, 4, 5];
  if (war.mordred) values.push(5);
  const played = war.white.map((value, i) => i);  // indexes into war.white not yet drawn
  values.forEach((value, i) => {
    const index = played.findIndex((at) => war.white[at] === value);
    const has = index >= 0;
    const [label, tip] = has ? whiteCard(ctx, war, played[index]) : [value, undefined];
    if (has) played.splice(index, 1);
    // Mordred's sixth slot says whose it is (issue 39, item 14): drawn in evil's colour,
    // with its reason as the tooltip.
    const mordred = i === 5;
    group.append(cardSlot(x + 16 + i * 50, y + 136, 42, 56, `${has ? "white" : "empty outline"}${mordred ? " mordred" : ""}`, label,
      mordred ? tr(ctx, "soc.board.mordred_slot", { name: blackName(ctx, "mordred") }) : tip));
  });
  group.append(knightTokens(ctx, obs, war.knights, x + 30, y + h - 24));
  return group;
}

function drawGrail(ctx, obs, x, y, w, h) {
  const quest = obs.quests.grail;
  const group = panel(x, y, w, h, placeName(ctx, "grail"), { subtitle: tr(ctx, "soc.board.grail_goal"), over: quest.over, quest: "grail" });
  const slots = 7;
  const blacks = quest.black;
  for (let i = 0; i < slots; i++) {
    const sx = x + 16 + i * 49;
    if (i < quest.grail_cards) {
      group.append(cardSlot(sx, y + 56, 42, 64, "grail", "✠", whiteName(ctx, "grail")));
    } else if (i >= slots - blacks.length) {
      const card = blacks[slots - 1 - i];
      group.append(cardSlot(sx, y + 56, 42, 64, `despair ${card}`, "", blackName(ctx, card)));
    } else {
      group.append(cardSlot(sx, y + 56, 42, 64, "empty"));
    }
  }
  group.append(text(x + 16, y + 140, tr(ctx, "soc.board.grail_count", { white: quest.grail_cards, black: blacks.length }), { class: "b-label" }));
  if (quest.dark_forest) {
    const badge = svg("g", { class: "b-darkforest" });
    badge.append(svg("rect", { x: x + 16, y: y + 152, width: w - 32, height: 30, rx: 8, class: "b-badge forest" }));
    badge.append(text(x + w / 2, y + 172, blackName(ctx, "dark-forest"), { class: "b-badge-text", anchor: "middle" }));
    badge.append(title(blackText(ctx, "dark-forest")));
    group.append(badge);
  }
  group.append(knightTokens(ctx, obs, quest.knights, x + 30, y + h - 24));
  if (quest.over) group.append(overlay(x, y, w, h, relicText(ctx, obs, "grail")));
  return group;
}

function relicText(ctx, obs, relic) {
  const where = obs.relics[relic];
  const name = tr(ctx, `soc.relic.${relic}`);
  if (where === "on-quest") return tr(ctx, "soc.board.relic_on_quest", { relic: name });
  if (where === "lost") return tr(ctx, "soc.board.relic_lost", { relic: name });
  // The reader's own relic: "held by you" has a wording of its own ("у вас", not "у игрока вы").
  if (where === ctx.me) return tr(ctx, "soc.board.relic_owned.you", { relic: name });
  return tr(ctx, "soc.board.relic_owned", { relic: name, who: labelSeat(ctx, where, obs) });
}

function drawCamelot(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, placeName(ctx, "camelot"), { subtitle: tr(ctx, "soc.board.round_table"), quest: "camelot", kind: "camelot" });
  const cx = x + w / 2;
  const cy = y + 170;
  group.append(svg("circle", { cx, cy, r: 118, class: "b-table-rim" }));
  group.append(svg("circle", { cx, cy, r: 100, class: "b-table" }));
  const { white, black } = obs.round_table;
  const total = white + black;
  const slots = Math.max(12, total);
  for (let i = 0; i < slots; i++) {
    const angle = (-90 + (i * 360) / slots) * (Math.PI / 180);
    const x1 = cx + Math.cos(angle) * 52;
    const y1 = cy + Math.sin(angle) * 52;
    const x2 = cx + Math.cos(angle) * 110;
    const y2 = cy + Math.sin(angle) * 110;
    const kind = i < white ? "white" : i < total ? "black" : "empty";
    group.append(svg("line", { x1, y1, x2, y2, class: `b-sword-slot ${kind}` }));
    if (kind !== "empty") {
      group.append(svg("circle", { cx: x1, cy: y1, r: 5, class: `b-pommel ${kind}` }));
    }
  }
  group.append(text(cx, cy - 6, tr(ctx, "soc.board.swords_white", { n: white }), { class: "b-count white", anchor: "middle" }));
  group.append(text(cx, cy + 18, tr(ctx, "soc.board.swords_black", { n: black }), { class: "b-count black", anchor: "middle" }));
  group.append(title(tr(ctx, "soc.board.swords_tip", { white, black })));
  // Knights at Camelot.
  group.append(text(x + 16, y + 318, tr(ctx, "soc.board.at_camelot"), { class: "b-label" }));
  group.append(knightTokens(ctx, obs, obs.quests.camelot.knights, x + 30, y + 342));
  // Siege engines.
  const engines = obs.siege_engines;
  group.append(text(x + 16, y + 384, tr(ctx, "soc.board.siege", { n: engines }), { class: `b-label ${engines >= 9 ? "danger" : ""}` }));
  for (let i = 0; i < 12; i++) {
    const sx = x + 22 + (i % 6) * 56;
    const sy = y + 396 + Math.floor(i / 6) * 46;
    const on = i < engines;
    const engine = svg("g", { class: `b-engine ${on ? "on" : "off"}` });
    engine.append(svg("path", { d: `M${sx} ${sy + 34} L${sx + 8} ${sy + 14} L${sx + 38} ${sy + 14} L${sx + 46} ${sy + 34} Z`, class: "b-engine-body" }));
    engine.append(svg("line", { x1: sx + 14, y1: sy + 16, x2: sx + 40, y2: sy + 2, class: "b-engine-arm" }));
    engine.append(svg("circle", { cx: sx + 12, cy: sy + 36, r: 5, class: "b-engine-wheel" }));
    engine.append(svg("circle", { cx: sx + 34, cy: sy + 36, r: 5, class: "b-engine-wheel" }));
    group.append(engine);
  }
  return group;
}

// The realm's panel: the decks, a line per relic, then the lasting effects as badges in rows
// below the relic lines (never over them); the panel grows by a row when they need it.
const REALM_HEIGHT = 246;
const RELIC_TOP = 132; // the first relic line's baseline, from the panel's top
const RELIC_STEP = 20;
const EFFECTS_TOP = RELIC_TOP + 2 * RELIC_STEP + 14; // below the third relic line
const BADGE_HEIGHT = 24;
const BADGE_STEP = 30;

function lastingEffects(ctx, obs) {
  const effects = [];
  const e = obs.effects;
  if (e.vivien) effects.push([blackName(ctx, "vivien"), blackText(ctx, "vivien")]);
  if (e.mist) effects.push([blackName(ctx, "mist-of-avalon"), blackText(ctx, "mist-of-avalon")]);
  if (e.dark_forest) effects.push([blackName(ctx, "dark-forest"), blackText(ctx, "dark-forest")]);
  if (e.mordred) effects.push([`${blackName(ctx, "mordred")}: ${placeName(ctx, e.mordred)}`, blackText(ctx, "mordred")]);
  if (e.heroism) {
    // SOC-RULING-72: on a solo quest it is lost if the knight it is bound to leaves early.
    const card = whiteName(ctx, "heroism");
    const place = placeName(ctx, e.heroism);
    if (e.heroism_by === null || e.heroism_by === undefined) effects.push([`${card}: ${place}`, whiteText(ctx, "heroism")]);
    else {
      const who = knightOrSeat(ctx, e.heroism_by, obs);
      effects.push([tr(ctx, "soc.board.heroism_by", { card, place, who }),
        `${whiteText(ctx, "heroism")} ${tr(ctx, "soc.board.heroism_by_tip", { who })}`]);
    }
  }
  for (const witch of e.witches || []) effects.push([blackName(ctx, `witch-${witch}`), blackText(ctx, `witch-${witch}`)]);
  if (e.divine_favor) effects.push([whiteName(ctx, "divine-favor"), whiteText(ctx, "divine-favor")]);
  if (e.merlin) effects.push([tr(ctx, "soc.board.merlin_at", { place: placeName(ctx, e.merlin) }), ""]);
  // SOC-ACCUSE-1, SOC-RULING-5: open for good once 6 swords or 6 siege engines were reached.
  if (obs.accusations_open) effects.push([tr(ctx, "soc.board.accusations_open"), tr(ctx, "soc.board.accusations_open_tip")]);
  return effects;
}

/** The effect badges placed in rows of a panel `w` wide: [{label, tip, dx, row, width}]. */
function effectBadges(ctx, obs, w) {
  const placed = [];
  let dx = 16;
  let row = 0;
  for (const [label, tip] of lastingEffects(ctx, obs)) {
    const width = Math.min(w - 32, textWidth(label, BADGE_FONT) + 20);
    if (dx > 16 && dx + width > w - 16) {
      dx = 16;
      row += 1;
    }
    placed.push({ label, tip, dx, row, width });
    dx += width + 8;
  }
  return placed;
}

/** How tall the realm's panel must be for its effect badges. */
function realmHeight(ctx, obs, w) {
  const badges = effectBadges(ctx, obs, w);
  const rows = badges.length ? badges[badges.length - 1].row + 1 : 0;
  return Math.max(REALM_HEIGHT, EFFECTS_TOP + rows * BADGE_STEP + 6);
}

function drawStatus(ctx, obs, x, y, w, h) {
  const group = panel(x, y, w, h, tr(ctx, "soc.board.realm"), { quest: "status" });
  const decks = obs.decks;
  const deck = (dx, kind, count, discard, label) => {
    const g = svg("g", { class: "b-deck" });
    g.append(svg("rect", { x: dx + 4, y: y + 48, width: 46, height: 64, rx: 5, class: `b-card ${kind} stack` }));
    g.append(svg("rect", { x: dx, y: y + 44, width: 46, height: 64, rx: 5, class: `b-card ${kind}` }));
    g.append(text(dx + 23, y + 82, String(count), { class: `b-card-label ${kind}`, anchor: "middle" }));
    g.append(text(dx + 60, y + 66, label, { class: "b-label" }));
    g.append(text(dx + 60, y + 88, tr(ctx, "soc.board.discard", { n: discard }), { class: "b-small" }));
    return g;
  };
  group.append(deck(x + 16, "white", decks.white, decks.white_discard, tr(ctx, "soc.board.white_deck")));
  group.append(deck(x + 190, "black", decks.black, decks.black_discard, tr(ctx, "soc.board.black_deck")));
  // Relics.
  let ry = y + RELIC_TOP;
  for (const relic of ["excalibur", "grail", "armor"]) {
    const where = obs.relics[relic];
    const line = relicText(ctx, obs, relic);
    group.append(svg("circle", { cx: x + 24, cy: ry - 5, r: 6, class: `b-relic ${typeof where === "number" ? "owned" : where}` }));
    group.append(text(x + 38, ry, line, { class: "b-small b-relic-line", attrs: { "data-relic": relic } }));
    ry += RELIC_STEP;
  }
  // Lasting effects, in rows under the relic lines.
  for (const { label, tip, dx, row, width } of effectBadges(ctx, obs, w)) {
    const ex = x + dx;
    const ey = y + EFFECTS_TOP + row * BADGE_STEP;
    const badge = svg("g", { class: "b-effect" });
    badge.append(svg("rect", { x: ex, y: ey, width, height: BADGE_HEIGHT, rx: 8, class: "b-badge evil" }));
    badge.append(text(ex + width / 2, ey + 17, label, { class: "b-badge-text", anchor: "middle" }));
    if (tip) badge.append(title(tip));
    group.append(badge);
  }
  return group;
}

// Where each panel lies: [draw, x, y, width, height]. The desktop board has three columns;
// a phone's (the page's narrow layout) one column of the same panels, drawn about as large as
// the phone is wide, so that its words stay readable (issue 17, item 9): the realm and
// Camelot first, then the quests.
const PANEL_W = 380;
const GRID = [
  [drawBlackKnight, 12, 12, 214], [drawLancelot, 410, 12, 214], [drawExcalibur, 808, 12, 214],
  [(ctx, obs, ...box) => drawWar(ctx, obs, "picts", ...box), 12, 240, 250], [drawCamelot, 410, 240, 508],
  [drawGrail, 808, 240, 250], [(ctx, obs, ...box) => drawWar(ctx, obs, "saxons", ...box), 12, 502, 246],
  [drawStatus, 808, 502, REALM_HEIGHT],
];
const COLUMN = [drawStatus, drawCamelot, drawBlackKnight, drawLancelot, drawExcalibur, GRID[3][0], GRID[5][0], GRID[6][0]];

/** The whole board as an SVG element. */
export function drawBoard(obs, ctx) {
  const realm = realmHeight(ctx, obs, PANEL_W);
  const heightOf = (draw, h) => (draw === drawStatus ? realm : h);
  const boxes = [];
  let width = W;
  let height = H;
  if (isNarrowScreen()) {
    let y = 12;
    for (const draw of COLUMN) {
      const h = heightOf(draw, GRID.find((entry) => entry[0] === draw)[3]);
      boxes.push([draw, 12, y, h]);
      y += h + 12;
    }
    width = PANEL_W + 24;
    height = y;
  } else {
    for (const [draw, x, y, h] of GRID) boxes.push([draw, x, y, heightOf(draw, h)]);
    height = Math.max(H, 502 + realm + 12);
  }
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `soc-board${width < W ? " narrow" : ""}`, role: "img", "aria-label": tr(ctx, "soc.board.aria") });
  root.append(svg("rect", { x: 0, y: 0, width, height, rx: 18, class: "b-ground" }));
  for (const [draw, x, y, h] of boxes) root.append(draw(ctx, obs, x, y, PANEL_W, h));
  return root;
}

// ------------------------------------------------------------------ knights (seats panel)
export function seatBadge(seat, obs, ctx) {
  const knight = obs.knights.find((k) => k.seat === seat);
  if (!knight) return null;
  const pips = [];
  for (let i = 0; i < 6; i++) pips.push(el("span", { class: `pip ${i < knight.life ? "on" : ""}` }));
  const parts = [
    el("span", { class: "knight-name", title: knightAbility(ctx, knight.knight) }, knightName(ctx, knight.knight)),
    el("span", { class: "life", title: tr(ctx, "soc.knights.life", { n: knight.life }), "data-testid": `life-${seat}` }, pips),
    el("span", { class: "hand-size", title: tr(ctx, "soc.knights.hand") }, tr(ctx, "soc.knights.cards", { count: knight.hand_size })),
  ];
  if (knight.location) parts.push(el("span", { class: "where" }, placeName(ctx, knight.location)));
  if (knight.status !== "in-play") parts.push(el("span", { class: `knight-status ${knight.status}` }, tr(ctx, `soc.status.${knight.status}`)));
  for (const relic of knight.relics) parts.push(el("span", { class: `relic-tag ${relic}` }, tr(ctx, `soc.relic.${relic}`)));
  if (knight.loyalty) {
    // Another knight's card the rules let this seat see: one shown to everyone (an accused
    // knight's, SOC-ACCUSE-2), an unmasked traitor's or, after the game, every card.
    const shown = seat !== obs.seat && knight.status !== "unmasked";
    parts.push(el("span", { class: `loyalty-tag ${knight.loyalty}${shown ? " shown" : ""}`,
      title: shown ? tr(ctx, "soc.knights.loyalty_shown") : undefined }, tr(ctx, `soc.loyalty.${knight.loyalty}`)));
  }
  if (knight.captured) parts.push(el("span", { class: "knight-status captured" }, tr(ctx, "soc.status.captured")));
  if (knight.accusation_used) parts.push(el("span", { class: "muted small" }, tr(ctx, "soc.knights.accused")));
  if (obs.turn.seat === seat && obs.status === "running") {
    const key = seat === obs.seat ? "soc.knights.turn.you" : "soc.knights.turn";
    parts.push(el("span", { class: "turn-tag" }, tr(ctx, key)));
  }
  return el("span", { class: "knight" }, parts);
}

// ------------------------------------------------------------------ the table (public, current decision)
function cardChip(ctx, kind, key, count) {
  const name = kind === "white" ? whiteName(ctx, key) : blackName(ctx, key);
  const tip = kind === "white" ? whiteText(ctx, key) : blackText(ctx, key);
  return el("span", { class: `chip ${kind}`, title: tip || undefined }, count && count > 1 ? `${name} ×${count}` : name);
}

/** The rows of "On the table", the public parts of the decision under way (the cards Sir
 * Bors may be dealt in on, the black card a Merlin may cancel, a siege fight's cards and
 * die...): on a phone, whose "Play" tab hides the table, under the decision's prompt too. */
export function decisionContext(obs, ctx) {
  const table = obs.table;
  const rows = [];
  if (table.offer.length) {
    rows.push(el("div", { class: "row" }, el("span", { class: "row-label" }, tr(ctx, "soc.table.offer")),
      table.offer.map((card) => cardChip(ctx, "white", card))));
    // Dealt face down at a share="random" table (SOC-RULING-77), else handed out by choice.
    const giverKey = table.offer_dealt ? "soc.table.offer_dealer" : "soc.table.offer_giver";
    if (table.offer_giver !== null) rows.push(el("div", { class: "row muted" }, tr(ctx, giverKey, { who: labelSeat(ctx, table.offer_giver, obs) })));
  }
  // A solo quest's reward Sir Bors is asked to take part in (its cards not yet drawn).
  const reward = table.face_down_reward;
  if (reward) {
    rows.push(el("div", { class: "row" }, tr(ctx, "soc.table.face_down_reward", { who: labelSeat(ctx, reward.winner, obs), count: reward.cards })));
  }
  if (table.black_in_play.length) {
    rows.push(el("div", { class: "row" }, el("span", { class: "row-label" }, tr(ctx, "soc.table.black_in_play")),
      table.black_in_play.map((c) => (c.hidden
        ? el("span", { class: "chip black" }, tr(ctx, "soc.table.hidden_combat", { quest: placeName(ctx, c.quest) }))
        : cardChip(ctx, "black", c.card)))));
  }
  if (table.pledges.length) {
    rows.push(el("div", { class: "row" }, el("span", { class: "row-label" }, tr(ctx, "soc.table.pledges")),
      tr(ctx, "soc.table.pledges_n", { n: table.pledges.length, who: table.pledges.map((s) => labelSeat(ctx, s, obs)).join(", ") })));
  }
  const fight = table.siege_fight;
  if ((fight.cards.length || fight.die) && ["siege", "kay"].includes(obs.waiting.decision)) {
    rows.push(el("div", { class: "row" }, el("span", { class: "row-label" }, tr(ctx, "soc.table.siege_fight")),
      tr(ctx, "soc.table.siege_cards", { cards: fight.cards.map((v, i) => ((fight.cards_any || []).includes(i) ? `?${v}` : v)).join(" + ") || "—", total: fight.cards.reduce((a, b) => a + b, 0) + (fight.kay_bonus || 0) }),
      fight.die ? el("span", { class: "chip die" }, tr(ctx, "soc.table.die", { n: fight.die })) : null));
  }
  if (table.contributions_made.length && obs.waiting.decision === "contrib") {
    rows.push(el("div", { class: "row muted" }, tr(ctx, "soc.table.contributed", { who: table.contributions_made.map((s) => labelSeat(ctx, s, obs)).join(", ") })));
  }
  if (table.held_by !== null && table.held_count) {
    rows.push(el("div", { class: "row muted" }, tr(ctx, "soc.table.held", { who: labelSeat(ctx, table.held_by, obs), n: table.held_count })));
  }
  return rows;
}

export function drawTable(obs, ctx) {
  const rows = decisionContext(obs, ctx);
  const turn = obs.turn;
  const turnKey = turn.seat === ctx.me ? "soc.table.turn.you" : "soc.table.turn";
  // After the end there is no turn any more: the last one's line would be stale.
  const turnLine = turn.seat === null || obs.status !== "running" ? "" : tr(ctx, turnKey, {
    n: turn.number, who: labelSeat(ctx, turn.seat, obs), left: turn.actions_left,
  });
  return el("section", { class: "panel on-table", "data-testid": "on-table" },
    el("h2", {}, tr(ctx, "soc.table.title")),
    turnLine ? el("p", { class: "turn-line" }, turnLine) : null,
    rows.length ? rows : el("p", { class: "muted" }, tr(ctx, "soc.table.nothing")));
}

// ------------------------------------------------------------------ private (the seat's own)
function handCards(ctx, hand, testid) {
  const keys = Object.keys(hand);
  if (!keys.length) return el("p", { class: "muted" }, tr(ctx, "soc.private.empty_hand"));
  return el("ul", { class: "hand", "data-testid": testid },
    keys.map((key) => el("li", { class: `card white ${key.startsWith("fight") ? "fight" : ""} ${["merlin", "convocation", "fate", "heroism", "lady-of-the-lake", "messenger", "piety", "clairvoyance", "reinforcements"].includes(key) ? "special" : ""}`, "data-card": key },
      el("span", { class: "card-name" }, whiteName(ctx, key)),
      hand[key] > 1 ? el("span", { class: "card-count" }, `×${hand[key]}`) : null,
      el("span", { class: "card-text" }, whiteText(ctx, key)))));
}

function loyaltyCard(ctx, loyalty) {
  if (!loyalty) return null;
  return el("div", { class: `card loyalty ${loyalty}`, "data-testid": "loyalty" },
    el("span", { class: "card-name" }, tr(ctx, `soc.loyalty.${loyalty}`)),
    el("span", { class: "card-text" }, tr(ctx, `soc.loyalty.${loyalty}.text`)));
}

function knowledge(ctx, you, obs) {
  const items = [];
  for (const [holder, cards] of Object.entries(you.known_hands || {})) {
    const list = Object.entries(cards).map(([key, n]) => (n > 1 ? `${whiteName(ctx, key)} ×${n}` : whiteName(ctx, key))).join(", ");
    items.push(el("li", {}, tr(ctx, "soc.private.known_hand", { who: labelSeat(ctx, Number(holder), obs), cards: list })));
  }
  for (const known of you.black_deck_known || []) {
    items.push(el("li", {}, tr(ctx, known.from === "top" ? "soc.private.deck_top" : "soc.private.deck_bottom", { n: known.depth + 1, card: blackName(ctx, known.card) })));
  }
  if ((you.held_black || []).length) items.push(el("li", {}, tr(ctx, "soc.private.held_black", { cards: you.held_black.map((k) => blackName(ctx, k)).join(", ") })));
  if ((you.ordered_black || []).length) items.push(el("li", {}, tr(ctx, "soc.private.ordered_black", { cards: you.ordered_black.map((k) => blackName(ctx, k)).join(", ") })));
  if (you.contribution) items.push(el("li", {}, tr(ctx, "soc.private.contribution", { card: whiteName(ctx, you.contribution) })));
  return items.length ? el("ul", { class: "knowledge" }, items) : null;
}

export function drawPrivate(obs, ctx) {
  const you = obs.you;
  if (!you) return null;
  const mine = obs.knights.find((k) => k.seat === obs.seat);
  const heading = mine && mine.knight
    ? tr(ctx, "soc.private.title_knight", { knight: knightName(ctx, mine.knight) })
    : tr(ctx, "soc.private.title");
  return el("section", { class: "panel private", "data-testid": "private" },
    el("h2", {}, heading),
    mine && mine.knight ? el("p", { class: "ability" }, knightAbility(ctx, mine.knight)) : null,
    el("div", { class: "private-row" },
      loyaltyCard(ctx, you.loyalty),
      el("div", { class: "hand-box" }, el("h3", {}, tr(ctx, "soc.private.hand", { n: Object.values(you.hand).reduce((a, b) => a + b, 0) })), handCards(ctx, you.hand, "hand"))),
    knowledge(ctx, you, obs));
}

/** The replay's panel of every seat's secrets (the game is over). */
export function drawSecrets(observations, ctx) {
  return el("section", { class: "panel secrets", "data-testid": "secrets" },
    el("h2", {}, tr(ctx, "soc.private.all_secrets")),
    el("div", { class: "secret-grid" }, observations.map((obs) => {
      const seat = obs.seat;
      const knight = obs.knights.find((k) => k.seat === seat);
      return el("div", { class: "secret" },
        el("h3", {}, labelSeat({ ...ctx, me: null }, seat, obs)),
        knight ? seatBadge(seat, obs, ctx) : null,
        loyaltyCard(ctx, obs.you.loyalty),
        handCards(ctx, obs.you.hand, `hand-${seat}`));
    })));
}

/** The spectators' board with every face-down card shown (for the replay of a finished game). */
export function revealAll(spectator, observations) {
  const obs = structuredClone(spectator);
  for (const quest of ["black-knight", "lancelot"]) {
    obs.quests[quest].black = obs.quests[quest].black.map((entry, i) => {
      if (!entry.hidden) return entry;
      for (const other of observations) {
        const seen = other.quests[quest].black[i];
        if (seen && !seen.hidden) return { card: seen.card, value: seen.value };
      }
      return entry;
    });
  }
  obs.table.black_in_play = obs.table.black_in_play.map((entry, i) => {
    if (!entry.hidden) return entry;
    for (const other of observations) {
      const seen = other.table.black_in_play[i];
      if (seen && !seen.hidden) return seen;
    }
    return entry;
  });
  obs.knights = obs.knights.map((knight) => {
    const own = observations.find((o) => o.seat === knight.seat);
    const mine = own && own.knights.find((k) => k.seat === knight.seat);
    return mine && mine.loyalty ? { ...knight, loyalty: mine.loyalty } : knight;
  });
  return obs;
}
