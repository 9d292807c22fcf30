// Decisions with many ordered choices (issue 27, item 6): "Say 1" ... "Say 63", "Dragon to
// space 0" ... "Dragon to space 49". A button each floods the page (a phone scrolls through
// them all), so the table page shows such a decision as one number field holding the legal
// range and a button that plays the number typed, with the full list folded away beneath.
//
// The rule is data-driven, for every game alike (the generic board included): legal actions
// whose text is `<prefix>:<integer>`, sharing the prefix, at least COMPACT_AT of them. The
// number shown and typed is the one the buttons' own words show (the numeric parameter of
// the label event that differs between them; else the text's integer), and the legal values
// are exactly those of the legal actions: any other number leaves the button disabled and
// says which numbers are allowed (the server refuses an illegal move anyway).
import { el } from "./dom.js";
import { renderEvent, t } from "./i18n.js";

/** At least this many numbered choices with one prefix become a number field. */
export const COMPACT_AT = 13;

const NUMBERED = /^([a-z][a-z0-9_-]*):(-?\d+)$/;

/** The number a person reads on `action`'s button: the label's numeric parameter `param`
 * (when given), else the integer of its text. */
function shownNumber(action, param) {
  if (param && action.label && action.label.p && typeof action.label.p[param] === "number") return action.label.p[param];
  return Number(NUMBERED.exec(action.text)[2]);
}

/** The label's numeric parameter whose value tells the actions apart, or null. */
function varyingParam(actions) {
  const first = actions[0].label && actions[0].label.p;
  if (!first) return null;
  for (const [name, value] of Object.entries(first)) {
    if (typeof value !== "number") continue;
    const values = new Set(actions.map((a) => (a.label && a.label.p ? a.label.p[name] : undefined)));
    if (values.size === actions.length && [...values].every((v) => typeof v === "number")) return name;
  }
  return null;
}

/** Split `actions` into runs of numbered choices (`{prefix, choices: [{action, n}]}`, each
 * with at least COMPACT_AT of them, sorted by number) and the rest (kept in their order). */
export function splitNumbered(actions) {
  const byPrefix = new Map();
  for (const action of actions) {
    const match = NUMBERED.exec(action.text || "");
    if (!match) continue;
    if (!byPrefix.has(match[1])) byPrefix.set(match[1], []);
    byPrefix.get(match[1]).push(action);
  }
  const numbered = [];
  const compacted = new Set();
  for (const [prefix, group] of byPrefix) {
    if (group.length < COMPACT_AT) continue;
    const param = varyingParam(group);
    const choices = group.map((action) => ({ action, n: shownNumber(action, param) })).sort((a, b) => a.n - b.n);
    if (new Set(choices.map((c) => c.n)).size !== choices.length) continue; // two buttons would read alike
    numbered.push({ prefix, choices });
    for (const action of group) compacted.add(action);
  }
  return { numbered, rest: actions.filter((a) => !compacted.has(a)) };
}

/** The allowed numbers in words: "1–63", or "10, 15, 19–21" for a set with gaps. */
export function rangeText(numbers) {
  const runs = [];
  for (const n of numbers) {
    const last = runs[runs.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(", ");
}

/**
 * The compact control of one run of numbered choices: a number field limited to the legal
 * range, a button worded as the chosen action's own button ("Say 17") that plays it, and
 * every choice's button folded in a <details> (still there for the board's clickable
 * spaces, and for whoever prefers a list). `makeButton(action)` builds an action's button
 * as the page does; `play(action)` sends it; `ctx` words the events.
 */
export function numberChoice(run, { ctx, disabled, makeButton, play }) {
  const numbers = run.choices.map((c) => c.n);
  const byNumber = new Map(run.choices.map((c) => [c.n, c.action]));
  const min = numbers[0];
  const max = numbers[numbers.length - 1];
  const allowed = rangeText(numbers);
  const input = el("input", {
    type: "number", min, max, step: 1, inputmode: "numeric", value: min, required: true,
    class: "number-choice-input", "data-testid": "number-choice-input", "data-prefix": run.prefix,
    "aria-label": t("table.number_choice", { allowed }), disabled,
  });
  const go = el("button", { type: "submit", class: "action primary", "data-testid": "number-choice-play", disabled });
  const hint = el("span", { class: "number-choice-hint muted", "data-testid": "number-choice-hint" });
  const chosen = () => {
    const text = input.value.trim();
    return /^-?\d+$/.test(text) ? byNumber.get(Number(text)) || null : null;
  };
  const update = () => {
    const action = chosen();
    go.textContent = action ? renderEvent(action.label, ctx.events) || action.text : t("table.number_choice_play");
    go.disabled = disabled || !action;
    go.dataset.action = action ? action.text : "";
    hint.textContent = action ? t("table.number_choice", { allowed }) : t("table.number_choice_refused", { allowed });
    hint.classList.toggle("refused", !action);
    if (action) hint.removeAttribute("role");
    else hint.setAttribute("role", "alert");
  };
  input.addEventListener("input", update);
  const form = el("form", { class: "number-choice", "data-testid": "number-choice", "data-prefix": run.prefix,
    "data-min": min, "data-max": max }, input, go, hint);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = chosen();
    if (action && !disabled) play(action);
    else update();
  });
  update();
  const all = el("details", { class: "all-choices", "data-testid": "all-choices" },
    el("summary", {}, t("table.all_choices", { n: numbers.length })),
    el("div", { class: "all-choices-list" }, run.choices.map((c) => {
      const button = makeButton(c.action);
      button.dataset.n = String(c.n); // the number that chooses it in the field
      return button;
    })));
  return el("div", { class: "numbered-choices" }, form, all);
}
