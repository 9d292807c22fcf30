// The log, compact (issue 39, item 10): what a player reads in it at a glance.
//  * A run of the same line (a bot drawing card after card), or of the same sentence within
//    a line, is one sentence with its count in words: "Sir Kay draws 6 white cards." (the
//    event's ".times" message, a plural by `count`), or, for an event without one, the
//    sentence once and "(6 times)" (`table.log.times`); a run of lines of the same kind whose words differ
//    (the cards one drew, named) is one line, "… and 5 more", the lines folded beneath it.
//  * A line of many sentences (the card game's end of a quest) shows its first, the rest
//    folded beneath it ("Details").
//  * A game may drop a sentence that only repeats another of the same line (its board
//    module's `compactEvents(events)`: "You: Lose 1 life. You lose 1 life." says it once).
// Each line keeps `data-i`, its last action's index (the replay's marks and the page's
// animation find lines by it).
import { el } from "./dom.js";
import { has, renderEvent, t } from "./i18n.js";

/** Sentences of a line before it is folded into its first and the rest. */
const LONG_LINE = 4;

/** `event` said `count` times, in words (issue 39, item 10): its ".times" message where
 * the game has one ("Sir Kay draws 6 white cards."), else the event and "(6 times)". */
function repeated(event, count, events) {
  const times = { k: `${event.k}.times`, p: { ...(event.p || {}), count } };
  if (has(times.k)) return renderEvent(times, events);
  const once = renderEvent(event, events);
  return once ? `${once} ${t("table.log.times", { count })}` : "";
}

/** The events a line shows: its board module's compaction (`compactEvents`). */
function keptEvents(entry, game) {
  return game && game.compactEvents ? game.compactEvents(entry.events || []) : entry.events || [];
}

/** A line's sentences, a run of the same event within it said once with its count. */
function sentences(kept, events) {
  const said = [];
  for (let i = 0; i < kept.length;) {
    const same = JSON.stringify(kept[i]);
    let j = i + 1;
    while (j < kept.length && JSON.stringify(kept[j]) === same) j += 1;
    said.push(j - i > 1 ? repeated(kept[i], j - i, events) : renderEvent(kept[i], events));
    i = j;
  }
  return said.filter(Boolean);
}

/** Each log line's kept events and sentences, with the wording they were made in (`events.key`:
 * the language, the reader's seat, every seat's name): a redraw words only the lines that came
 * since, or every line again once any of those changed. */
const worded = new WeakMap();

/** A line in the wording `events` (from `worded` when it holds it in that wording): its
 * entry, kept events, sentences, their text, its kind, and its runs' words by their count. */
function wordedLine(entry, events, game) {
  const known = events.key === undefined ? undefined : worded.get(entry);
  if (known && known.key === events.key) return known;
  const kept = keptEvents(entry, game);
  const parts = sentences(kept, events);
  const line = { key: events.key, entry, kept, parts, text: parts.join(" "), kind: kind(entry), times: new Map() };
  if (events.key !== undefined) worded.set(entry, line);
  return line;
}

/** A run of `count` lines like `line` (one event each), in words ("draws 6 white cards"). */
function repeatedLine(line, count, events) {
  if (!line.times.has(count)) line.times.set(count, repeated(line.kept[0], count, events));
  return line.times.get(count);
}

/** What makes two lines "of the same kind": their actor and their events' keys. */
function kind(entry) {
  return JSON.stringify([entry.s, (entry.events || []).map((event) => event.k)]);
}

function lineClass(entry) {
  return `log-line ${entry.s === null ? "chance" : ""}`;
}

function oneLine(entry, parts, extra = []) {
  if (parts.length >= LONG_LINE) {
    return el("li", { class: lineClass(entry), "data-i": entry.i },
      el("details", { class: "log-fold" },
        el("summary", {}, parts[0], " ", el("span", { class: "muted" }, t("table.log.details"))),
        el("p", { class: "log-more" }, parts.slice(1).join(" "))), extra);
  }
  return el("li", { class: lineClass(entry), "data-i": entry.i }, parts.join(" "), extra);
}

/** `entries` (log lines {i, s, events}) as list items, runs folded. `events`: the page's
 * way of wording events (its reader, its seats' names; with a `key` naming that wording, a
 * line's words are kept for the next redraw in the same one); `game`: the board module. */
export function compactLog(entries, events, game) {
  const items = [];
  let run = [];
  const flush = () => {
    if (!run.length) return;
    const last = run[run.length - 1];
    const texts = run.map((line) => line.text);
    if (run.length === 1) {
      items.push(oneLine(last.entry, last.parts));
    } else if (texts.every((text) => text === texts[0]) && last.kept.length === 1) {
      items.push(oneLine(last.entry, [repeatedLine(last, run.length, events)]));
    } else if (texts.every((text) => text === texts[0])) {
      items.push(oneLine(last.entry, last.parts,
        el("span", { class: "log-count", "data-testid": "log-count" }, ` ${t("table.log.times", { count: run.length })}`)));
    } else {
      items.push(el("li", { class: lineClass(last.entry), "data-i": last.entry.i, "data-testid": "log-run" },
        el("details", { class: "log-fold" },
          el("summary", {}, texts[0], " ", el("span", { class: "muted" }, t("table.log.more", { count: run.length - 1 }))),
          el("ul", { class: "log-more" }, texts.slice(1).map((text) => el("li", {}, text))))));
    }
    run = [];
  };
  for (const entry of entries) {
    const line = wordedLine(entry, events, game);
    if (!line.parts.length) continue;
    const same = run.length && run[0].kind === line.kind && line.parts.length < LONG_LINE
      && !entry.notice && !run[0].entry.notice;
    if (!same) flush();
    run.push(line);
  }
  flush();
  return items;
}
