// Small shared pieces of the pages.
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** A seat's colour name (styled in style.css and used as SVG fill). */
export const SEAT_COLORS = ["red", "blue", "green", "gold", "purple", "teal", "orange", "grey"];
export const SEAT_FILL = {
  red: "#b3261e", blue: "#1f5fae", green: "#2e7d32", gold: "#b8860b",
  purple: "#6a3d9a", teal: "#00796b", orange: "#d2691e", grey: "#616161",
};

export function seatColor(seat) {
  return SEAT_COLORS[((seat % SEAT_COLORS.length) + SEAT_COLORS.length) % SEAT_COLORS.length];
}

export function seatFill(seat) {
  return SEAT_FILL[seatColor(seat)];
}

/** How many bots' names the interface's catalog has (`bot.name.0` ...). */
const BOT_NAMES = 8;

/** A bot's name at the table (issue 39, item 8): the game's own (its knight in Shadows over
 * Camelot, its colour's knight in Grail Cup), else a knight of the Round Table by seat. */
export function botName(seat, game, obs) {
  const own = game && game.botName ? game.botName(seat, obs, { t }) : "";
  return own || t(`bot.name.${((seat % BOT_NAMES) + BOT_NAMES) % BOT_NAMES}`);
}

/** A seat's name: its player's, its bot's (`info.controller` "bot"), or "Seat N". */
export function seatBaseName(info, seat, game, obs) {
  if (info && info.name) return info.name;
  if (info && info.controller === "bot") return botName(seat, game, obs);
  return t("table.seat_n", { n: seat + 1 });
}

/** The pages' phone layout (style.css has the same width in its media queries): boards draw
 * a narrower picture under it, so their words stay readable without zooming. */
export const NARROW_SCREEN = "(max-width: 640px)";

export function isNarrowScreen() {
  return typeof matchMedia === "function" && matchMedia(NARROW_SCREEN).matches;
}

/** Call `redraw` when the page crosses the phone layout's width (a phone turned sideways). */
export function onScreenWidthChange(redraw) {
  if (typeof matchMedia === "function") matchMedia(NARROW_SCREEN).addEventListener("change", () => redraw());
}

/** The width in pixels of `content` drawn in the CSS `font` (a canvas measures it; without
 * one, an estimate from the font's size), for SVG layouts that must not overlap. */
export function textWidth(content, font) {
  const size = Number((/(\d+(?:\.\d+)?)px/.exec(font) || [0, 13])[1]);
  if (!textWidth.context && typeof document !== "undefined") {
    textWidth.context = document.createElement("canvas").getContext("2d");
  }
  const context = textWidth.context;
  if (!context) return String(content).length * size * 0.62;
  context.font = font;
  return context.measureText(String(content)).width;
}

/** The read-only field of a link's full address and its "copy" button (lobby, invitations). */
export function linkField(path, testid) {
  const url = new URL(path, location.href).href;
  const input = el("input", { type: "text", readonly: true, value: url, class: "link", "data-testid": testid });
  const copy = el("button", { type: "button", class: "small" }, t("lobby.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t("lobby.copied");
    } catch (error) {
      copy.textContent = t("lobby.copy_failed");
    }
  });
  return [input, copy];
}

/** The wait before the `tries`-th try to reconnect (1, 2, ...): a step of 0.5 s doubling to
 * 8 s at most, each wait drawn (`draw()` in [0, 1)) between half the step and the whole of
 * it, so that pages dropped together (a server restarting) do not all come back at once. */
export function reconnectDelay(tries, draw = Math.random) {
  const step = 500 * 2 ** (Math.min(Math.max(tries, 1), 5) - 1);
  return step / 2 + (draw() * step) / 2;
}
