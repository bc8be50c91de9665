// The end of a game and the table's hints, without the DOM: who won and every place, the end's
// bar (the record, the replay's place, the rematch), and what the hint box shows when.
import { test } from "node:test";
import assert from "node:assert/strict";
import { winnerProps, endBarProps } from "/static/js/endgame.js";
import { hintState, hintParams, signed } from "/static/js/hint.js";

const RESULT = {
  players: [{ total: 31 }, { total: 27 }, { total: 31 }],
  ranking: [[0, 2], [1]],
};

test("the winner: a shared first place names both; every place with its points", () => {
  const p = winnerProps(RESULT, ["Ada", "Bob", "Cy"]);
  assert.deepEqual([p.shared, p.names, p.score], [true, "Ada · Cy", 31]);
  assert.deepEqual(p.standings, [
    { place: 1, seat: 0, name: "Ada", points: 31 },
    { place: 1, seat: 2, name: "Cy", points: 31 },
    { place: 2, seat: 1, name: "Bob", points: 27 },
  ]);
  const alone = winnerProps({ ...RESULT, ranking: [[2], [0], [1]] }, ["Ada", "Bob", "Cy"]);
  assert.deepEqual([alone.shared, alone.names, alone.score], [false, "Cy", 31]);
  assert.deepEqual(
    alone.standings.map((r) => [r.place, r.seat]),
    [
      [1, 2],
      [2, 0],
      [3, 1],
    ],
  );
});

test("the end's bar: moves standing after take-backs, the replay's place, the rematch", () => {
  const msg = { game: "quadropolis", position: 40, played: 38 };
  const base = { gameId: "g 1", msg, result: RESULT, replay: null, tokens: ["t0"] };
  const p = endBarProps(base);
  assert.deepEqual(p.record, { href: "/api/games/g%201/record", download: "quadropolis-g 1.json" });
  assert.deepEqual([p.at, p.total, p.rematch, p.winner, p.pad], [38, 38, "new", true, true]);
  assert.equal(p.review, "#/review/g%201");
  assert.equal(endBarProps({ ...base, msg: { game: "q", position: 40 } }).total, 40);
  assert.equal(endBarProps({ ...base, msg: { ...msg, rematch_id: "g2" } }).rematch, "join");
  // a replay: its place; no winner's moment, no rematch; a spectator is offered none either
  const replay = endBarProps({ ...base, replay: { position: 12 } });
  assert.deepEqual([replay.at, replay.rematch, replay.winner, replay.pad], [12, null, false, true]);
  assert.equal(endBarProps({ ...base, tokens: [] }).rematch, null);
  // a replay before its end has no result: no score pad
  assert.equal(endBarProps({ ...base, result: null, replay: { position: 3 } }).pad, false);
});

const UI = () => ({ answers: {}, asking: null });

function hint(over = {}, msgOver = {}) {
  return hintState({
    msg: { position: 7, seat: 1, hints: true, finished: false, ...msgOver },
    myTurn: true,
    replaying: false,
    token: true,
    ui: UI(),
    ...over,
  });
}

test("hints: the button for the seat to move; the state alone for anyone else", () => {
  assert.deepEqual(hint(), { on: true, show: "button", key: "7:1" });
  assert.equal(hint({ myTurn: false }).show, "state");
  assert.equal(hint({ token: false }).show, "state"); // watching: no seat to ask with
  assert.deepEqual(hint({}, { hints: false }), { on: false, show: "state", key: "7:1" });
  // the table says nothing of hints, the game over, a replay: no box
  assert.equal(hint({}, { hints: undefined }), null);
  assert.equal(hint({}, { finished: true }), null);
  assert.equal(hint({ replaying: true }), null);
});

test("hints: asking, then the answer for this position only", () => {
  assert.equal(hint({ ui: { answers: {}, asking: "7:1" } }).show, "working");
  const answer = { move: "m", reason: { key: "hint.reason", params: {} } };
  assert.equal(hint({ ui: { answers: { "7:1": answer }, asking: null } }).show, "answer");
  // an answer for the position before is no answer now
  assert.equal(hint({ ui: { answers: { "6:1": answer }, asking: "6:1" } }).show, "button");
});

test("a hint's gains are signed: whole wins, points to a tenth, a true minus", () => {
  assert.equal(signed(2), "+2");
  assert.equal(signed(-1.25, 1), "−1.3");
  assert.deepEqual(hintParams({ gainWins: 3, gainPoints: -0.5, name: "Ada" }), {
    gainWins: "+3",
    gainPoints: "−0.5",
    name: "Ada",
  });
  assert.deepEqual(hintParams(undefined), {});
});
