// The lobby's open tables without a page (static/js/opentables.js): a table's clock in words,
// as the list and My games write it. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

const { setLanguage } = await import("/static/js/i18n.js");
const { clockWords } = await import("/static/js/opentables.js");
await setLanguage("en");

test("no clock, or not a clock: no words", () => {
  assert.equal(clockWords(null), "");
  assert.equal(clockWords(undefined), "");
  assert.equal(clockWords(/** @type {any} */ ("fast")), "");
});

test("a real-time clock: its bank and its increment, each in its largest whole unit", () => {
  assert.equal(
    clockWords({ kind: "realtime", bank: 300, increment: 5, cap: null }),
    "Clock: 5 min + 5 s",
  );
  assert.equal(clockWords({ kind: "realtime", bank: 3600, increment: 60 }), "Clock: 1 h + 1 min");
  assert.equal(clockWords({ kind: "realtime", bank: 59, increment: 0 }), "Clock: 59 s + 0 s");
  // rounded, not cut: 90 minutes is 2 h
  assert.equal(clockWords({ kind: "realtime", bank: 5400, increment: 30 }), "Clock: 2 h + 30 s");
});

test("a turn clock: the time per move, and the most a bank may hold when there is a cap", () => {
  assert.equal(clockWords({ kind: "turn", bank: 86400, cap: 259200 }), "Clock: 1 d (≤ 3 d)");
  assert.equal(clockWords({ kind: "turn", bank: 86400, cap: null }), "Clock: 1 d");
  assert.equal(clockWords({ kind: "turn", bank: 7200 }), "Clock: 2 h");
});
