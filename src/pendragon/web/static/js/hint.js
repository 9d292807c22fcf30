// Hints at the table (issue 31, item 2; docs/web.md, "Hints"). The host decides whether a
// table allows them (`POST /api/table/hints`); everyone's page shows whether it does. Where
// it does, a seated player asks at his turn (`POST /api/table/hint`): the coach's move comes
// back to him alone (highlighted among his moves, with its win chance and why, worded by
// the page in his language), and the log tells everyone that he asked, never what he was
// told.
import { el, fetchJson } from "./dom.js";
import { renderEvent, t } from "./i18n.js";

let hint = null; // the last answer: {version, action, action_text, chance, side, reason, ...}
let asking = false;
let problem = null; // {version, text}

/** What the actions panel shows of the hint, for its cache key. */
export function hintKey() {
  return JSON.stringify([hint && hint.version, hint && hint.action, asking, problem]);
}

/** The action id the coach suggests for the position the page shows (else null). */
export function hintedAction(view) {
  return hint && view.message && hint.version === view.message.version ? hint.action : null;
}

/** The "Hint" button and the coach's answer, for the page of the seat to act where hints are
 * allowed (else null). `errorText(code, message)` words a refusal. */
export function hintBox(view, token, ctx, rerender, errorText) {
  const message = view.message;
  if (!message || !view.info || view.info.role !== "seat" || !message.hints) return null;
  if (message.finished || !message.legal.length) return null;
  const version = message.version;
  const button = el("button", { type: "button", class: "small hint-button", "data-testid": "hint-ask",
    disabled: asking || (hint && hint.version === version) }, asking ? t("table.hint_thinking") : t("table.hint"));
  button.addEventListener("click", async () => {
    if (asking) return;
    asking = true;
    problem = null;
    rerender();
    try {
      hint = await fetchJson("/api/table/hint", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ version }),
      });
    } catch (error) {
      problem = { version, text: errorText(error.code, error.message) };
    }
    asking = false;
    rerender();
  });
  const parts = [button];
  if (hint && hint.version === version) {
    parts.push(el("p", { class: "hint-answer", role: "status", "data-testid": "hint-answer", "data-action": hint.action_text },
      el("strong", {}, t("table.hint_title")), " ", renderEvent(hint.reason, ctx.events)));
  } else if (problem && problem.version === version) {
    parts.push(el("p", { class: "notice error", role: "alert", "data-testid": "hint-problem" }, problem.text));
  } else {
    parts.push(el("small", { class: "muted" }, t("table.hint_help")));
  }
  return el("div", { class: "hint-box", "data-testid": "hint" }, parts);
}

/** Whether the table allows hints, on every page; the host's page may change it. */
export function hintsSetting(view, token, onError, rerender) {
  const message = view.message;
  if (!message || !view.info || message.finished) return null;
  const allowed = Boolean(message.hints);
  const parts = [el("span", { "data-testid": "hints-status", "data-allowed": String(allowed) },
    allowed ? t("table.hints_on") : t("table.hints_off"))];
  if (view.info.role === "host") {
    const toggle = el("button", { type: "button", class: "small", "data-testid": "hints-toggle" },
      allowed ? t("table.hints_turn_off") : t("table.hints_allow"));
    toggle.addEventListener("click", async () => {
      try {
        await fetchJson("/api/table/hints", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ allowed: !allowed }),
        });
      } catch (error) {
        onError(error);
        rerender();
      }
    });
    parts.push(" ", toggle);
  }
  return el("p", { class: "hints-setting muted" }, parts);
}
