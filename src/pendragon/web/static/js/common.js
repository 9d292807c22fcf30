// Small shared pieces of the pages.

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
