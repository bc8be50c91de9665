// Bots standing in for people, told from the log (static/js/seatclock.js): who made each move,
// where a bot began to play for a person and where the person came back, and what a bot did
// for them since they last moved (the banner shown when they come back). Run by
// tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { movers, standInRuns, byBot } from "/static/js/seatclock.js";

const SEATS = [{ kind: "human" }, { kind: "bot" }];
// a move's events: the first names who moved; a set-up event has no move
const ev = (move, player, key = "moved") => ({ move, key, params: { player } });
const LOG = [
  { move: null, key: "game_started", params: { first_player: 0 } },
  ev(0, 0),
  ev(0, 0, "also"),
  ev(1, 1),
  ev(2, 0),
  ev(3, 1),
  ev(4, 0),
  ev(5, 1),
];

test("who made each move is the player of its first event", () => {
  assert.deepEqual(
    [...movers(LOG)],
    [
      [0, 0],
      [1, 1],
      [2, 0],
      [3, 1],
      [4, 0],
      [5, 1],
    ],
  );
});

test("a bot's run for a person: where it began, how long it went on, where they came back", () => {
  // the person's own move, then a bot twice for them (a bot seat's moves are no stand-in)
  const authors = [null, "bot:hard", "bot:easy", "bot:hard", "bot:easy", "bot:hard"];
  const away = standInRuns(LOG, authors, SEATS);
  assert.deepEqual(away.notes.get(2), { kind: "standIn", seat: 0, level: "easy", prev: 0 });
  assert.equal(away.notes.size, 1);
  assert.deepEqual(away.trailing[0], { count: 2, level: "easy", move: 4 });
  assert.equal(away.runStart[0], 2);
  assert.equal(away.last[0], "bot:easy");
  assert.equal(away.trailing[1], undefined); // a bot's seat has no person to stand in for
  assert.equal(away.first.get(0), 1); // the index of each move's first event
  assert.equal(away.first.get(4), 6);
  // the person moves again: they are back, nothing trails
  const back = standInRuns([...LOG, ev(6, 0)], [...authors, null], SEATS);
  assert.deepEqual(back.notes.get(6), { kind: "back", seat: 0, prev: 4 });
  assert.equal(back.trailing[0], null);
});

test("a person who always moved themselves has no notes", () => {
  const runs = standInRuns(LOG, [null, "bot:hard", null, "bot:hard", null, "bot:hard"], SEATS);
  assert.equal(runs.notes.size, 0);
  assert.equal(runs.trailing[0], null);
  assert.equal(byBot("bot:easy"), true);
  assert.equal(byBot("Ada"), false);
  assert.equal(byBot(null), false);
});
