// The coach's review in the replay of a finished game (issue 31, item 3; docs/web.md,
// "The review"). "Review" asks the server for it (`POST /api/replay/review`), then follows
// its progress (`GET /api/replay/review`) until the figures come: a chart of the win chance
// over the game (the loyal side's in the Camelot games, each knight's own line in Grail
// Cup), the marked moves, and how long each move took; a point or a bar jumps the replay
// to that move. Plain SVG, no library.
import { el, fetchJson, svg } from "./dom.js";
import { t } from "./i18n.js";
import { seatColor, seatFill } from "./common.js";

const WIDTH = 320;
const HEIGHT = 150;
const TIMES_HEIGHT = 44;
const PAD = { left: 30, right: 8, top: 8, bottom: 16 };
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
    nodes.push(svg("text", { x: PAD.left - 4, y: y(p) + 4, "text-anchor": "end", class: "review-axis", "pointer-events": "none" }, `${p * 100}%`));
  }
  nodes.push(svg("line", { x1: x(replay.version), x2: x(replay.version), y1: PAD.top, y2: HEIGHT - PAD.bottom,
    class: "review-now", "data-testid": "review-now", "pointer-events": "none" }));
  for (const [name, points] of series) {
    const seat = seriesSeat(name);
    const colour = seat === null ? LOYAL_FILL : seatFill(seat);
    nodes.push(svg("polyline", { points: points.map(([i, p]) => `${x(i)},${y(p)}`).join(" "), fill: "none",
      stroke: colour, "stroke-width": 1.5, "data-series": name, "pointer-events": "none" }));
    for (const [i, p] of points) {
      const move = reviewedMove(i);
      const mark = move && move.mark;
      const dot = svg("circle", { cx: x(i), cy: y(p), r: mark ? 4.5 : 3, fill: mark ? MARK_FILL[mark] : colour,
        class: `review-point${mark ? ` marked mark-${mark}` : ""}`, tabindex: 0, role: "button",
        "data-testid": "review-point", "data-index": i, "data-mark": mark || "" },
      svg("title", {}, pointTitle(i, p, move, replay)));
      dot.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") replay.jump(i); });
      nodes.push(dot);
    }
  }
  const drawn = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-chart", role: "img",
    "aria-label": t("replay.review"), "data-testid": "review-chart" }, nodes);
  // A long game's points crowd together: a click jumps to the point clicked, or anywhere
  // else on the chart to the move nearest across. Lines and labels take no clicks (a line
  // drawn over a point would otherwise turn a click on that point into the nearest move).
  drawn.addEventListener("click", (event) => {
    const index = event.target && event.target.dataset ? event.target.dataset.index : undefined;
    if (index !== undefined) {
      replay.jump(Number(index));
      return;
    }
    const box = drawn.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * WIDTH;
    let nearest = null;
    for (const move of review.moves) {
      if (nearest === null || Math.abs(x(move.index) - at) < Math.abs(x(nearest) - at)) nearest = move.index;
    }
    if (nearest !== null) replay.jump(nearest);
  });
  return drawn;
}

function pointTitle(i, p, move, replay) {
  const parts = [t("replay.review_point", { n: i + 1, chance: Math.round(p * 100) })];
  if (move) {
    parts.push(`${replay.seatName(move.seat)}: ${move.played_text}`);
    if (move.mark) parts.push(`${t(`coach.mark.${move.mark}`)} — ${t("replay.review_best", { move: move.best_text })}`);
    if (move.seconds !== null && move.seconds !== undefined) parts.push(t("replay.review_seconds", { seconds: secondsText(move.seconds) }));
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

/** Seconds as a person reads them: tenths from a second up, two significant digits below
 * (a bot's 0.004 s would otherwise read "0.0 s" beside a bar of full height). */
export function secondsText(seconds) {
  if (seconds >= 1) return seconds.toFixed(1);
  if (seconds <= 0) return "0";
  return String(Number(seconds.toPrecision(2)));
}

/** How long each reviewed move took, one bar a move on the chart's axis. */
function timeBars(review, x, replay) {
  const timed = review.moves.filter((m) => typeof m.seconds === "number");
  if (!review.times || !timed.length) return el("p", { class: "muted" }, t("replay.review_no_times"));
  const longest = Math.max(...timed.map((m) => m.seconds), 0.001);
  const bars = timed.map((m) => {
    const h = Math.max(1, (m.seconds / longest) * (TIMES_HEIGHT - 4));
    const bar = svg("rect", { x: x(m.index) - 1.5, y: TIMES_HEIGHT - h, width: 3, height: h, fill: seatFill(m.seat),
      class: "review-time", "data-testid": "review-time", "data-index": m.index },
    svg("title", {}, `${replay.seatName(m.seat)}: ${t("replay.review_seconds", { seconds: secondsText(m.seconds) })}`));
    bar.addEventListener("click", () => replay.jump(m.index));
    return bar;
  });
  return el("div", { class: "review-times" },
    el("p", { class: "review-caption" }, t("replay.review_times", { seconds: secondsText(longest) })),
    svg("svg", { viewBox: `0 0 ${WIDTH} ${TIMES_HEIGHT}`, class: "review-times-chart", "data-testid": "review-times" }, bars));
}

function marksText(review) {
  const marks = Object.entries(review.marks || {}).filter(([, n]) => n > 0);
  if (!marks.length) return t("review.no_marks");
  return t("review.marks", { marks: marks.map(([mark, n]) => `${t(`coach.mark.${mark}`)} ${n}`).join(", ") });
}

/** The mark of the move at action index `i`, as a badge for the move list (else null). */
export function markBadge(i) {
  const move = reviewedMove(i);
  if (!move || !move.mark) return null;
  return el("span", { class: `review-mark mark-${move.mark}`, "data-testid": "review-mark", title: t("replay.review_best", { move: move.best_text }) },
    t(`coach.mark.${move.mark}`));
}
