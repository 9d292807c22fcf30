// The coach's review in the replay of a finished game (issue 31, item 3; docs/web.md,
// "The review"). "Review" asks the server for it (`POST /api/replay/review`), then follows
// its progress (`GET /api/replay/review`) until the figures come: a chart of the win chance
// over the game (the loyal side's in the Camelot games, each knight's own line in Grail
// Cup), the marked moves, and how long each move took; a point or a bar jumps the replay
// to that move. Plain SVG, no library.
import { el, fetchJson, svg } from "./dom.js";
import { lang, renderEvent, t } from "./i18n.js";
import { seatColor, seatFill } from "./common.js";

const WIDTH = 320;
const HEIGHT = 150;
const TIMES_HEIGHT = 56;
const PAD = { left: 38, right: 8, top: 8, bottom: 16 };
const POLL_MS = 500;
const LOYAL_FILL = "#1f5fae";
const MARK_FILL = { inaccuracy: "#d4a017", mistake: "#e07020", blunder: "#b3261e" };

let status = { state: "none" }; // the server's last answer
let problem = null;
let polling = false;
let byIndex = new Map(); // move index -> reviewed move

function setStatus(next) {
  status = next;
  byIndex = new Map(status.state === "done" ? status.review.moves.map((m) => [m.index, m]) : []);
}

/** The reviewed move at action index `i` (its mark, best move, chances), or null. */
export function reviewedMove(i) {
  return byIndex.get(i) || null;
}

async function ask(token, method, onChange) {
  try {
    setStatus(await fetchJson("/api/replay/review", { method, headers: { Authorization: `Bearer ${token}` } }));
    problem = null;
  } catch (error) {
    problem = t(`error.${error.code}`, {}, "") || error.message;
  }
  onChange();
  if (status.state === "running" && !polling) {
    polling = true;
    setTimeout(async () => {
      polling = false;
      await ask(token, "GET", onChange);
    }, POLL_MS);
  }
}

/** The review's panel: its button, progress or figures. `replay`: {token, length, version,
 * jump(version), seatName(seat), onChange()} from the replay page. */
export function reviewPanel(replay) {
  const children = [el("h2", {}, t("replay.review"))];
  if (status.state === "done") {
    children.push(...figures(status.review, replay));
  } else if (status.state === "running") {
    const total = status.total || 0;
    children.push(el("progress", { max: total || 1, value: status.done || 0, "data-testid": "review-progress" }),
      el("p", { class: "muted" }, total ? t("replay.review_running", { done: status.done, total }) : t("replay.review_starting")));
  } else {
    const button = el("button", { type: "button", class: "primary", "data-testid": "replay-review" }, t("replay.review"));
    button.addEventListener("click", () => ask(replay.token, "POST", replay.onChange));
    children.push(button, el("small", { class: "muted" }, t("replay.review_help")));
    if (status.state === "failed") children.push(el("p", { class: "notice error" }, t("replay.review_failed")));
  }
  if (problem) children.push(el("p", { class: "notice error", role: "alert", "data-testid": "review-problem" }, problem));
  return el("section", { class: "panel review", "data-testid": "review" }, children);
}

function figures(review, replay) {
  const x = (i) => PAD.left + (replay.length ? i / replay.length : 0) * (WIDTH - PAD.left - PAD.right);
  const series = Object.entries(review.chart);
  const loyal = series.length === 1 && series[0][0] === "loyal";
  return [
    el("p", { class: "review-caption" }, loyal ? t("review.chart.loyal") : t("review.chart.knights")),
    chart(review, series, x, replay),
    loyal ? null : legend(series, replay),
    timeBars(review, x, replay),
    el("p", { class: "muted" }, marksText(review)),
    el("p", { class: "muted" }, t("review.error", { error: Math.round((review.mean_error || 0) * 100) }),
      review.calibration_error === null || review.calibration_error === undefined ? ""
        : ` ${t("review.calibration", { calibration: Math.round(review.calibration_error * 100) })}`),
    el("small", { class: "muted" }, t("replay.review_jump")),
  ];
}

function seriesSeat(name) {
  const found = /^seat (\d+)$/.exec(name);
  return found ? Number(found[1]) : null;
}

function chart(review, series, x, replay) {
  const y = (p) => PAD.top + (1 - p) * (HEIGHT - PAD.top - PAD.bottom);
  const nodes = [];
  for (const p of [0, 0.5, 1]) {
    nodes.push(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(p), y2: y(p), class: "review-grid", "pointer-events": "none" }));
    nodes.push(svg("text", { x: PAD.left - 4, y: y(p) + 4, "text-anchor": "end", class: "review-axis", "pointer-events": "none" }, percentText(p)));
  }
  // The replay shows a move as played: the line stands on the last move shown.
  const now = Math.max(0, replay.version - 1);
  nodes.push(svg("line", { x1: x(now), x2: x(now), y1: PAD.top, y2: HEIGHT - PAD.bottom,
    class: "review-now", "data-testid": "review-now", "pointer-events": "none" }));
  for (const [name, points] of series) {
    const seat = seriesSeat(name);
    const colour = seat === null ? LOYAL_FILL : seatFill(seat);
    nodes.push(svg("polyline", { points: points.map(([i, p]) => `${x(i)},${y(p)}`).join(" "), fill: "none",
      stroke: colour, "stroke-width": 1.5, "data-series": name, "pointer-events": "none" }));
    for (const [i, p] of points) {
      const move = reviewedMove(i);
      const mark = move && move.mark;
      const dot = svg("circle", { cx: x(i), cy: y(p), r: mark ? 6 : 4, fill: mark ? MARK_FILL[mark] : colour,
        class: `review-point${mark ? ` marked mark-${mark}` : ""}`, tabindex: 0, role: "button",
        "data-testid": "review-point", "data-index": i, "data-mark": mark || "" },
      svg("title", {}, pointTitle(i, p, move, replay)));
      dot.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") show(replay, i); });
      nodes.push(dot);
    }
  }
  const drawn = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-chart", role: "img",
    "aria-label": t("replay.review"), "data-testid": "review-chart" }, nodes);
  // A long game's points crowd together (276 moves on 300 px; on a 390 px phone a finger
  // covers a dozen): a click or a tap goes to the move nearest across where it landed,
  // never to a neighbour drawn over it (issue 39, item 5). Lines and labels take no clicks;
  // a point's click (its tooltip needs the pointer) goes to the chart's.
  nearestOnClick(drawn, review.moves, x, replay);
  return drawn;
}

// Where the last pointer went down (a finger's own point, before Chromium's touch adjustment
// moves its click), kept for the whole page: the chart may be drawn anew between a finger's
// pointerdown and its click (the replay or the review redraws), and the new chart must know it.
let lastDown = null;
document.addEventListener("pointerdown", (event) => {
  lastDown = { x: event.clientX, y: event.clientY, time: event.timeStamp };
}, true);
/** Longest a click may follow its pointerdown and still be that press's click (ms): a busy
 * phone (a redraw under way) may hold the click back well over a second, and each press
 * serves one click only, so a late click never takes an older press. */
const PRESS_MS = 10000;

/** Where a click on `drawn` really landed across, in CSS px: its pointerdown's point when
 * that is this click's press (on the chart, not used by a click before), else the click's
 * own point. */
function landedX(drawn, event) {
  const box = drawn.getBoundingClientRect();
  const down = lastDown;
  lastDown = null;
  if (down && event.timeStamp - down.time < PRESS_MS && down.x >= box.left && down.x <= box.right
      && down.y >= box.top && down.y <= box.bottom) return down.x;
  return event.clientX;
}

/** A click on `drawn` (an SVG of width WIDTH) jumps to the move of `moves` nearest across
 * to where the pointer went down. A tap's click may come from elsewhere: Chromium's touch
 * adjustment moves it to the centre of what it takes for the target, and sent one tap in
 * five on a phone to a farther move; the pointer's own `pointerdown` is where the finger
 * really landed, so the click goes by that. */
function nearestOnClick(drawn, moves, x, replay) {
  drawn.addEventListener("click", (event) => {
    const box = drawn.getBoundingClientRect();
    const at = ((landedX(drawn, event) - box.left) / box.width) * WIDTH;
    let nearest = null;
    for (const move of moves) {
      if (nearest === null || Math.abs(x(move.index) - at) < Math.abs(x(nearest) - at)) nearest = move.index;
    }
    if (nearest !== null) show(replay, nearest);
  });
}

/** The replay at move `i` as played (the replay's "Action i+1"), its board on screen (on a
 * phone the board lies far above the review). */
async function show(replay, i) {
  await replay.jump(i + 1);
  const board = document.querySelector('[data-testid="board"]');
  const top = board ? board.getBoundingClientRect().top : 0;
  if (board && (top < 0 || top > innerHeight / 2)) board.scrollIntoView({ block: "start" });
}

/** A move in the page's language (issue 39, item 6): its label event, else its text. */
function moveText(label, text, replay) {
  return (label && replay.events ? renderEvent(label, replay.events) : "") || text;
}

/** A chance (0..1) as the page's language writes a percentage ("25%", "25 %"). */
export function percentText(p) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(p);
}

function pointTitle(i, p, move, replay) {
  // The number the replay shows for this move (issue 39, item 5).
  const parts = [t("replay.review_point", { n: i + 1, chance: percentText(p) })];
  if (move) {
    parts.push(`${replay.seatName(move.seat)}: ${moveText(move.played_label, move.played_text, replay)}`);
    if (move.mark) parts.push(`${t(`coach.mark.${move.mark}`)} — ${t("replay.review_best", { move: moveText(move.best_label, move.best_text, replay) })}`);
    if (move.seconds !== null && move.seconds !== undefined) parts.push(secondsText(move.seconds));
  }
  return parts.join("\n");
}

function legend(series, replay) {
  return el("p", { class: "review-legend" }, series.map(([name]) => {
    const seat = seriesSeat(name);
    return el("span", { class: "review-key", "data-color": seat === null ? "none" : seatColor(seat) },
      seat === null ? name : replay.seatName(seat));
  }));
}

/** A time as a person reads it, in the page's language (issue 39, item 6): "3.5 s" ("3,5 s"),
 * milliseconds below a second ("4 ms": a bot's 0.004 s would otherwise read "0.0 s"). */
export function secondsText(seconds) {
  if (seconds >= 1) {
    const n = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(seconds);
    return t("replay.review_seconds", { seconds: n });
  }
  const ms = Math.max(0, Math.round(seconds * 1000));
  return t("replay.review_ms", { ms: new Intl.NumberFormat(lang).format(ms) });
}

/** How long each reviewed move took, one bar a move on the chart's axis: a bar is as wide
 * as its share of the axis, and a click anywhere on the strip goes to the nearest move. */
function timeBars(review, x, replay) {
  const timed = review.moves.filter((m) => typeof m.seconds === "number");
  if (!review.times || !timed.length) return el("p", { class: "muted" }, t("replay.review_no_times"));
  const longest = Math.max(...timed.map((m) => m.seconds), 0.001);
  const slot = replay.length ? (WIDTH - PAD.left - PAD.right) / replay.length : 3;
  const width = Math.max(2, Math.min(8, slot));
  const bars = timed.map((m) => {
    const h = Math.max(2, (m.seconds / longest) * (TIMES_HEIGHT - 4));
    return svg("rect", { x: x(m.index) - width / 2, y: TIMES_HEIGHT - h, width, height: h, fill: seatFill(m.seat),
      class: "review-time", "data-testid": "review-time", "data-index": m.index },
    svg("title", {}, `${t("replay.review_point_n", { n: m.index + 1 })} — ${replay.seatName(m.seat)}: ${secondsText(m.seconds)}`));
  });
  const strip = svg("svg", { viewBox: `0 0 ${WIDTH} ${TIMES_HEIGHT}`, class: "review-times-chart", "data-testid": "review-times" },
    svg("rect", { x: 0, y: 0, width: WIDTH, height: TIMES_HEIGHT, fill: "transparent" }), bars);
  nearestOnClick(strip, timed, x, replay);
  return el("div", { class: "review-times" },
    el("p", { class: "review-caption" }, t("replay.review_times", { time: secondsText(longest) })),
    strip);
}

function marksText(review) {
  const marks = Object.entries(review.marks || {}).filter(([, n]) => n > 0);
  if (!marks.length) return t("review.no_marks");
  return t("review.marks", { marks: marks.map(([mark, n]) => `${t(`coach.mark.${mark}`)} ${n}`).join(", ") });
}

/** The mark of the move at action index `i`, as a badge for the move list (else null). */
export function markBadge(i, events = null) {
  const move = reviewedMove(i);
  if (!move || !move.mark) return null;
  const best = moveText(move.best_label, move.best_text, { events });
  return el("span", { class: `review-mark mark-${move.mark}`, "data-testid": "review-mark", title: t("replay.review_best", { move: best }) },
    t(`coach.mark.${move.mark}`));
}
