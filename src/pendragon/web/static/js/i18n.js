// Messages: /i18n/<lang>.json, key -> text with {placeholders}, or {cldr_category: text} for a
// message with plural forms (chosen by its `count`). English fills gaps.
// Events ({k: key, p: params}) from the server are worded here, for every game alike.
import { el, fetchJson } from "./dom.js";

export const LANGUAGES = ["en", "ru", "cs", "pl"];
const NAMES = { en: "English", ru: "Русский", cs: "Čeština", pl: "Polski" };
let table = {};
let fallback = {};
export let lang = "en";

function chosenLanguage() {
  const stored = localStorage.getItem("pendragon.lang");
  if (LANGUAGES.includes(stored)) return stored;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const short = String(wanted).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

export async function setLanguage(code) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!fallback["app.title"]) fallback = await fetchJson("/i18n/en.json");
  table = code === "en" ? fallback : await fetchJson(`/i18n/${code}.json`);
  lang = code;
  localStorage.setItem("pendragon.lang", code);
  document.documentElement.lang = code;
}

export async function initI18n() {
  await setLanguage(chosenLanguage());
}

/** Whether `key` has a text. */
export function has(key) {
  return key in table || key in fallback;
}

// Each language's CLDR plural rules, made once (making them costs more than a page's text).
const pluralRules = new Map();

// A plural message's form for `count`, by the CLDR rules of the message's language.
function pluralForm(message, count, language) {
  if (!pluralRules.has(language)) pluralRules.set(language, new Intl.PluralRules(language));
  const category = pluralRules.get(language).select(Number(count) || 0);
  return message[category] ?? message.other ?? Object.values(message)[0];
}

/** The text of `key` with {placeholders} filled from `params`; `otherwise` (or the key) if missing. */
export function t(key, params = {}, otherwise = undefined) {
  const own = key in table;
  let text = own ? table[key] : fallback[key];
  if (text !== null && typeof text === "object") text = pluralForm(text, params.count, own ? lang : "en");
  if (text === undefined || text === null) text = otherwise ?? key;
  return String(text).replace(/\{([a-z_]+)\}/g, (match, name) =>
    name in params && params[name] !== undefined && params[name] !== null ? String(params[name]) : match,
  );
}

function isSeat(value) {
  return value !== null && typeof value === "object" && typeof value.seat === "number" && Object.keys(value).length === 1;
}

function isTerm(value) {
  return value !== null && typeof value === "object" && typeof value.term === "string";
}

function isEvent(value) {
  return value !== null && typeof value === "object" && typeof value.k === "string";
}

function paramText(value, ctx) {
  if (isSeat(value)) return ctx.seatName(value.seat);
  if (isTerm(value)) return t(value.term);
  if (isEvent(value)) return renderEvent(value, ctx);
  return value;
}

/**
 * The key an event is worded with for the reader `me` (as `Catalog.variant` in Python): its
 * ".you-self" variant when the reader is its `seat` and another seat parameter, its
 * ".you" variant when the reader is its `seat`, else its ".you-<name>" variant when the
 * reader is the seat parameter `<name>`, else its own key (each only if it exists).
 */
export function variantKey(event, me) {
  const params = event.p || {};
  if (me === null || me === undefined) return event.k;
  // The reader is the subject and the object: "You name yourself", not "You name you".
  const mine = Object.values(params).filter((value) => isSeat(value) && value.seat === me).length;
  if (isSeat(params.seat) && params.seat.seat === me && mine > 1 && has(`${event.k}.you-self`)) return `${event.k}.you-self`;
  if (isSeat(params.seat) && params.seat.seat === me && has(`${event.k}.you`)) return `${event.k}.you`;
  for (const [name, value] of Object.entries(params)) {
    if (name !== "seat" && isSeat(value) && value.seat === me && has(`${event.k}.you-${name}`)) {
      return `${event.k}.you-${name}`;
    }
  }
  return event.k;
}

/**
 * An event in words. `ctx.me` is the reader's seat (null for a spectator): a message's
 * ".you" or ".you-<name>" variant is used when the reader is its subject or object.
 * `ctx.seatName(n)` words a seat; a term is its message; a nested event is worded the same
 * way; a number stays a number (`count` chooses a plural form).
 */
export function renderEvent(event, ctx) {
  if (!isEvent(event)) return "";
  const params = event.p || {};
  const key = variantKey(event, ctx.me);
  const words = {};
  for (const [name, value] of Object.entries(params)) words[name] = paramText(value, ctx);
  if (lang === "en") {
    // A title named mid-sentence loses its capital article: "Go to the Black Knight", not
    // "Go to The Black Knight" (issue 39, item 13); at the start of a sentence (or after a
    // colon) it keeps it.
    const template = t(key, {}, key);
    for (const [name, value] of Object.entries(params)) {
      const text = words[name];
      const at = template.indexOf(`{${name}}`);
      const before = at > 0 ? template.slice(0, at).trimEnd().slice(-1) : "";
      if (isTerm(value) && typeof text === "string" && text.startsWith("The ") && at > 0 && !":.!?".includes(before)) {
        words[name] = `the ${text.slice(4)}`;
      }
    }
  }
  return t(key, words, key);
}

/** Several events (one action's narration) in words, one sentence after another. */
export function renderEvents(events, ctx) {
  return (events || []).map((event) => renderEvent(event, ctx)).filter(Boolean).join(" ");
}

/** The texts of the terms an event names that have one (a card's "<key>.text"), joined. */
export function eventHint(event) {
  const texts = [];
  const visit = (value) => {
    if (isTerm(value) && has(`${value.term}.text`)) texts.push(t(`${value.term}.text`));
    else if (isEvent(value)) Object.values(value.p || {}).forEach(visit);
  };
  visit(event);
  return texts.join("\n");
}

/** A <select> switching the language; `onChange` re-renders the page. */
export function languageSwitcher(onChange) {
  const select = el(
    "select",
    { class: "lang", "aria-label": t("app.language"), "data-testid": "language" },
    LANGUAGES.map((code) => el("option", { value: code, selected: code === lang }, NAMES[code])),
  );
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    onChange();
  });
  return select;
}
