// Before the game begins (issue 27, item 5): the table waits until everyone seated has
// opened his link, or the host starts it. Until then no bot moves and no clock runs; the
// page says whom it waits for, and the host's page offers to start at once.
import { el, fetchJson } from "./dom.js";
import { t } from "./i18n.js";

let problem = null;
let busy = false;

async function start(token, rerender) {
  busy = true;
  try {
    await fetchJson("/api/table/start", { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    problem = null;
  } catch (error) {
    problem = t(`error.${error.code}`, {}, "") || error.message;
  }
  busy = false;
  rerender();
}

/** After each render: the waiting notice (and the host's start button) above the moves. */
export function startBox(view, ctx, token, rerender) {
  const panel = document.querySelector('[data-testid="actions"]');
  if (!panel) return;
  panel.querySelector(".start-box")?.remove();
  const message = view.message;
  if (!message || message.started !== false) return;
  const names = (message.waiting_for || []).map((seat) => ctx.seatName(seat, { plain: true })).join(", ");
  const box = el("div", { class: "start-box notice", role: "status", "data-testid": "start-box" },
    el("p", {}, t("table.waiting_for", { seats: names })));
  if (view.info && view.info.role === "host") {
    const button = el("button", { type: "button", class: "primary", disabled: busy, "data-testid": "start-now" },
      t("table.start_now"));
    button.addEventListener("click", () => start(token, rerender));
    box.append(button, el("small", { class: "muted help" }, " ", t("table.start_now.help")));
  }
  if (problem) box.append(el("p", { class: "error", role: "alert" }, problem));
  panel.prepend(box);
}
