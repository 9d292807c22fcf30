// The board of a game whose plugin brings no board module: the seat's observation as a
// readable table (nested objects as nested tables, lists as comma-separated values).
// Served at /games/<game>/board.js; a game's own module exports the same functions.
import { el } from "/static/js/dom.js";

function isPlain(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function valueNode(value, depth) {
  if (isPlain(value)) return el("code", {}, value === null ? "—" : String(value));
  if (Array.isArray(value) && value.every(isPlain)) return el("code", {}, value.length ? value.map(String).join(", ") : "—");
  if (depth >= 4) return el("pre", {}, JSON.stringify(value, null, 1));
  return observationTable(Array.isArray(value) ? Object.fromEntries(value.map((v, i) => [i, v])) : value, depth + 1);
}

function observationTable(object, depth) {
  return el("table", { class: "observation" },
    el("tbody", {}, Object.entries(object).map(([key, value]) =>
      el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, valueNode(value, depth))))));
}

/** What the seat sees, as a table. */
export function drawBoard(obs, ctx) {
  return el("div", { class: "generic-board" },
    el("h2", {}, ctx.t("table.observation")),
    observationTable(obs || {}, 0));
}
