// @ts-check
// The game's log: every event of the moves shown, worded by the game's client, the mover's
// note (a bot's move), and where a bot stood in for a person or they came back.
//
// It is appended to as moves come, not drawn anew: `render` draws it anew only when its props
// changed (a language switch, a replay's step, the names, the hot-seat cover: the log holds
// the seat's secrets too) or the log got shorter (a take-back), else appends the events and
// notes not drawn yet, and gives the events appended (the table reads them out).
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { authorNote, standInNote, standInRuns } from "../seatclock.js";
import { changed } from "./changed.js";
import { logRows } from "./logrows.js";

/** @typedef {import("../sdk.js").GameEvent} GameEvent */
/** @typedef {import("../seatclock.js").Seat} Seat */
/** @typedef {import("../seatclock.js").StandInNote} StandInNote */

/**
 * A change of hands this page saw: the log's length then, the note, why a bot stood in.
 * @typedef {{at: number, note: StandInNote, why: string | null}} LiveNote
 */

/**
 * @typedef {{lang: string, seat: number | null, replayAt: number | null, covered: boolean,
 *   names: string[]}} LogProps
 */

/**
 * The log's props: what draws it anew when changed (the names too: an open seat's events are
 * worded again once someone takes it).
 * @param {{lang: string, seat: number | null, replayAt: number | null, covered: boolean,
 *   names: string[]}} s
 * @returns {LogProps}
 */
export function logProps(s) {
  return { lang: s.lang, seat: s.seat, replayAt: s.replayAt, covered: s.covered, names: s.names };
}

/**
 * A row of the log to append: a change of hands seen live, a stand-in note worked out from
 * the moves' authors, or an event (`first`: it starts its move; `author`: the move's author).
 * @typedef {{kind: "live", live: LiveNote}
 *   | {kind: "note", note: StandInNote, why: string | null}
 *   | {kind: "event", event: GameEvent, first: boolean, author: string | null}} LogItem
 */

/**
 * The rows to append after the first `from` events: where a bot stood in for a person, and
 * where they came back, as this page saw it happen (`live`, those in `drawn` are drawn
 * already), else from the moves' authors (why known for the latest run only: `why`).
 * @param {{events: GameEvent[], from: number, authors: (string | null)[], seats: Seat[],
 *   why: Record<number, string>, live: LiveNote[], drawn: Set<LiveNote>}} s
 * @returns {LogItem[]}
 */
export function logItems(s) {
  const { events, live } = s;
  const runs = standInRuns(events, s.authors, s.seats);
  const drawn = new Set(s.drawn);
  /** @type {(seat: number, move: number) => string | null} */
  const why = (seat, move) => (runs.runStart[seat] === move ? (s.why[seat] ?? null) : null);
  /** @type {(note: StandInNote, move: number) => boolean} */
  const seenLive = (note, move) =>
    live.some(
      (l) =>
        l.note.seat === note.seat &&
        l.note.kind === note.kind &&
        l.at > (note.prev === undefined ? -1 : /** @type {number} */ (runs.first.get(note.prev))) &&
        l.at <= /** @type {number} */ (runs.first.get(move)),
    );
  /** @type {LogItem[]} */
  const out = [];
  const liveUpTo = (/** @type {number} */ i) => {
    for (const l of live) {
      if (l.at > i || drawn.has(l)) continue;
      drawn.add(l);
      out.push({ kind: "live", live: l });
    }
  };
  for (const { event, index, first } of logRows(events, s.from)) {
    liveUpTo(index);
    const move = /** @type {number} */ (event.move); // (a set-up event has no note)
    const note = first ? runs.notes.get(move) : null;
    if (note && !seenLive(note, move)) out.push({ kind: "note", note, why: why(note.seat, move) });
    out.push({
      kind: "event",
      event: /** @type {GameEvent} */ (event),
      first,
      author: first && event.move !== null ? (s.authors[event.move] ?? null) : null,
    });
  }
  liveUpTo(Infinity); // changes seen since the last event
  return out;
}

/**
 * @template {import("../sdk.js").TableContext} C
 * @param {{box: HTMLElement, list: HTMLElement}} el  the log's box and its list (ol#log)
 * @param {{mod: any, tg: import("../i18n.js").Translator}} env  the game's client and words
 */
export function logPanel(el, env) {
  const { mod, tg } = env;
  /** @type {{props: LogProps | null, count: number, live: Set<LiveNote>}} */
  let drawn = { props: null, count: 0, live: new Set() };
  return {
    /**
     * @param {LogProps} props
     * @param {C} ctx  the table's context: its log (up to the position shown), the last move
     * @param {{authors: (string | null)[], seats: Seat[], why: Record<number, string>,
     *   live: LiveNote[]}} more  the moves' authors, the seats, and the changes seen live
     * @returns {GameEvent[]} the events appended
     */
    render(props, ctx, more) {
      const events = ctx.log;
      /** @type {GameEvent[]} */
      let fresh = [];
      if (changed(drawn.props, props) || events.length < drawn.count || props.covered) {
        drawn = { props, count: 0, live: new Set() };
        clear(el.box).append(h("h3", { id: "log-title", text: t("log.title") }), el.list);
        el.list.setAttribute("aria-labelledby", "log-title");
        clear(el.list);
        el.list.dataset.position = String(ctx.position);
        if (props.covered) return []; // the log holds the seat's secrets too
      } else {
        fresh = events.slice(drawn.count);
      }
      const items = logItems({ events, from: drawn.count, drawn: drawn.live, ...more });
      for (const item of items) {
        if (item.kind === "live") {
          drawn.live.add(item.live);
          el.list.append(standInNote(item.live.note, props.names, item.live.why));
        } else if (item.kind === "note") {
          el.list.append(standInNote(item.note, props.names, item.why));
        } else {
          const { event, first } = item;
          const kind = mod.eventKind?.(event) ?? "";
          el.list.append(
            h(
              "li",
              {
                class: `${first ? "move-start" : ""} ${kind}`,
                dataset: { move: event.move ?? "setup", key: event.key },
              },
              [mod.describe(event, ctx, tg), first ? authorNote(item.author) : null],
            ),
          );
        }
      }
      drawn.count = events.length;
      el.list.dataset.position = String(ctx.position);
      for (const li of el.list.querySelectorAll("li.last")) li.classList.remove("last");
      if (ctx.lastMove !== null)
        for (const li of el.list.querySelectorAll(`li[data-move="${ctx.lastMove}"]`))
          li.classList.add("last");
      requestAnimationFrame(() => (el.list.scrollTop = el.list.scrollHeight));
      return fresh;
    },
    /** Draws it anew at the next render. */
    reset() {
      drawn.props = null;
    },
  };
}
