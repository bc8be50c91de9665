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
import { bannersProps } from "/static/js/table/banners.js";
import { statusProps, stepProps } from "/static/js/table/status.js";
import { coverProps } from "/static/js/table/handover.js";
import { boardProps } from "/static/js/table/board.js";
import { logProps, logItems } from "/static/js/table/log.js";
import { endProps } from "/static/js/table/end.js";

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

// -- the banners ---------------------------------------------------------------------------------

const PEOPLE = [
  { kind: "human", name: "Ada", connected: true },
  { kind: "human", name: "Bob", connected: false },
];
const AWAY_RULES = { away_limit: 60, stand_in: "hard" };

function banners(over = {}, msgOver = {}) {
  const msg = { seats: PEOPLE, current_player: 1, log: [], rules: AWAY_RULES, ...msgOver };
  return bannersProps({
    lang: "en",
    online: true,
    refused: false,
    storeDown: false,
    shown: { msg, names: ["Ada", "Bob"], held: [0], replaying: false },
    awaySince: { 1: 1000 },
    seenWhileAway: {},
    ...over,
  });
}

test("banners: a person away on their turn shows when a bot plays for them", () => {
  const p = banners();
  assert.deepEqual(p.away, { seat: 1, name: "Bob", level: "hard", deadline: 61000 });
  // not their turn, a seat this browser holds, a clock, no away limit, the game over: none
  assert.equal(banners({}, { current_player: 0 }).away, null);
  assert.equal(banners({ awaySince: {} }).away, null);
  // the seat to move is held here: this page's own person is not waited for
  const held = banners({
    shown: {
      msg: { seats: PEOPLE, current_player: 1, log: [], rules: AWAY_RULES },
      names: ["Ada", "Bob"],
      held: [0, 1],
      replaying: false,
    },
  });
  assert.equal(held.away, null);
  assert.equal(banners({}, { clock: { banks: [60, 60], running: 1, started: 0 } }).away, null);
  assert.equal(banners({}, { rules: { stand_in: "hard" } }).away, null);
  assert.equal(banners({}, { finished: true }).away, null);
  assert.equal(banners({}, { rules: { away_limit: 60 } }).away?.level, "medium");
});

test("banners: offline unless refused, the store down, watching, open seats, none in a replay", () => {
  assert.equal(banners({ online: false }).offline, true);
  assert.equal(banners({ online: false, refused: true }).offline, false);
  assert.equal(banners({ storeDown: true }).storeDown, true);
  // nothing shown yet: only the connection's banners
  const none = banners({ shown: null, online: false });
  assert.deepEqual(
    [none.offline, none.spectator, none.standIn, none.away],
    [true, null, null, null],
  );
  const watching = (finished) =>
    bannersProps({
      lang: "en",
      online: true,
      refused: false,
      storeDown: false,
      shown: { msg: { seats: PEOPLE, log: [], finished }, names: [], held: [], replaying: false },
      awaySince: {},
      seenWhileAway: {},
    });
  assert.equal(watching(false).spectator, "playing");
  assert.equal(watching(true).spectator, "over");
  const open = banners({}, { seats: [...PEOPLE, { kind: "human", vacant: true }] });
  assert.equal(open.vacant, 1);
  assert.equal(open.away, null); // an open table waits for its players, not for Bob
  const replay = banners({
    shown: {
      msg: { seats: [...PEOPLE, { kind: "human", vacant: true }], current_player: 1, log: [] },
      names: ["Ada", "Bob"],
      held: [0],
      replaying: true,
    },
  });
  assert.deepEqual(
    [replay.spectator, replay.standIn, replay.away, replay.vacant, replay.whileAway],
    [null, null, null, 0, []],
  );
});

test("banners: a bot standing in, and what it did for a person back until they saw it", () => {
  // Ada (seat 0) moved, then a bot played her seat twice, then Bob
  const log = [
    { move: 0, key: "took", params: { player: 0 } },
    { move: 1, key: "took", params: { player: 1 } },
    { move: 2, key: "took", params: { player: 0 } },
    { move: 3, key: "took", params: { player: 1 } },
    { move: 4, key: "took", params: { player: 0 } },
  ];
  const authors = [null, null, "bot:easy", null, "bot:easy"];
  const back = banners({}, { log, authors, current_player: 1 });
  assert.deepEqual(back.whileAway, [{ seat: 0, name: "Ada", count: 2, level: "easy", move: 4 }]);
  // seen: gone; the bot still playing: the stand-in banner says so instead
  assert.deepEqual(banners({ seenWhileAway: { 0: 4 } }, { log, authors }).whileAway, []);
  const seats = [{ ...PEOPLE[0], stand_in: "easy", stand_in_why: "away" }, PEOPLE[1]];
  const standing = banners({}, { log, authors, seats, rules: { leave_final: true } });
  assert.deepEqual(standing.whileAway, []);
  assert.deepEqual(standing.standIn, {
    finished: false,
    leaveFinal: true,
    held: [0],
    seats: [
      { kind: "human", stand_in: "easy", stand_in_why: "away" },
      { kind: "human", stand_in: null, stand_in_why: null },
    ],
  });
  // a seat coming online changes nothing the banners show
  const online = PEOPLE.map((s) => ({ ...s, connected: true }));
  assert.equal(changed(back, banners({}, { log, authors, seats: online })), false);
});

// -- the prompt bar's status and step ------------------------------------------------------------

function status(over = {}, msgOver = {}) {
  return statusProps({
    lang: "en",
    replay: null,
    msg: { seats: PEOPLE, current_player: 1, seat: 0, ...msgOver },
    myTurn: false,
    held: [0],
    names: ["Ada", "Bob"],
    ...over,
  });
}

test("status: whose turn, whom the table waits for, a bot standing in, over, a replay", () => {
  assert.deepEqual(status().say, { key: "status.waiting", name: "Bob" });
  assert.deepEqual(status({ myTurn: true }, { current_player: 0 }).say, { key: "status.yourTurn" });
  assert.equal(status({ myTurn: true }, { current_player: 0 }).mine, true);
  // hot-seat: whose turn it is by name
  assert.deepEqual(status({ myTurn: true, held: [0, 1] }, { current_player: 0 }).say, {
    key: "status.yourTurnAs",
    name: "Ada",
  });
  const seats = [PEOPLE[0], { ...PEOPLE[1], stand_in: "hard" }];
  assert.deepEqual(status({}, { seats }).say, {
    key: "status.standIn",
    name: "Bob",
    level: "hard",
  });
  assert.deepEqual(status({}, { seats: [...PEOPLE, { kind: "human", vacant: true }] }).say, {
    key: "status.waitingPlayers",
  });
  assert.deepEqual(status({}, { finished: true }).say, { key: "status.over" });
  assert.deepEqual(status({ replay: { position: 3, total: 9 } }, { finished: true }).say, {
    key: "replay.at",
    n: 3,
    total: 9,
  });
});

test("status: the clock of the seat to move, none for a bot, once over or in a replay", () => {
  const clock = { banks: [60, 60], running: 1, started: 0 };
  assert.deepEqual(status({}, { clock }).clock, { clock, seat: 1, name: "Bob" });
  assert.equal(status().clock, null);
  assert.equal(status({}, { clock, finished: true }).clock, null);
  assert.equal(status({ replay: { position: 1, total: 2 } }, { clock }).clock, null);
  const bot = [PEOPLE[0], { kind: "bot", name: "Robo", level: "easy" }];
  assert.equal(status({}, { clock, seats: bot }).clock, null);
});

test("the bar's step: the refusal said on the seat's turn only; a move to confirm", () => {
  assert.deepEqual(stepProps({ myTurn: true, lastError: "no", pending: null }), {
    mine: true,
    error: "no",
    confirm: null,
  });
  assert.equal(stepProps({ myTurn: false, lastError: "no", pending: null }).error, null);
  const pending = { text: "3L4 r2c1", label: "Architect 3" };
  assert.deepEqual(stepProps({ myTurn: true, lastError: null, pending }).confirm, pending);
});

// -- the hot-seat cover and the board ------------------------------------------------------------

function cover(over = {}) {
  return coverProps({
    privateViews: true,
    replaying: false,
    finished: false,
    held: [0, 1],
    seat: 0,
    current: 0,
    position: 5,
    movedAt: 4,
    revealed: null,
    names: ["Ada", "Bob"],
    ...over,
  });
}

test("hot-seat cover: passed on before a seat's secrets show, hidden after its move", () => {
  assert.deepEqual(cover(), { kind: "pass", seat: 0, name: "Ada" });
  assert.equal(cover({ revealed: 0 }), null); // Ada pressed "show"
  // Ada moved (the move on its way): hidden at once, also while revealed
  assert.deepEqual(cover({ revealed: 0, movedAt: 5 }), { kind: "wait" });
  // a bot to move: hidden
  assert.deepEqual(cover({ current: 2, revealed: 0 }), { kind: "wait" });
  // no cover: a game without secrets, one seat on this device, a replay, the game over
  assert.equal(cover({ privateViews: false }), null);
  assert.equal(cover({ held: [0] }), null);
  assert.equal(cover({ replaying: true }), null);
  assert.equal(cover({ finished: true }), null);
});

const CTX = {
  lang: "en",
  position: 5,
  selection: { architect: 3 },
  pending: null,
  replaying: false,
  finished: false,
  myTurn: true,
  hint: null,
  msg: { position: 5, seat: 0, choices: { x: 1 }, seats: PEOPLE },
};

test("the board: drawn again when what it shows changes, not for a seat coming online", () => {
  const local = { layout: 0, cover: null, sentAt: null };
  const p = boardProps(CTX, local);
  assert.deepEqual(
    [p.seat, p.choices, p.sent, p.pending, p.hint],
    [0, true, false, undefined, undefined],
  );
  const online = {
    ...CTX,
    msg: { ...CTX.msg, seats: PEOPLE.map((s) => ({ ...s, connected: true })) },
  };
  assert.equal(changed(p, boardProps(online, local)), false);
  assert.equal(changed(p, boardProps({ ...CTX, selection: { architect: 4 } }, local)), true);
  assert.equal(changed(p, boardProps(CTX, { ...local, layout: 1 })), true);
  assert.equal(changed(p, boardProps(CTX, { ...local, cover: { kind: "wait" } })), true);
  assert.equal(changed(p, boardProps({ ...CTX, hint: { move: "m", choice: 1 } }, local)), true);
  // the move sent: the bar offers nothing more until the server answers
  assert.equal(boardProps(CTX, { ...local, sentAt: 5 }).sent, true);
  assert.equal(boardProps(CTX, { ...local, sentAt: 4 }).sent, false);
  // a replay shows the message's seat still (its secrets: the board is drawn for it)
  assert.equal(boardProps({ ...CTX, replaying: true }, local).seat, 0);
});

// -- the log and the end -------------------------------------------------------------------------

test("the log: drawn anew for a new language, names, a replay's step or the cover", () => {
  const base = { lang: "en", seat: 0, replayAt: null, covered: false, names: ["Ada", "Bob"] };
  const p = logProps(base);
  assert.equal(changed(p, logProps({ ...base })), false);
  assert.equal(changed(p, logProps({ ...base, names: ["Ada", "Cy"] })), true);
  assert.equal(changed(p, logProps({ ...base, replayAt: 2 })), true);
  assert.equal(changed(p, logProps({ ...base, lang: "de" })), true);
});

test("the log's rows: a bot's run and its person back, noted once, live notes where seen", () => {
  const events = [
    { move: null, key: "game_started", params: {} },
    { move: 0, key: "took", params: { player: 0 } },
    { move: 1, key: "took", params: { player: 1 } },
    { move: 2, key: "took", params: { player: 0 } },
    { move: 2, key: "placed", params: { player: 0 } },
    { move: 3, key: "took", params: { player: 0 } },
  ];
  const authors = [null, null, "bot:easy", null];
  const base = {
    events,
    from: 0,
    authors,
    seats: PEOPLE,
    why: { 0: "away" },
    live: [],
    drawn: new Set(),
  };
  const rows = logItems(base);
  const shape = rows.map((r) =>
    r.kind === "event" ? `${r.event.move}${r.first ? "*" : ""}${r.author ? "b" : ""}` : r.note.kind,
  );
  assert.deepEqual(shape, ["null*", "0*", "1*", "standIn", "2*b", "2", "back", "3*"]);
  const standIn = rows.find((r) => r.kind === "note" && r.note.kind === "standIn");
  assert.equal(standIn.why, "away"); // why is known for the latest run
  // seen live (at the log's length 3, before move 2): the live note stands in for the worked-out one
  const seen = { at: 3, note: { kind: "standIn", seat: 0, level: "easy", prev: 0 }, why: "time" };
  const withLive = logItems({ ...base, live: [seen] });
  const notes = withLive.filter((r) => r.kind !== "event");
  assert.deepEqual(
    notes.map((r) => [r.kind, r.kind === "live" ? r.live.note.kind : r.note.kind]),
    [
      ["live", "standIn"],
      ["note", "back"],
    ],
  );
  // the live note goes where this page saw it: after move 1's row, before move 2's
  const at = withLive.findIndex((r) => r.kind === "live");
  assert.equal(withLive[at - 1].event.move, 1);
  assert.equal(withLive[at + 1].event.move, 2);
  // already drawn: not again; appending from where it stopped gives only the new rows
  assert.equal(
    logItems({ ...base, live: [seen], drawn: new Set([seen]) }).some((r) => r.kind === "live"),
    false,
  );
  assert.deepEqual(
    logItems({ ...base, from: 5 }).map((r) => r.kind),
    ["note", "event"],
  );
});

test("the end: drawn again when the game ends, a replay's step, a rematch offered", () => {
  const p = endProps({ lang: "en", finished: true, replayAt: null, rematch: undefined });
  assert.equal(p.rematch, null);
  assert.equal(
    changed(p, endProps({ lang: "en", finished: true, replayAt: 3, rematch: null })),
    true,
  );
  assert.equal(
    changed(p, endProps({ lang: "en", finished: true, replayAt: null, rematch: "g2" })),
    true,
  );
  assert.equal(
    changed(p, endProps({ lang: "en", finished: true, replayAt: null, rematch: null })),
    false,
  );
});
