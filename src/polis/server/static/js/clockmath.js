// @ts-check
// The arithmetic of the table's clocks, without the page: what a seat's clock shows at a given
// moment of the server's time, how a time is written, and how long until a bot stands in for a
// person away on their turn. seatclock.js draws with these; tests/js/clocks.test.mjs tests them.

/**
 * A table's clock as the server sends it: each seat's bank at the start of the turn (seconds),
 * the seat whose time runs (null: none) and when its turn began (server time, seconds).
 * @typedef {{banks: number[], running: number | null, started: number}} Clock
 */

/**
 * Seconds left on `seat`'s clock at server time `now` (null: no clock). Only the running seat's
 * bank goes down, from when its turn began; a clock read before that (a device a little ahead)
 * shows the whole bank.
 * @param {Clock | null | undefined} clock
 * @param {number} seat
 * @param {number} now  server time, seconds
 * @returns {number | null}
 */
export function secondsLeftAt(clock, seat, now) {
  if (!clock) return null;
  const bank = clock.banks[seat];
  return clock.running === seat ? bank - Math.max(0, now - clock.started) : bank;
}

/**
 * The server's time minus this device's (seconds), from the server's `now` and this device's
 * time in milliseconds; null when the server said no time.
 * @param {unknown} serverNow
 * @param {number} localMs
 * @returns {number | null}
 */
export function serverOffset(serverNow, localMs) {
  return typeof serverNow === "number" ? serverNow - localMs / 1000 : null;
}

/**
 * A time on a clock: "4:05", "1:02:03", and from a day on what `days(d, hh)` words ("2 d 03 h":
 * the days and the hours, two digits). Negative times show as 0:00; fractions are cut.
 * @param {number} seconds
 * @param {(days: number, hours: string) => string} days
 * @returns {string}
 */
export function formatClock(seconds, days) {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (s >= 86400) return days(Math.floor(s / 86400), pad(Math.floor((s % 86400) / 3600)));
  if (s >= 3600)
    return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** A running clock under this many seconds is drawn as low. */
export const LOW = 30;

/**
 * @param {number | null} left
 * @returns {boolean}
 */
export function isLow(left) {
  return left !== null && left < LOW;
}

/**
 * When a bot stands in for a person away on their turn (this device's time, milliseconds):
 * the away limit (seconds) after this page saw them go.
 * @param {number} sinceMs
 * @param {number} limitSeconds
 * @returns {number}
 */
export function awayDeadline(sinceMs, limitSeconds) {
  return sinceMs + limitSeconds * 1000;
}

/**
 * Seconds until an away deadline (milliseconds), never below 0.
 * @param {number} deadlineMs
 * @param {number} nowMs
 * @returns {number}
 */
export function awaySecondsLeft(deadlineMs, nowMs) {
  return Math.max(0, (deadlineMs - nowMs) / 1000);
}
