// "My games" without a page (static/js/mygames.js): a challenge's clock in words (the lobby's
// name for it when it is one of the lobby's, as the server keeps it), and a finished game's
// place from its ranking. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

const { setLanguage } = await import("/static/js/i18n.js");
const { clockName, placeOf } = await import("/static/js/mygames.js");
await setLanguage("en");

test("no clock", () => {
  assert.equal(clockName(null), "No clock");
  assert.equal(clockName(undefined), "No clock");
});

test("one of the lobby's clocks, as a challenge keeps it, is called by the lobby's name", () => {
  // routes/standins.py's ClockIn dumped without its None fields: a turn clock keeps increment 0
  assert.equal(
    clockName({ kind: "turn", per_move: 86400, max_bank: 259200, increment: 0 }),
    "Turn-based: 1 day per move (up to 3 days)",
  );
  assert.equal(
    clockName({ kind: "realtime", bank: 300, increment: 10 }),
    "Real-time: 5 min + 10 s per move",
  );
  assert.equal(
    clockName({ kind: "realtime", bank: 300.0, increment: 10.0 }),
    "Real-time: 5 min + 10 s per move",
  );
});

test("any other clock is said by its banks", () => {
  assert.equal(clockName({ kind: "realtime", bank: 600, increment: 5 }), "Clock: 10 min + 5 s");
  assert.equal(clockName({ kind: "realtime", bank: 300 }), "Clock: 5 min + 0 s");
  assert.equal(
    clockName({ kind: "turn", per_move: 7200, max_bank: 86400, increment: 0 }),
    "Clock: 2 h (≤ 1 d)",
  );
  // the lobby's day clock with another cap, or none: not the lobby's
  assert.equal(clockName({ kind: "turn", per_move: 86400 }), "Clock: 1 d");
  assert.equal(
    clockName({ kind: "turn", per_move: 86400, max_bank: 86400 * 5 }),
    "Clock: 1 d (≤ 5 d)",
  );
});

test("a finished game's place: 1 for the best, ties sharing it", () => {
  const result = { scores: [40, 40, 55, 12], ranking: [[2], [0, 1], [3]] };
  assert.equal(placeOf(result, 2), 1);
  assert.equal(placeOf(result, 0), 2);
  assert.equal(placeOf(result, 1), 2);
  assert.equal(placeOf(result, 3), 3);
  assert.equal(placeOf(result, 4), null);
  assert.equal(placeOf({ scores: [1] }, 0), null);
  assert.equal(placeOf(null, 0), null);
});
