// The table on a phone (issue 39, item 11): below NARROW_SCREEN the page was one column of
// about 4,300 CSS px (five screens), so Camelot, the quests and one's hand were never on
// screen together. On a phone the page is four tabs under the header instead: "Play" (the
// moves and your hand), "Board" (the board, your hand beneath it), "Table" (what lies on the
// table, the seats) and "Log" (the log and the chat); the CSS of style.css hides the other
// panels. A tap on a card or a space of the board shows its text (a tooltip needs a mouse).
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { isNarrowScreen } from "./common.js";

export const PHONE_TABS = ["play", "board", "table", "talk"];
let chosen = "play";

/** The tab shown on a phone. */
export function phoneTab() {
  return chosen;
}

/** The tab bar (hidden on a wider screen by the CSS). `yourTurn` marks the "Play" tab,
 * `seatsToHandOver` the "Table" tab (a gone player's seat may be handed to a bot there). */
export function phoneTabs(rerender, { yourTurn = false, seatsToHandOver = false } = {}) {
  return el("nav", { class: "phone-tabs", role: "tablist", "data-testid": "phone-tabs" }, PHONE_TABS.map((tab) => {
    const button = el("button", { type: "button", role: "tab", class: `phone-tab ${tab === chosen ? "chosen" : ""}`,
      "aria-selected": String(tab === chosen), "data-testid": `phone-tab-${tab}` },
    t(`table.tab.${tab}`), tab === "play" && yourTurn ? el("span", { class: "tab-dot", "aria-label": t("table.tab.your_turn") }, " ●") : null,
    tab === "table" && seatsToHandOver ? el("span", { class: "tab-dot", "data-testid": "tab-dot-table", "aria-label": t("table.give_to_bot") }, " ●") : null);
    button.addEventListener("click", () => {
      chosen = tab;
      rerender();
      window.scrollTo(0, 0);
    });
    return button;
  }));
}

let tip = null;

function hideTip() {
  if (tip) tip.remove();
  tip = null;
}

/** The text a tap on `target` should show: its own or an ancestor's title (an HTML title
 * attribute, or an SVG shape's <title>), or "" on a control (a tap there acts). */
function tipText(target) {
  if (!target || !target.closest || target.closest("button, a, input, select, textarea, summary, label")) return "";
  // A card of the hand: its name and its text (hidden in the Board tab's strip).
  const card = target.closest(".card");
  const words = card ? card.querySelector(".card-text") : null;
  if (card && words && words.textContent.trim()) {
    if (getComputedStyle(words).display !== "none") return ""; // it is written there already
    const name = card.querySelector(".card-name");
    return `${name ? `${name.textContent}: ` : ""}${words.textContent}`;
  }
  for (let node = target; node && node !== document.body; node = node.parentNode) {
    if (node.getAttribute && node.getAttribute("title")) return node.getAttribute("title");
    const own = node.children ? [...node.children].find((child) => child.tagName.toLowerCase() === "title") : null;
    if (own && own.textContent.trim()) return own.textContent;
  }
  return "";
}

/** On a phone, a tap on a card or on the board shows its text at the bottom of the screen
 * until the next tap. */
export function tapToRead() {
  document.addEventListener("click", (event) => {
    const had = tip !== null;
    hideTip();
    if (!isNarrowScreen() || had) return;
    const text = tipText(event.target);
    if (!text) return;
    tip = el("div", { class: "tap-tip", role: "status", "data-testid": "tap-tip" }, text);
    document.body.append(tip);
  });
}
