// The turn notification (issue 17, item 10): the tab's title says when it is your turn;
// a short sound and a desktop notification too, if the player switched them on (a toggle of
// the page; the browser's permission is asked only when he clicks it).
import { el } from "./dom.js";
import { renderEvent, t } from "./i18n.js";

const STORAGE_KEY = "pendragon.turn_notice";
let wasMyTurn = null; // null until the first state: no notice for the turn the page opens on
let audio = null;

function enabled() {
  return localStorage.getItem(STORAGE_KEY) === "on";
}

function permission() {
  return typeof Notification === "function" ? Notification.permission : "denied";
}

/** A short two-note chime (Web Audio: no sound file to fetch). */
function chime() {
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.16);
      tone.stop(start + i * 0.16 + 0.32);
    });
  } catch (error) {
    // No audio here (or not allowed yet): the title still tells.
  }
}

function notify(what) {
  document.body.dataset.turnNotices = String(Number(document.body.dataset.turnNotices || 0) + 1);
  chime();
  if (permission() === "granted" && (document.hidden || !document.hasFocus())) {
    try {
      const note = new Notification(t("app.title"), { body: t("table.notify_body", { what }), tag: "pendragon-turn" });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch (error) {
      // Some browsers allow notifications only from a service worker: the sound stays.
    }
  }
}

/** The toggle "Sound and notification on my turn", for a seat's page. */
export function noticeToggle() {
  const box = el("input", { type: "checkbox", id: "turn-notice", "data-testid": "turn-notice", checked: enabled() });
  const blocked = enabled() && permission() === "denied";
  box.addEventListener("change", async () => {
    localStorage.setItem(STORAGE_KEY, box.checked ? "on" : "off");
    if (!box.checked) return;
    // Both need the player's gesture: this click.
    try {
      audio = audio || new AudioContext();
      await audio.resume();
    } catch (error) {
      audio = null;
    }
    if (typeof Notification === "function" && Notification.permission === "default") {
      await Notification.requestPermission();
    }
    const note = box.closest(".turn-notice")?.querySelector(".notice-blocked");
    if (note) note.hidden = permission() !== "denied";
  });
  return el("div", { class: "turn-notice" }, box, " ", el("label", { for: "turn-notice" }, t("table.notify")),
    el("small", { class: "muted notice-blocked", hidden: !blocked }, " ", t("table.notify_blocked")));
}

/** After each render: the tab's title on your turn, and the notice when it has just come. */
export function turnNotice(view, ctx) {
  const message = view.message;
  const myTurn = Boolean(view.connection === "online" && message && message.legal.length && !message.finished);
  if (myTurn) document.title = t("table.title_your_turn", { title: document.title });
  if (myTurn && wasMyTurn === false && enabled()) notify(renderEvent(message.decision, ctx.events));
  if (message) wasMyTurn = myTurn;
}
