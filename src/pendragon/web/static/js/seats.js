// Who may sit where, on the table page (docs/web.md, "Seats that change hands"; issue 17,
// items 1-3): the links this browser holds at a table (its identity: one person, one seat
// in a game), the host's invitations, an invitation's "take this seat" and the owner's
// "give up my seat". The server decides; the page only offers what the link may do.
import { linkField } from "./common.js";
import { el, fetchJson } from "./dom.js";
import { t } from "./i18n.js";

const HELD_KEY = "pendragon.held.";

/** The seat links this browser opened at table `tableId` (kept in its storage). */
export function heldTokens(tableId) {
  try {
    const list = JSON.parse(localStorage.getItem(HELD_KEY + tableId) || "[]");
    return Array.isArray(list) ? list.filter((x) => typeof x === "string").slice(-8) : [];
  } catch (error) {
    return [];
  }
}

/** Remember that this browser holds the seat link `token` at table `tableId`. */
export function rememberSeat(tableId, token) {
  const held = heldTokens(tableId);
  if (held.includes(token)) return;
  held.push(token);
  try {
    localStorage.setItem(HELD_KEY + tableId, JSON.stringify(held.slice(-8)));
  } catch (error) {
    // Storage refused (a private window): the server still refuses a seat's own link.
  }
}

/** Whether this browser holds (or held) a seat at this table other than through `token`. */
export function holdsAnotherSeat(tableId, token) {
  return heldTokens(tableId).some((held) => held !== token);
}

/** The header's words for who the page's link is. */
export function roleText(info) {
  if (info.role === "seat") return t("table.playing_seat", { n: info.seat + 1 });
  if (info.role === "host") return t("table.hosting");
  if (info.role === "invited") {
    const seat = info.invitation ? info.invitation.seat : null;
    return seat === null || seat === undefined ? t("table.invited_join") : t("table.invited_seat", { n: seat + 1 });
  }
  return t("table.spectating");
}

/** Whether the page's link may seat someone at `seat` (a free seat): the host, or an
 * invitation to that very seat. */
export function mayTake(info, seat) {
  if (!seat.free) return false;
  if (info.role === "host") return true;
  return info.role === "invited" && info.invitation && info.invitation.seat === seat.seat;
}

/** Whether the page's link may join with a new seat (the host, or a join invitation). */
export function mayJoin(info) {
  if (info.role === "host") return true;
  return info.role === "invited" && info.invitation && info.invitation.seat === null;
}

function copyableLink(path, testid) {
  return el("div", { class: "invite-link" }, el("p", { class: "muted" }, t("table.invite_help")),
    ...linkField(path, testid));
}

const invitations = new Map(); // seat number (or "join") -> link shown to the host

/** The host's "invite" button for a free seat (or for joining, `seat` null); the link it
 * got is shown under the seat list until the page reloads. */
export function inviteButton(token, seat, onChange, onError) {
  const key = seat === null ? "join" : seat;
  const label = seat === null ? t("table.invite_join") : t("table.invite");
  const button = el("button", { type: "button", class: "small", "data-testid": seat === null ? "invite-join" : `invite-${seat}` }, label);
  button.addEventListener("click", async () => {
    try {
      const url = seat === null ? "/api/table/join/invite" : `/api/table/seats/${seat}/invite`;
      const answer = await fetchJson(url, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
      invitations.set(key, answer.link);
    } catch (error) {
      onError(error);
    }
    onChange();
  });
  return button;
}

/** The invitation links the host made on this page. */
export function invitationLinks() {
  return [...invitations.entries()].map(([key, link]) =>
    el("div", { class: "invitation" },
      el("span", {}, key === "join" ? t("table.invite_join") : t("table.seat_n", { n: key + 1 })),
      copyableLink(link, `invite-link-${key}`)));
}
