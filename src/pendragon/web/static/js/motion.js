// What changed, shown (issue 17, item 10): after each new state pushed by the server, the
// figures that moved glide from where they were, and what is new (cards, swords, figures,
// counts, log lines) glows for a moment, so a player can follow what the bots did.
// Game-agnostic: it compares the page before and after. With prefers-reduced-motion
// nothing moves; the new things are only outlined (style: css/extras.css).
const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const MOVE_MS = 650;
let lastVersion = null;
let lastPlaces = new Map(); // figure key -> its box on screen
let lastMarks = new Map(); // signature -> count
let lastLog = -1;

// Figures that move between places: the boards mark their pieces with data-seat (a
// knight's token, a pawn) or data-token.
function figures() {
  const found = new Map();
  for (const node of document.querySelectorAll('[data-testid="board"] svg [data-seat], [data-testid="board"] svg [data-token]')) {
    const key = `${node.getAttribute("class") || ""}|${node.dataset.seat ?? ""}|${node.dataset.token ?? ""}`;
    if (!found.has(key)) found.set(key, node);
  }
  return found;
}

// What is drawn: every shape and text of the board, and every card shown in the page's
// panels, each as a signature (its tag, attributes and text).
function marked() {
  const nodes = [
    ...document.querySelectorAll('[data-testid="board"] svg :is(circle, rect, path, polygon, line, text, use, ellipse)'),
    ...document.querySelectorAll("main.table [data-card]"),
  ];
  return nodes.map((node) => {
    const attributes = [...node.attributes].filter((a) => a.name !== "class" || !a.value.includes("pd-new"))
      .map((a) => `${a.name}=${a.value}`).sort().join(" ");
    return [node, `${node.tagName}|${attributes}|${node.textContent}`];
  });
}

function glow(node) {
  node.classList.remove("pd-new");
  node.classList.add("pd-new");
}

function glide(node, before) {
  const now = node.getBoundingClientRect();
  let dx = before.left - now.left;
  let dy = before.top - now.top;
  if (Math.abs(dx) + Math.abs(dy) < 2 || typeof node.animate !== "function") return;
  const svg = node.ownerSVGElement;
  const ctm = svg && svg.getScreenCTM ? svg.getScreenCTM() : null;
  if (ctm && ctm.a && ctm.d) {
    dx /= ctm.a; // screen pixels to the drawing's own units
    dy /= ctm.d;
  }
  node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
    { duration: MOVE_MS, easing: "ease-in-out" });
  glow(node);
}

/** After each render: animate what changed since the last state the page showed. */
export function showChanges(view) {
  const message = view.message;
  if (!message) return;
  const places = new Map();
  for (const [key, node] of figures()) places.set(key, node);
  const marks = marked();
  const counts = new Map();
  for (const [, signature] of marks) counts.set(signature, (counts.get(signature) || 0) + 1);
  const changed = lastVersion !== null && message.version !== lastVersion;
  if (changed) {
    if (!reduced.matches) {
      for (const [key, node] of places) {
        const before = lastPlaces.get(key);
        if (before) glide(node, before);
      }
    }
    // A signature seen more often than before is something new (or changed) on the page.
    const budget = new Map();
    for (const [signature, count] of counts) budget.set(signature, count - (lastMarks.get(signature) || 0));
    for (const [node, signature] of marks) {
      if ((budget.get(signature) || 0) > 0) {
        budget.set(signature, budget.get(signature) - 1);
        glow(node);
      }
    }
    for (const line of document.querySelectorAll('[data-testid="log"] [data-i]')) {
      if (Number(line.dataset.i) > lastLog) glow(line);
    }
  }
  if (changed || lastVersion === null) {
    lastMarks = counts;
    lastVersion = message.version;
    const lines = document.querySelectorAll('[data-testid="log"] [data-i]');
    lastLog = lines.length ? Number(lines[lines.length - 1].dataset.i) : lastLog;
  }
  // Positions are read after every render: the layout may change without a new state.
  lastPlaces = new Map([...places].map(([key, node]) => [key, node.getBoundingClientRect()]));
}
