// The table page: one seat's (or a spectator's) live view over a WebSocket.
// Game-agnostic: the board and the private panel come from the game's module
// /games/<game>/board.js; the log, the action buttons and what the table awaits are events
// from the server, worded by i18n.js.
import { $, el, fetchJson, fill } from "./dom.js";
import { eventHint, initI18n, lang, languageSwitcher, renderEvent, renderEvents, t } from "./i18n.js";
import { holdsAnotherSeat, heldTokens, invitationLinks, inviteButton, mayJoin, mayTake, rememberSeat, roleText } from "./seats.js";
import { afterRender } from "./table_extras.js";
import { numberChoice, splitNumbered } from "./choices.js";
import { compactLog } from "./log.js";
import { phoneTab, phoneTabs, tapToRead } from "./phone.js";
import { paceControl } from "./pace.js";
import { hintBox, hintedAction, hintKey, hintsSetting } from "./hint.js";
import { onScreenWidthChange, reconnectDelay, seatBaseName, seatColor } from "./common.js";
import { pressed, unpressed } from "./press.js";

const token = decodeURIComponent(location.hash.slice(1));
// Fields whose caret is put back at the end of the text after a redraw.
const TEXT_FIELDS = new Set(["text", "search", "url", "tel", "password"]);
const view = {
  info: null, // welcome.table
  seats: [],
  message: null, // last "state" message
  log: [],
  chat: [],
  connection: "connecting",
  pending: false,
  notice: null, // {kind: "error"|"info", text}
  fatal: null,
};
let game = null; // the game module
let socket = null;
let retry = 0;
let reconnection = null; // the timer of the next try after a drop, while one waits
let takingSeat = null; // seat number whose "take" form is open
let leaving = false; // the owner asked to give his seat up: confirm first
let confirming = null; // the id of an irreversible move clicked, awaiting "Yes" (issue 39, item 9)
// What the person is typing, by field (its data-testid): every state, chat line or seat
// change re-renders the page and rebuilds its forms, which must not lose a half-typed name
// or message. A field's draft is dropped once it is sent.
const drafts = new Map();

/** A text field that keeps its draft across re-renders (`initial` until typed in). */
function draftField(testid, attrs, initial = "") {
  const input = el("input", { type: "text", ...attrs, value: drafts.has(testid) ? drafts.get(testid) : initial, "data-testid": testid });
  input.addEventListener("input", () => drafts.set(testid, input.value));
  return input;
}

function me() {
  return view.info ? view.info.seat : null;
}

function seatInfo(seat) {
  return view.seats.find((s) => s.seat === seat) || null;
}

/** How a seat is named in the interface: "you", its player's name, or "Seat N". */
function seatName(seat, { plain = false } = {}) {
  if (seat === null || seat === undefined) return t("table.nobody");
  if (!plain && seat === me()) return t("table.you");
  return seatBaseName(seatInfo(seat), seat, game, view.message ? view.message.observation : null);
}

function context() {
  const ctx = {
    t,
    me: me(),
    seatName,
    seatColor,
    seats: view.seats,
    obs: view.message ? view.message.observation : null,
    finished: view.message ? view.message.finished : false,
  };
  // How events name a seat: the game may add to the page's name (a knight, a colour).
  const label = (seat) => (game && game.seatLabel ? game.seatLabel(seat, ctx.obs, ctx) : seatName(seat));
  // The wording's key (the log keeps each line's words while it holds): every seat's label
  // is computed here, so a name or a label the game draws from the observation counts.
  const key = JSON.stringify([lang, ctx.me, (view.seats || []).map((_, seat) => label(seat))]);
  ctx.events = { me: ctx.me, seatName: label, key };
  return ctx;
}

/** What the table awaits, in words: whose move and which decision (or the result). */
function waitingText(message, ctx) {
  if (message.finished) return resultText(message, ctx);
  if (message.started === false) return t("table.not_started"); // issue 27, item 5
  const what = renderEvent(message.decision, ctx.events);
  if (message.to_act === null || message.to_act === undefined) return capitalized(what);
  return t("table.waiting", { who: ctx.events.seatName(message.to_act), what });
}

/** What the end means for the page's own seat, before the full result (issue 39, item 7):
 * "You won as the traitor", "Your side lost", and why the game ended. The game's `verdict`
 * says whether the seat won and as what ({won, as: "side"|"traitor"|"alone", reason}). */
function verdictLines(message, ctx) {
  if (me() === null || !game.verdict) return [];
  const verdict = game.verdict(message.observation, ctx);
  if (!verdict) return [];
  const key = `table.verdict.${verdict.as || "alone"}-${verdict.won ? "won" : "lost"}`;
  return [
    el("p", { class: `verdict ${verdict.won ? "won" : "lost"}`, "data-testid": "verdict", "data-won": String(verdict.won) }, t(key)),
    verdict.reason ? el("p", { class: "verdict-reason", "data-testid": "verdict-reason" }, t("table.verdict.why", { reason: verdict.reason })) : null,
  ];
}

/** A sentence that stands alone begins with a capital (issue 39, item 13): a decision's
 * words are written to follow "Your turn:" and begin in lower case. */
function capitalized(text) {
  return text ? text.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + text.slice(1) : text;
}

function resultText(message, ctx) {
  if (game.resultText) return game.resultText(message.observation, ctx);
  return t("table.game_over", { returns: (message.returns || []).join(" / ") });
}

// ------------------------------------------------------------------ connection
function connect() {
  clearTimeout(reconnection);
  reconnection = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  view.connection = retry ? "reconnecting" : "connecting";
  socket.addEventListener("open", () => {
    // Back after a drop: only what came since is sent again (the welcome says if it was).
    const hello = view.info ? { type: "hello", token, held: holding() } : { type: "hello", token };
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    view.connection = "offline";
    view.pending = false;
    if (event.code === 4401 || event.code === 4409 || view.fatal) {
      view.fatal = view.fatal || t("error.unauthorized");
      render();
      return;
    }
    render();
    retry = Math.min(retry + 1, 5);
    reconnection = setTimeout(connect, reconnectDelay(retry));
  });
}

// The browser is back on the network (a phone out of a tunnel): try again now, not at the
// end of a backoff of up to 8 s.
window.addEventListener("online", () => {
  if (reconnection !== null) connect();
});

/** What this page holds of the table: its log's action lines and announcements, and
 * its last chat line's id (a reconnection's hello, docs/web.md "WebSocket"). */
function holding() {
  const notices = view.log.filter((line) => line.notice).length;
  const last = view.chat.length ? view.chat[view.chat.length - 1].id : null;
  return { log: view.log.length - notices, notices, chat: last };
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    view.notice = { kind: "error", text: t("table.not_connected") };
    render();
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

async function receive(message) {
  switch (message.type) {
    case "welcome":
      view.info = message.table;
      view.seats = message.table.seats;
      // This browser holds this seat: it may take no other at this table (one person,
      // one seat in a game); an invitation page sends the list with its request.
      if (message.table.role === "seat") rememberSeat(message.table.id, token);
      if (message.table.role === "invited" && message.table.invitation && message.table.invitation.seat !== null) {
        takingSeat = message.table.invitation.seat;
      }
      if (!message.resumed) {
        view.log = [];
        view.chat = [];
      }
      view.connection = "online";
      retry = 0;
      if (!game) game = await import(`/games/${encodeURIComponent(message.table.game)}/board.js`);
      break;
    case "state":
      view.message = message;
      view.log.push(...message.log);
      view.pending = false;
      break;
    case "seats":
      view.seats = message.seats;
      break;
    case "chat":
      view.chat.push(...message.lines);
      view.chat = view.chat.slice(-200);
      break;
    case "error":
      view.pending = false;
      if (["seat_lost", "seat_left", "unauthorized", "table_unplayable"].includes(message.code)) view.fatal = t(`error.${message.code}`, {}, message.message);
      view.notice = { kind: "error", text: errorText(message.code, message.message) };
      break;
    default:
      return;
  }
  if (game) renderSoon();
}

function errorText(code, message) {
  const known = t(`error.${code}`, {}, "");
  return known || message || code;
}

// ------------------------------------------------------------------ actions
function play(action) {
  if (view.pending || !view.message) return;
  // A move that cannot be taken back (an accusation) asks first (issue 39, item 9).
  if (confirming !== action.id && game.irreversible && game.irreversible(action.text, view.message.observation)) {
    confirming = action.id;
    render();
    return;
  }
  confirming = null;
  view.notice = null;
  if (send({ type: "move", version: view.message.version, action: action.id })) {
    view.pending = true;
    render();
  }
}

// The actions panel is rebuilt only when what it shows changes, so a button keeps its
// identity (and the pointer on it) while other parts of the page update.
let actionsCache = { key: null, node: null };

function actionsPanel() {
  const key = JSON.stringify([view.message.version, view.message.legal, view.pending, view.notice,
    view.message.finished, view.message.started, document.documentElement.lang, view.seats.map((s) => [s.controller, s.name]),
    view.message.hints, hintKey(), confirming]);
  if (actionsCache.key === key && actionsCache.node) return actionsCache.node;
  actionsCache = { key, node: buildActionsPanel() };
  return actionsCache.node;
}

/** The actions panel's heading: "Your move" only on the page of the seat to act; elsewhere
 * (another seat's turn, a spectator's or the host's page) whose move it is (issue 27, item 9). */
function actionsHeading(message, ctx) {
  if (!message.finished && message.legal.length) return t("table.actions");
  if (message.finished) return t("table.moves_over");
  if (message.started === false) return t("table.not_started");
  if (message.to_act === null || message.to_act === undefined) return t("table.moves");
  return t("table.moves_of", { who: ctx.events.seatName(message.to_act) });
}

/** Whether the page's own seat is out of the game (the game's `seatOut`: a dead knight). */
function myOutText(ctx) {
  if (me() === null || !game || !game.seatOut || !view.message) return "";
  return game.seatOut(me(), view.message.observation, ctx) || "";
}

/** A copy of the table's elements shown elsewhere (a decision's context) without the marks
 * that name an element (`data-testid`, `data-seat`): those stay the table's alone. */
function unmarked(node) {
  for (const marked of [node, ...node.querySelectorAll("[data-testid], [data-seat]")]) {
    marked.removeAttribute("data-testid");
    marked.removeAttribute("data-seat");
  }
  return node;
}

function buildActionsPanel() {
  const message = view.message;
  const ctx = context();
  const children = [el("h2", { "data-testid": "actions-heading" }, actionsHeading(message, ctx))];
  if (view.notice) children.push(el("p", { class: `notice ${view.notice.kind}`, role: "alert", "data-testid": "notice" }, view.notice.text));
  const out = message.finished ? "" : myOutText(ctx);
  if (out) children.push(el("p", { class: "notice info seat-out", role: "status", "data-testid": "seat-out" }, out));
  if (message.finished) {
    children.push(...verdictLines(message, ctx)); // what the end means for you (issue 39, item 7)
    children.push(el("p", { class: "result", "data-testid": "result" }, resultText(message, ctx)));
    children.push(el("a", { class: "button primary", href: `/replay#${token}`, "data-testid": "replay-link" }, t("table.replay")));
  } else if (message.legal.length) {
    children.push(el("p", { class: "prompt", "data-testid": "prompt" }, capitalized(renderEvent(message.decision, ctx.events))));
    // What the decision is about, where a phone's "Play" tab hides it (the game's
    // `decisionContext`: Sir Bors asked to be dealt in sees the cards).
    const about = game.decisionContext ? game.decisionContext(message.observation, ctx) : [];
    if (about.length) children.push(el("div", { class: "decision-context", "data-testid": "decision-context" }, about.map(unmarked)));
    children.push(hintBox(view, token, ctx, later, errorText)); // issue 31, item 2
    const hinted = hintedAction(view);
    const groups = new Map();
    for (const action of message.legal) {
      const group = game.actionGroup ? game.actionGroup(action.text, message.observation, ctx) : "";
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push(action);
    }
    const makeButton = (action) => {
      const button = el("button", {
        type: "button",
        class: action.id === hinted ? "action hinted" : "action",
        disabled: view.pending,
        title: eventHint(action.label) || undefined,
        "data-testid": "action",
        "data-action": action.text,
      }, renderEvent(action.label, ctx.events) || action.text);
      button.addEventListener("click", () => play(action));
      return button;
    };
    const asked = message.legal.find((action) => action.id === confirming);
    if (asked) children.push(confirmBox(asked, ctx));
    for (const [group, actions] of groups) {
      // Many numbered choices ("Say 1" ... "Say 63") become one number field (issue 27, item 6).
      const { numbered, rest } = splitNumbered(actions);
      const compact = numbered.map((run) => numberChoice(run, { ctx, disabled: view.pending, makeButton, play }));
      children.push(el("div", { class: "action-group" }, group ? el("h3", {}, group) : null, compact, rest.map(makeButton)));
    }
  } else {
    const mine = me() !== null && seatInfo(me()) && seatInfo(me()).controller === "bot";
    // Before the game begins the heading and the waiting notice say it all (not thrice).
    if (mine || message.started !== false) {
      children.push(el("p", { class: "waiting" }, mine ? t("table.bot_plays_you") : waitingText(message, ctx)));
    }
  }
  return el("section", { class: "panel actions", "data-testid": "actions" }, children);
}

/** "Accuse Sir Kay? It cannot be taken back." with Yes and No (issue 39, item 9). */
function confirmBox(action, ctx) {
  const yes = el("button", { type: "button", class: "primary small", "data-testid": "confirm-yes" }, t("table.confirm_yes"));
  yes.addEventListener("click", () => play(action));
  const no = el("button", { type: "button", class: "small", "data-testid": "confirm-no" }, t("table.confirm_no"));
  no.addEventListener("click", () => {
    confirming = null;
    render();
  });
  return el("div", { class: "confirm-box notice", role: "alertdialog", "data-testid": "confirm-box" },
    el("p", {}, t("table.confirm", { move: renderEvent(action.label, ctx.events) || action.text })), yes, " ", no);
}

// ------------------------------------------------------------------ seats
function seatsPanel() {
  const ctx = context();
  const finished = view.message && view.message.finished;
  const rows = view.seats.map((seat) => {
    const bot = t(`bot.${seat.bot}`, {}, seat.bot || "");
    // A bot keeping an owned seat warm says so: the seat is still its player's.
    const status = seat.controller === "bot"
      ? (seat.owned ? t("table.status_kept", { bot }) : t("table.status_bot", { bot }))
      : seat.connected ? t("table.status_online") : seat.away ? t("table.status_away") : t("table.status_offline");
    const buttons = [];
    // A seat out of the game (a dead knight) has nothing left to hand over (issue 27, item 8).
    const out = game.seatOut ? Boolean(game.seatOut(seat.seat, view.message.observation, ctx)) : false;
    if (!finished && !out) {
      if (me() !== null && seat.seat !== me() && seat.controller === "human" && seat.away) {
        buttons.push(seatButton(t("table.give_to_bot"), () => send({ type: "seat_to_bot", seat: seat.seat }), `give-bot-${seat.seat}`));
      }
      if (seat.seat === me() && seat.controller === "human") {
        buttons.push(seatButton(t("table.let_bot_play_me"), () => send({ type: "seat_to_bot", seat: seat.seat }), `give-bot-${seat.seat}`));
      }
      if (seat.seat === me() && seat.controller === "bot") {
        buttons.push(seatButton(t("table.reclaim"), () => send({ type: "reclaim" }), "reclaim"));
      }
      if (seat.seat === me()) {
        buttons.push(seatButton(t("table.leave"), () => {
          leaving = true;
          render();
        }, "leave"));
      }
      if (view.info.role === "host" && seat.free) {
        buttons.push(inviteButton(token, seat.seat, later, showError));
      }
      if (mayTake(view.info, seat)) {
        buttons.push(seatButton(t("table.take_seat"), () => {
          takingSeat = seat.seat;
          render();
        }, `take-${seat.seat}`));
      }
    }
    const row = el("li", { class: `seat ${seat.seat === me() ? "mine" : ""}`, "data-testid": `seat-${seat.seat}` },
      el("span", { class: "dot", "data-color": seatColor(seat.seat) }),
      el("span", { class: "seat-label" }, t("table.seat_n", { n: seat.seat + 1 })),
      el("span", { class: "seat-name" }, seat.name || (seat.controller === "bot" ? seatName(seat.seat, { plain: true }) : "—")),
      game.seatBadge ? game.seatBadge(seat.seat, view.message.observation, ctx) : null,
      el("span", { class: `seat-status ${seat.connected ? "on" : "off"}` }, status),
      buttons);
    return row;
  });
  const extra = [];
  if (leaving && me() !== null && !finished) extra.push(leaveForm());
  if (takingSeat !== null && me() === null && !finished) extra.push(takeSeatForm(takingSeat));
  if (mayJoin(view.info) && !finished && view.message && view.message.can_join) extra.push(joinForm());
  if (view.info.role === "host" && view.info.join_mid_game && !finished) extra.push(inviteButton(token, null, later, showError));
  if (view.info.role === "host") extra.push(...invitationLinks());
  extra.push(paceControl(view, token, showError, later)); // the bots' pace (issue 27, item 9)
  extra.push(hintsSetting(view, token, showError, later)); // hints allowed? (issue 31, item 2)
  if (me() !== null && !finished) extra.push(renameForm());
  return el("section", { class: "panel seats" }, el("h2", {}, t("table.seats")), el("ul", {}, rows), extra);
}

function seatButton(label, handler, testid) {
  const button = el("button", { type: "button", class: "small", "data-testid": testid }, label);
  button.addEventListener("click", handler);
  return button;
}

function showError(error) {
  view.notice = { kind: "error", text: errorText(error.code, error.message) };
}

function leaveForm() {
  const yes = el("button", { type: "button", class: "small", "data-testid": "leave-confirm" }, t("table.leave_yes"));
  yes.addEventListener("click", async () => {
    leaving = false;
    try {
      await fetchJson("/api/table/leave", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({}), // no bot named: the game's table bot (the server's rule)
      });
    } catch (error) {
      showError(error);
    }
    render();
  });
  const no = el("button", { type: "button", class: "small" }, t("table.leave_no"));
  no.addEventListener("click", () => {
    leaving = false;
    render();
  });
  return el("div", { class: "leave-box", role: "alert" }, el("p", {}, t("table.leave_confirm")), yes, no);
}

function takeSeatForm(seat) {
  // One person, one seat: a browser that plays (or played) a seat here takes no other.
  if (holdsAnotherSeat(view.info.id, token)) {
    return el("p", { class: "notice error", role: "alert", "data-testid": "one-seat-only" }, t("table.one_seat_only"));
  }
  const name = draftField("take-name", { maxlength: 40, placeholder: t("lobby.name"), "aria-label": t("lobby.name") });
  const submit = el("button", { type: "submit", class: "small primary", "data-testid": "take-confirm" }, t("table.take_seat_n", { n: seat + 1 }));
  const form = el("form", { class: "inline" }, name, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await claimSeat(`/api/table/seats/${seat}/take`, name.value))) {
      takingSeat = null;
      render();
    }
  });
  return form;
}

// Take a seat (a bot's, or a new one) under `name`: on success the page moves to the seat's
// private link; on failure the error becomes the notice and false is returned.
async function claimSeat(url, name) {
  try {
    const answer = await fetchJson(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, held: heldTokens(view.info.id) }),
    });
    location.replace(answer.link);
    location.reload();
    return true;
  } catch (error) {
    view.notice = { kind: "error", text: errorText(error.code, error.message) };
    return false;
  }
}

function joinForm() {
  const name = draftField("join-name", { maxlength: 40, placeholder: t("lobby.name"), "aria-label": t("lobby.name") });
  const submit = el("button", { type: "submit", class: "small primary", "data-testid": "join-confirm" }, t("table.join_new"));
  const form = el("form", { class: "inline" }, name, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await claimSeat("/api/table/join", name.value))) render();
  });
  if (holdsAnotherSeat(view.info.id, token)) {
    return el("p", { class: "notice error", role: "alert", "data-testid": "one-seat-only" }, t("table.one_seat_only"));
  }
  return el("div", { class: "join-box" }, el("p", { class: "muted" }, t("table.join_help")), form);
}

function renameForm() {
  const current = seatInfo(me());
  const name = draftField("rename", { maxlength: 40, "aria-label": t("table.your_name") }, current ? current.name : "");
  const submit = el("button", { type: "submit", class: "small" }, t("table.rename"));
  const form = el("form", { class: "inline" }, el("label", {}, t("table.your_name")), name, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (send({ type: "name", name: name.value })) drafts.delete("rename");
  });
  return form;
}

// ------------------------------------------------------------------ log and chat
/** The last move, on the board itself (issue 27, item 9): bots may move every 0.4 s, too
 * quick to follow in the log; this line says what just happened where the eyes are. */
function lastMoveLine(ctx) {
  const last = [...view.log].reverse().find((entry) => !entry.notice && entry.events && entry.events.length);
  if (!last) return null;
  const what = renderEvents(last.events, ctx.events);
  return el("p", { class: `last-move ${last.s === null ? "chance" : ""}`, "data-testid": "last-move", "data-i": last.i,
    "data-color": last.s === null ? "none" : seatColor(last.s), "aria-live": "polite" }, t("table.last_move", { what }));
}

function logPanel() {
  const ctx = context();
  const lines = compactLog(view.log.slice(-400), ctx.events, game);
  const list = el("ol", { class: "log", "data-testid": "log" }, lines);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  return el("section", { class: "panel log-panel" }, el("h2", {}, t("table.log")), list);
}

function chatPanel() {
  const lines = view.chat.map((line) =>
    el("li", { class: "chat-line" },
      el("span", { class: "chat-name", "data-color": line.seat === null ? "none" : seatColor(line.seat) },
        (line.name || t("table.seat_n", { n: (line.seat ?? 0) + 1 })) + ":"),
      " ",
      el("span", { class: "chat-text" }, line.text)));
  const list = el("ol", { class: "chat", "data-testid": "chat" }, lines);
  requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  const open = !view.message || view.message.chat_open;
  let form;
  if (me() === null) {
    form = el("p", { class: "muted" }, t("table.chat_spectator"));
  } else if (!open) {
    // The game may say why (an event of its catalog, e.g. a rule that forbids talking).
    const reason = view.message.chat_closed_reason;
    form = el("p", { class: "muted", "data-testid": "chat-closed" }, reason
      ? t("table.chat_closed_because", { reason: renderEvent(reason, context().events) })
      : t("table.chat_closed"));
  } else {
    const input = draftField("chat-input", { maxlength: 500, placeholder: t("table.chat_placeholder"),
      "aria-label": t("table.chat") });
    form = el("form", { class: "inline chat-form" }, input,
      el("button", { type: "submit", class: "small", "data-testid": "chat-send" }, t("table.send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && send({ type: "chat", text })) {
        drafts.delete("chat-input");
        input.value = "";
      }
    });
  }
  return el("section", { class: "panel chat-panel" }, el("h2", {}, t("table.chat")), list, form);
}

// ------------------------------------------------------------------ page
function header() {
  const ctx = context();
  const message = view.message;
  let status = t(`table.connection_${view.connection}`);
  // Without a live connection a move cannot be sent: say so rather than "Your turn".
  const live = view.connection === "online";
  const myTurn = Boolean(live && message && message.legal.length && !message.finished);
  if (message && (live || message.finished)) {
    status = myTurn
      ? t("table.your_turn", { what: renderEvent(message.decision, ctx.events) })
      : waitingText(message, ctx);
  }
  const role = roleText(view.info);
  return el("header", { class: "top" },
    el("a", { href: "/", class: "home" }, t("app.title")),
    el("span", { class: "game-name" }, t(`game.${view.info.game}`, {}, view.info.game)),
    // The game's rules, a tap away (issue 39, item 12).
    el("a", { class: "rules-link", href: `/rules/${encodeURIComponent(view.info.game)}?lang=${document.documentElement.lang || "en"}`,
      target: "_blank", rel: "noopener", "data-testid": "rules-link" }, t("table.rules")),
    el("span", { class: "role", "data-testid": "role" }, role),
    el("span", { class: `status ${myTurn ? "your-turn" : ""}`, "data-testid": "status", title: status }, status),
    el("div", { class: "spacer" }),
    el("span", { class: `connection ${view.connection}`, "data-testid": "connection" }, t(`table.connection_${view.connection}`)),
    languageSwitcher(render));
}

// ------------------------------------------------------------------ drawing
// What the server pushes is drawn at most about once an animation frame: a push into a quiet
// page is drawn at once, and the pushes that follow it before the next frame become one
// redraw on that frame, of the newest view (`renderSoon`). Bots playing fast and a room of
// spectators push messages far quicker than a screen shows them; drawing the whole table for
// each one only kept the browser busy. A hidden tab gets no animation frames (and its timers
// are slowed to a second): there the redraw comes once the messages already queued are
// handled, so the tab's title and the turn notice come at once. What the person does (a
// click, a tab, a form) is drawn at once (`render`), which also draws any push still waiting.
// A push never replaces the page under a press (`press.js`): while a button or a finger is
// down, its redraw waits for the release and the click it makes.
const RENDER_MARK = "pendragon:render";
let drawn = 0; // redraws so far
let asked = 0; // redraws asked for so far
let frame = null; // the pending animation frame of a waiting redraw, or null
let fallback = null; // the timer that draws if the tab is hidden before its frame, or null
let queued = false; // a hidden tab's redraw is queued behind the messages that arrived
let busy = false; // the page was drawn since the last frame: the next pushes wait for one
let held = false; // a push's redraw waits for the end of a press
const behind = new MessageChannel(); // a task queued behind them (never slowed, unlike timers)
behind.port1.onmessage = () => {
  if (queued) flushPush();
};

/** Draw a push: at once into a quiet page, else on the next animation frame (once, however
 * often it is asked before); after the release if a press is under way. */
function renderSoon() {
  asked += 1;
  mark();
  if (frame !== null || fallback !== null || queued || held) return;
  if (pressed()) {
    hold();
    return;
  }
  if (!busy) {
    flush();
    return;
  }
  if (document.hidden) {
    queued = true;
    behind.port2.postMessage(null);
    return;
  }
  frame = requestAnimationFrame(flushPush);
  // Frames stop if the tab is hidden meanwhile: then this timer draws.
  fallback = setTimeout(flushPush, 100);
}

/** A waiting push's redraw, now, unless a press has begun since it was asked for. */
function flushPush() {
  if (pressed()) hold();
  else flush();
}

/** Forget the frame, the timer and the queued task a waiting redraw was set to come by. */
function unschedule() {
  if (frame !== null) cancelAnimationFrame(frame);
  if (fallback !== null) clearTimeout(fallback);
  frame = null;
  fallback = null;
  queued = false;
}

/** Draw the waiting push after the press under way (instead of on a frame or a timer). */
function hold() {
  unschedule();
  held = true;
  unpressed(drawHeld);
}

function drawHeld() {
  if (held) flush(); // unless the person's own action drew it meanwhile
}

/** Redraw now (the person's own action), instead of any redraw waiting for a frame. */
function render() {
  asked += 1;
  flush();
}

/** Redraw for what an action brought back later (a hint, a setting saved, a rematch's
 * state): now, or after a press under way. */
function later() {
  unpressed(render);
}

/** The page is quiet again at the next frame (or, with no frames, a moment later). */
function quietSoon() {
  busy = true;
  const mine = drawn; // an older redraw's "quiet" comes too early for this one
  const quiet = () => {
    if (mine === drawn) busy = false;
  };
  requestAnimationFrame(quiet);
  setTimeout(quiet, 100);
}

function flush() {
  unschedule();
  held = false;
  draw();
  drawn += 1;
  quietSoon();
  mark();
}

/** How often the page was drawn, for the browser's profiler (and the browser tests): a User
 * Timing mark, replaced at each redraw and each push, saying how many redraws were asked for
 * and made and which state the page now shows. */
function mark() {
  if (typeof performance !== "undefined" && performance.mark) {
    performance.clearMarks(RENDER_MARK);
    performance.mark(RENDER_MARK, { detail: { drawn, asked, version: view.message ? view.message.version : null } });
  }
}

function draw() {
  const app = $("#app");
  if (view.fatal && !view.message) {
    fill(app, el("main", { class: "fatal" }, el("p", { class: "error" }, view.fatal), el("a", { href: "/" }, t("table.back_home"))));
    return;
  }
  if (!view.info || !view.message || !game) {
    fill(app, el("main", { class: "loading" }, el("p", {}, t(`table.connection_${view.connection}`))));
    return;
  }
  const ctx = context();
  const obs = view.message.observation;
  const scrollY = window.scrollY;
  const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
  const onTable = game.drawTable ? game.drawTable(obs, ctx) : null;
  if (onTable && onTable.classList) onTable.classList.add("on-table-extra"); // the phone's "Table" tab
  const yourTurn = Boolean(view.message.legal.length && !view.message.finished);
  fill(app,
    header(),
    view.fatal ? el("p", { class: "banner error" }, view.fatal) : null,
    // A phone's tabs (issue 39, item 11); the Table tab is marked when a gone player's seat
    // may be handed to a bot (its button is there).
    phoneTabs(render, { yourTurn, seatsToHandOver: me() !== null && !view.message.finished
      && view.seats.some((seat) => seat.seat !== me() && seat.controller === "human" && seat.away) }),
    el("main", { class: "table", "data-tab": phoneTab() },
      el("div", { class: "board-column" },
        el("section", { class: "panel board", "data-testid": "board" }, lastMoveLine(ctx), game.drawBoard(obs, ctx)),
        onTable,
        game.drawPrivate ? game.drawPrivate(obs, ctx) : null),
      // Alone at the table there is nobody to talk to: no chat (issue 27, item 9).
      el("div", { class: "side-column" }, actionsPanel(), seatsPanel(), logPanel(), view.info.players > 1 ? chatPanel() : null)));
  document.title = `${t(`game.${view.info.game}`, {}, view.info.game)} — ${t("app.title")}`;
  window.scrollTo(0, scrollY);
  afterRender(view, ctx, token, later); // turn notice, timer, rematch, animation (issue 17, item 10)
  if (active) {
    const again = document.querySelector(`[data-testid="${active}"]`);
    if (again && (again.tagName === "INPUT")) {
      again.focus();
      // Only a text field has a caret: a checkbox's or a number field's setSelectionRange
      // throws (issue 39, item 3).
      if (TEXT_FIELDS.has(again.type)) again.setSelectionRange(again.value.length, again.value.length);
    }
  }
}

async function main() {
  await initI18n();
  if (!token) {
    view.fatal = t("error.no_token");
    render();
    return;
  }
  render();
  connect();
  // Another table's link typed into this tab (only the #token changed): the page is that
  // table's, not the old one's (issue 39, item 4).
  window.addEventListener("hashchange", () => location.reload());
  // The board is drawn for the screen's width (a phone's layout): redraw when it changes.
  onScreenWidthChange(render);
  tapToRead(); // a card's text on a phone, by a tap (issue 39, item 11)
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 25000);
}

main();
