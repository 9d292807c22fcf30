// What the table page adds after each render (issue 17, item 10): the turn notification and
// its toggle, the turn timer's countdown, the rematch, the wait before the game begins
// (issue 27, item 5), and the animation of what changed.
// table.js calls afterRender(view, ctx, token, render) at the end of every full render.
import { startBox } from "./game_start.js";
import { showChanges } from "./motion.js";
import { rematchBox } from "./rematch.js";
import { noticeToggle, turnNotice } from "./turn_notice.js";
import { showTimer } from "./turn_timer.js";

export function afterRender(view, ctx, token, rerender) {
  turnNotice(view, ctx);
  showTimer(view, ctx);
  rematchBox(view, token, rerender);
  startBox(view, ctx, token, rerender);
  const seats = document.querySelector("section.panel.seats");
  const playing = view.info && view.info.seat !== null && view.message && !view.message.finished;
  if (seats && playing && !seats.querySelector(".turn-notice")) {
    seats.append(noticeToggle());
  }
  showChanges(view);
}
