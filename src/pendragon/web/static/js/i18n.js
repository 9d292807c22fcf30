// Translations: /i18n/<lang>.json, flat key -> text with {placeholders}. English fills gaps.
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

/** The text of `key` with {placeholders} filled from `params`; `otherwise` (or the key) if missing. */
export function t(key, params = {}, otherwise = undefined) {
  let text = table[key] ?? fallback[key] ?? otherwise ?? key;
  return String(text).replace(/\{([a-z_]+)\}/g, (match, name) =>
    name in params && params[name] !== undefined && params[name] !== null ? String(params[name]) : match,
  );
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
