// A click is a press and a release on one element: the browser drops it if that element is
// replaced between the two. The pages redraw whole (`fill`), so whatever redraws on its own
// (a server's push, a replay playing, a review arriving) waits here while a mouse button or
// a finger is down, and draws after the release and the click it makes. The person's own
// actions draw at once: they come after their click.

/** The longest a press holds a redraw back (a long touch, a drag). */
const HOLD_MS = 1000;
/** After a release, the longest a redraw waits for its click. */
const RELEASE_MS = 100;

let down = false;
const waiting = new Set();
let timer = null;

function due(ms) {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    const draws = [...waiting];
    waiting.clear();
    for (const draw of draws) draw();
  }, ms);
}

document.addEventListener("pointerdown", () => {
  down = true;
}, true);
function released() {
  down = false;
  if (waiting.size) due(RELEASE_MS);
}
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, released, true);
// A release the page never hears of (the window left mid-press) ends the press too.
window.addEventListener("blur", released);
document.addEventListener("click", () => {
  if (waiting.size) due(0); // after the click's own handlers
}, true);

/** Whether a mouse button or a finger is down on the page. */
export function pressed() {
  return down;
}

/** Call `draw` now, or, while a press is under way, once after it (however often asked). */
export function unpressed(draw) {
  if (!down) {
    draw();
    return;
  }
  if (!waiting.size) due(HOLD_MS);
  waiting.add(draw);
}
