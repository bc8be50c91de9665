// The table's clocks without a page (static/js/clockmath.js, and seatclock.js's formatTime in
// every language): how a time is written, what a seat's clock shows as the server's time goes
// on, and how long until a bot stands in for a person away on their turn. Run by
// tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  secondsLeftAt,
  serverOffset,
  formatClock,
  isLow,
  LOW,
  awayDeadline,
  awaySecondsLeft,
} from "/static/js/clockmath.js";
import { format } from "/static/js/i18n.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const days = (d, h) => `${d} d ${h} h`;

test("a clock is written m:ss under an hour, h:mm:ss under a day, then in days and hours", () => {
  const cases = [
    [0, "0:00"],
    [9, "0:09"],
    [59.99, "0:59"], // fractions are cut: a clock never shows time it has not got
    [60, "1:00"],
    [245, "4:05"],
    [3599, "59:59"],
    [3600, "1:00:00"],
    [3723, "1:02:03"],
    [86399, "23:59:59"],
    [86400, "1 d 00 h"],
    [2 * 86400 + 3 * 3600 + 59, "2 d 03 h"],
    [7 * 86400 + 23 * 3600, "7 d 23 h"],
  ];
  for (const [seconds, shown] of cases) assert.equal(formatClock(seconds, days), shown, seconds);
});

test("a clock past its time shows 0:00, never a negative time", () => {
  assert.equal(formatClock(-1, days), "0:00");
  assert.equal(formatClock(-90000, days), "0:00");
});

test("the days are worded by the catalogue's clock.days in every language", () => {
  for (const lang of ["en", "de", "pl", "it"]) {
    const cat = JSON.parse(
      readFileSync(path.join(ROOT, `src/polis/server/static/i18n/${lang}.json`), "utf-8"),
    );
    const shown = formatClock(3 * 86400 + 5 * 3600, (d, h) =>
      format(cat["clock.days"], { d, h }, lang),
    );
    assert.match(shown, /3/, lang);
    assert.match(shown, /05/, lang);
    assert.doesNotMatch(shown, /[{}]/, lang);
  }
});

const CLOCK = { banks: [300, 120.5, 60], running: 1, started: 1000 };

test("only the running seat's clock goes down, from when its turn began", () => {
  assert.equal(secondsLeftAt(CLOCK, 0, 1000), 300);
  assert.equal(secondsLeftAt(CLOCK, 0, 1100), 300); // not running: its bank, however long
  assert.equal(secondsLeftAt(CLOCK, 1, 1000), 120.5);
  assert.equal(secondsLeftAt(CLOCK, 1, 1030), 90.5);
  assert.equal(secondsLeftAt(CLOCK, 1, 1200), -79.5); // past its time (the server decides)
  assert.equal(formatClock(secondsLeftAt(CLOCK, 1, 1200), days), "0:00");
});

test("a device ahead of the turn's start shows the whole bank, not more", () => {
  assert.equal(secondsLeftAt(CLOCK, 1, 990), 120.5);
});

test("no clock, no time", () => {
  assert.equal(secondsLeftAt(null, 0, 1000), null);
  assert.equal(secondsLeftAt(undefined, 0, 1000), null);
  assert.equal(isLow(null), false);
});

test("a clock is low under thirty seconds", () => {
  assert.equal(LOW, 30);
  assert.equal(isLow(29.9), true);
  assert.equal(isLow(0), true);
  assert.equal(isLow(30), false);
  assert.equal(isLow(secondsLeftAt(CLOCK, 1, 1000 + 91)), true);
  assert.equal(isLow(secondsLeftAt(CLOCK, 1, 1000 + 90)), false);
});

test("the server's time is followed whatever this device's clock says", () => {
  // the server says 5000 s while this device says 4990 s: it runs 10 s behind
  assert.equal(serverOffset(5000, 4990_000), 10);
  assert.equal(serverOffset(5000, 5010_000), -10);
  assert.equal(serverOffset(undefined, 5000_000), null); // a message without the time
  assert.equal(serverOffset("5000", 5000_000), null);
  // a turn that began at 4995 on the server has run 5 s, whatever this device's time
  const now = 4990 + serverOffset(5000, 4990_000);
  assert.equal(secondsLeftAt({ banks: [60], running: 0, started: 4995 }, 0, now), 55);
});

test("a bot stands in for a person away the away limit after they were seen to go", () => {
  const seen = 1_700_000_000_000;
  const deadline = awayDeadline(seen, 60);
  assert.equal(deadline, seen + 60_000);
  assert.equal(awaySecondsLeft(deadline, seen), 60);
  assert.equal(awaySecondsLeft(deadline, seen + 15_500), 44.5);
  assert.equal(formatClock(awaySecondsLeft(deadline, seen + 15_500), days), "0:44");
  assert.equal(awaySecondsLeft(deadline, deadline), 0);
  assert.equal(awaySecondsLeft(deadline, deadline + 5_000), 0); // never below zero
  assert.equal(formatClock(awaySecondsLeft(awayDeadline(seen, 3600), seen), days), "1:00:00");
});
