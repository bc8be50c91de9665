// The lobby's form without a page (static/js/lobby.js): where hints may be offered, and the
// seats as POST /api/games receives them. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

const { setLanguage } = await import("/static/js/i18n.js");
const { hintsPossible, seatsBody } = await import("/static/js/lobby.js");
await setLanguage("en");

const person = (here = true, name = "") => ({ kind: "human", level: "easy", name, here });
const bot = (level = "easy", name = "") => ({ kind: "bot", level, name, here: true });
const open = () => ({ kind: "open", level: "easy", name: "", here: true });

test("hints: one person against bots, or every person on this device", () => {
  assert.equal(hintsPossible([person(), bot()]), true);
  assert.equal(hintsPossible([person(false), bot(), bot()]), true); // alone, wherever they are
  assert.equal(hintsPossible([person(), person()]), true); // hot-seat
  assert.equal(hintsPossible([bot(), bot()]), true);
});

test("no hints where another person sits elsewhere, or a seat is open", () => {
  assert.equal(hintsPossible([person(), person(false)]), false);
  assert.equal(hintsPossible([person(), open()]), false);
  assert.equal(hintsPossible([open(), bot()]), false);
});

test("the seats sent: names trimmed, a seat without one called by its number", () => {
  assert.deepEqual(seatsBody([person(true, "  Ada "), bot("hard"), open(), person(false)]), [
    { name: "Ada", kind: "human", level: null },
    { name: "Bot 2", kind: "bot", level: "hard" },
    { kind: "open" },
    { name: "Player 4", kind: "human", level: null },
  ]);
  assert.deepEqual(seatsBody([bot("medium", "Rex")]), [
    { name: "Rex", kind: "bot", level: "medium" },
  ]);
});
