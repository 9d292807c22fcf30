// The turn timer's countdown (issue 17, item 10): the state message's `timer` ({seconds,
// remaining, seat}) is the time left for the person to act; the page counts it down from
// the moment the message arrived. When it runs out the server's bot plays that move.
import { el } from "./dom.js";
import { t } from "./i18n.js";

let seen = null; // the state message the deadline was read from
let deadline = null; // performance.now() at which the time runs out
let label = () => "";
let ticker = null;

function text(me) {
  const seconds = Math.max(0, Math.ceil((deadline.at - performance.now()) / 1000));
  return {
    seconds,
    words: deadline.seat === me ? t("table.timer_you", { seconds }) : t("table.timer_other", { who: label(deadline.seat), seconds }),
  };
}

function update(node, me) {
  const { seconds, words } = text(me);
  node.textContent = words;
  node.classList.toggle("urgent", seconds <= 10);
}

/** After each render: the countdown beside the header's status, while a timer runs. */
export function showTimer(view, ctx) {
  const message = view.message;
  if (message !== seen) {
    seen = message;
    deadline = message && message.timer && !message.finished
      ? { at: performance.now() + message.timer.remaining * 1000, seat: message.timer.seat }
      : null;
  }
  label = ctx.events.seatName;
  const status = document.querySelector('[data-testid="status"]');
  if (!status || !deadline) return;
  const node = el("span", { class: "turn-timer", "data-testid": "turn-timer", role: "timer" });
  update(node, ctx.me);
  status.after(node);
  if (!ticker) {
    ticker = setInterval(() => {
      const shown = document.querySelector('[data-testid="turn-timer"]');
      if (shown && deadline) update(shown, ctx.me);
    }, 250);
  }
}
