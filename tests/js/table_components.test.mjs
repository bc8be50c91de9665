// The table's components (static/js/table/): the shared `changed` helper that decides when a
// component draws again, and the props each derives from the server's state message. Run by
// tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { changed, differs, component } from "/static/js/table/changed.js";
import { seatsProps, seatNames } from "/static/js/table/seats.js";
import { logRows } from "/static/js/table/logrows.js";
import { titleProps } from "/static/js/table/titlebar.js";
import { looseSeats } from "/static/js/table/claim.js";

test("changed: nothing drawn yet, or any declared prop differing as data", () => {
  assert.equal(changed(null, { a: 1 }), true);
  assert.equal(changed(undefined, { a: 1 }), true);
  assert.equal(changed({ a: 1, b: [1, { c: "x" }] }, { a: 1, b: [1, { c: "x" }] }), false);
  assert.equal(changed({ a: 1, b: [1, { c: "x" }] }, { a: 1, b: [1, { c: "y" }] }), true);
  assert.equal(changed({ a: [1, 2] }, { a: [1, 2, 3] }), true);
  assert.equal(changed({ a: null }, { a: undefined }), true);
  assert.equal(changed({ a: 1, b: undefined }, { a: 1 }), false);
  assert.equal(changed({ a: NaN }, { a: NaN }), false);
  assert.equal(changed({ a: [] }, { a: {} }), true);
  assert.equal(differs(new Set([1, 2]), new Set([2, 1])), false);
  assert.equal(differs(new Set([1, 2]), new Set([1, 3])), true);
});

test("component: draws once per change of its props; reset draws again", () => {
  const drawn = [];
  const part = component((p) => drawn.push(p.n));
  assert.equal(part.render({ n: 1 }), true);
  assert.equal(part.render({ n: 1 }), false);
  assert.equal(part.render({ n: 2 }), true);
  part.reset();
  assert.equal(part.render({ n: 2 }), true);
  assert.deepEqual(drawn, [1, 2, 2]);
  assert.deepEqual(part.props, { n: 2 });
});

const SEATS = [
  { kind: "human", name: "Ada", connected: true, account: "ada" },
  { kind: "bot", name: "Bot 2", level: "easy", connected: true },
  { kind: "human", vacant: true },
];

test("the seats strip's names: a bot with its level, an open seat", () => {
  const names = seatNames(SEATS);
  assert.equal(names[0], "Ada");
  assert.match(names[1], /^Bot 2 \(.+\)$/);
  assert.notEqual(names[2], "");
});

test("the seats strip shows whose turn it is, the seats held, the clock; a replay none of them", () => {
  const clock = { kind: "realtime", running: 0, banks: [60, 60, 60] };
  const msg = { seats: SEATS, clock, finished: false };
  const local = { held: [0], replaying: false, lang: "en", colours: ["red", "blue", "green"] };
  const p = seatsProps(msg, { current_player: 1 }, local);
  assert.equal(p.current, 1);
  assert.deepEqual(p.held, [0]);
  assert.equal(p.clock, clock);
  assert.equal(p.names.length, 3);
  // the same message again: nothing to draw; a seat coming online: drawn again
  assert.equal(changed(p, seatsProps(msg, { current_player: 1 }, local)), false);
  const online = SEATS.map((s, i) => (i === 2 ? { ...s, connected: true } : s));
  assert.equal(
    changed(p, seatsProps({ ...msg, seats: online }, { current_player: 1 }, local)),
    true,
  );
  // a replay: its view's player to move, no one held, no clock
  const r = seatsProps(msg, { current_player: 0 }, { ...local, replaying: true });
  assert.deepEqual([r.current, r.held, r.clock], [0, [], null]);
});

test("the log's grouping: a move's first event starts it; appending goes on where it stopped", () => {
  const log = [
    { move: null, key: "game_started" },
    { move: 0, key: "took" },
    { move: 0, key: "placed" },
    { move: 1, key: "took" },
  ];
  const all = logRows(log, 0);
  assert.deepEqual(
    all.map((r) => [r.index, r.first]),
    [
      [0, true],
      [1, true],
      [2, false],
      [3, true],
    ],
  );
  // appended later: the move already begun goes on, the next one starts
  const more = [...log, { move: 1, key: "placed" }, { move: 2, key: "took" }];
  assert.deepEqual(
    logRows(more, 4).map((r) => [r.index, r.first]),
    [
      [4, false],
      [5, true],
    ],
  );
  assert.deepEqual(logRows(log, 4), []);
});

test("the title line offers leaving for the held seats a person plays, while the game goes on", () => {
  const seats = [{ kind: "human" }, { kind: "human", stand_in: "easy" }, { kind: "bot" }];
  const base = {
    title: "Quadropolis · Classic",
    progress: "Round 1",
    rated: false,
    rules: true,
    legend: true,
    lang: "en",
    held: [0, 1],
    seats,
    finished: false,
    replaying: false,
    tableRules: { stand_in: "hard" },
  };
  const p = titleProps(base);
  assert.deepEqual([p.standing, p.leave, p.level, p.leaveFinal], [[0], true, "hard", false]);
  assert.equal(titleProps({ ...base, finished: true }).leave, false);
  assert.equal(titleProps({ ...base, replaying: true }).leave, false);
  assert.equal(titleProps({ ...base, held: [1] }).leave, false); // a bot plays it meanwhile
  assert.equal(titleProps({ ...base, tableRules: undefined }).level, "medium");
});

test("Keep in My games: seats held by link, played by a person, bound to no account", () => {
  const seats = [{ kind: "human" }, { kind: "human", account: "ada" }, { kind: "bot" }];
  const held = [
    { seat: 0, token: "t0" },
    { seat: 1, token: "t1" },
    { seat: 2, token: "t2" },
  ];
  assert.deepEqual(looseSeats(held, seats, { account: "bob", replaying: false }), ["t0"]);
  assert.deepEqual(looseSeats(held, seats, { account: null, replaying: false }), []);
  assert.deepEqual(looseSeats(held, seats, { account: "bob", replaying: true }), []);
  assert.deepEqual(
    looseSeats([{ seat: 0, token: null }], seats, { account: "bob", replaying: false }),
    [],
  );
});
