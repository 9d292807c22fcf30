// The rematch (issue 17, item 10): once the game is over, a seated player may start a new
// table of the same game, options and seats. Each page asks the server for its own new
// link with its own token (POST or GET /api/table/rematch), so nobody sees another's.
import { el, fetchJson } from "./dom.js";
import { t } from "./i18n.js";

let answer = null; // {table, seat, token, link} for this page's token
let asked = null; // the rematch table whose link was asked for
let problem = null;
let busy = false;

function go(link) {
  // Only the fragment differs from this page's address: load the new table's page.
  location.replace(link);
  location.reload();
}

async function ask(token, method, rerender) {
  busy = true;
  try {
    answer = await fetchJson("/api/table/rematch", { method, headers: { Authorization: `Bearer ${token}` } });
    problem = null;
  } catch (error) {
    problem = t(`error.${error.code}`, {}, "") || error.message;
  }
  busy = false;
  rerender();
}

/** After each render of a finished game: "Rematch", then "Go to the rematch". */
export function rematchBox(view, token, rerender) {
  const message = view.message;
  const panel = document.querySelector('[data-testid="actions"]');
  if (!panel) return;
  // The actions panel is kept between renders: replace the box, never add a second one.
  panel.querySelector(".rematch-box")?.remove();
  if (!message || !message.finished) return;
  if (message.rematch && asked !== message.rematch && !busy) {
    asked = message.rematch; // someone started it: fetch this page's own link
    ask(token, "GET", rerender);
  }
  const box = el("div", { class: "rematch-box", "data-testid": "rematch-box" });
  if (answer && answer.link) {
    const link = el("a", { class: "button primary", href: answer.link, "data-testid": "rematch-link" }, t("table.rematch_go"));
    link.addEventListener("click", (event) => {
      event.preventDefault();
      go(answer.link);
    });
    box.append(el("p", {}, view.info.seat === null ? t("table.rematch_help") : t("table.rematch_ready")), link);
  } else if (view.info.seat !== null && !message.rematch) {
    const button = el("button", { type: "button", class: "primary", disabled: busy, "data-testid": "rematch" }, t("table.rematch"));
    button.addEventListener("click", () => ask(token, "POST", rerender));
    box.append(button, el("small", { class: "muted help" }, " ", t("table.rematch_help")));
  }
  if (problem) box.append(el("p", { class: "error", role: "alert" }, problem));
  if (box.childNodes.length) panel.append(box);
}
