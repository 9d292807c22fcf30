// The bots' pace at a table (issue 27, item 9): bots moving every 0.4 s are too quick for a
// person to follow, so a seated person or the host may slow them down (or speed them up
// again) during play. The server keeps the table's pace (`POST /api/table/pace`, one of the
// table's `bot_paces`), announces each change in the log and pushes it in every view.
import { el, fetchJson } from "./dom.js";
import { t } from "./i18n.js";

/** The words of a pace in seconds: the catalog's "table.pace.<milliseconds>", e.g. "2 s". */
export function paceText(seconds) {
  const ms = Math.round(seconds * 1000);
  return t(`table.pace.${ms}`, {}, `${seconds} s`);
}

/** The pace control, for a seat's or the host's page while bots play at the table (else
 * null). `onError(error)` shows a refusal; `rerender()` redraws the page. */
export function paceControl(view, token, onError, rerender) {
  const info = view.info;
  const message = view.message;
  if (!info || !message || message.finished || !Array.isArray(info.bot_paces)) return null;
  if (info.role !== "seat" && info.role !== "host") return null;
  if (!view.seats.some((seat) => seat.controller === "bot")) return null;
  const current = typeof message.bot_pace === "number" ? message.bot_pace : null;
  const paces = [...info.bot_paces];
  if (current !== null && !paces.includes(current)) paces.unshift(current); // the server's own default
  // Buttons, not a <select>: the page redraws at every bot move, which would close an open
  // drop-down under the pointer.
  const choose = async (seconds) => {
    if (!info.bot_paces.includes(seconds)) return; // only the table's own choices are sent
    try {
      await fetchJson("/api/table/pace", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ seconds }),
      });
    } catch (error) {
      onError(error);
      rerender();
    }
  };
  const buttons = paces.map((seconds) => {
    const chosen = seconds === current;
    const button = el("button", { type: "button", class: `small pace${chosen ? " chosen" : ""}`,
      "aria-pressed": chosen ? "true" : "false", "data-testid": `bot-pace-${seconds}`,
      disabled: !info.bot_paces.includes(seconds) }, paceText(seconds));
    button.addEventListener("click", () => choose(seconds));
    return button;
  });
  return el("div", { class: "bot-pace", role: "group", "aria-labelledby": "bot-pace-label", "data-testid": "bot-pace",
    "data-pace": current === null ? "" : String(current) },
    el("span", { id: "bot-pace-label", class: "bot-pace-label" }, t("table.pace")), " ", buttons,
    el("small", { class: "muted bot-pace-help" }, t("table.pace_help")));
}
