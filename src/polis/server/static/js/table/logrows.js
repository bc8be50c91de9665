// @ts-check
// The log's grouping, without the DOM: the events of one move form a group whose first row
// starts the move (it carries the mover's note and the stand-in notes before it); set-up
// events (move null) are a group of their own.

/** @typedef {{move: number | null, key: string, params?: Record<string, any>}} LogEvent */

/**
 * The rows to append for the events from `from` on, each with whether it starts its move.
 * @param {LogEvent[]} events the log shown (up to the position drawn)
 * @param {number} from how many of them are drawn already
 * @returns {{event: LogEvent, index: number, first: boolean}[]}
 */
export function logRows(events, from) {
  let previous = from > 0 ? events[from - 1]?.move : undefined;
  return events.slice(from).map((event, k) => {
    const first = event.move !== previous;
    previous = event.move;
    return { event, index: from + k, first };
  });
}
