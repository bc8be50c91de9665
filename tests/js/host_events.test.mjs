// The events' pages without a page (static/js/events.js): an event's line in the list and at
// its head, and what the form sends to make one. Run by tests/cli/test_wording.py
// (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./pagestub.mjs";

const { setLanguage } = await import("/static/js/i18n.js");
const { eventLine, eventBody } = await import("/static/js/events.js");
await setLanguage("en");

const title = (game) => ({ quadropolis: "Quadropolis" })[game] ?? game;
const mode = (game, m) => `${m} mode`;

// an event as GET /api/events lists it
const event = (fields) => ({
  id: "e1",
  name: "Spring cup",
  game: "quadropolis",
  mode: "classic",
  players: 2,
  format: "swiss",
  rated: false,
  rules: { clock: null, stand_in: "medium", away_limit: null },
  status: "open",
  rounds: 3,
  round: 0,
  starts: null,
  started: null,
  ended: null,
  creator: "ada",
  entrants: 1,
  ...fields,
});

test("an open event without a start time starts by its maker's hand", () => {
  assert.equal(
    eventLine(event({}), title, mode),
    "Quadropolis · classic mode · Swiss · 2 per table · 1 entrant · starts when its maker starts it",
  );
});

test("an open event with a start time says when", () => {
  const line = eventLine(
    event({ starts: Date.UTC(2030, 5, 1, 12) / 1000, entrants: 4 }),
    title,
    mode,
  );
  assert.match(
    line,
    /^Quadropolis · classic mode · Swiss · 2 per table · 4 entrants · starts .*2030/,
  );
});

test("a running event: its round of its rounds (a round robin's own round until known)", () => {
  assert.equal(
    eventLine(event({ status: "running", round: 2 }), title, mode),
    "Quadropolis · classic mode · Swiss · 2 per table · 1 entrant · Round 2 of 3",
  );
  assert.equal(
    eventLine(
      event({ status: "running", format: "round_robin", rounds: null, round: 1 }),
      title,
      mode,
    ),
    "Quadropolis · classic mode · Round robin · 2 per table · 1 entrant · Round 1 of 1",
  );
});

test("the short line says no time; a finished event says when it ended", () => {
  const over = event({ status: "finished", ended: Date.UTC(2031, 0, 15, 12) / 1000 });
  assert.equal(
    eventLine(over, title, mode, false),
    "Quadropolis · classic mode · Swiss · 2 per table · 1 entrant",
  );
  assert.match(eventLine(over, title, mode), /· 1 entrant · .*2031/);
  assert.equal(
    eventLine(event({ status: "cancelled" }), title, mode),
    "Quadropolis · classic mode · Swiss · 2 per table · 1 entrant",
  );
});

const form = (fields) => ({
  name: "  Spring cup ",
  game: "quadropolis",
  mode: "classic",
  players: 3,
  format: "swiss",
  rounds: 4,
  clock: "none",
  rated: true,
  starts: "",
  ...fields,
});

test("the event sent: the name trimmed, a Swiss event's rounds, no clock, no start time", () => {
  assert.deepEqual(eventBody(form({})), {
    name: "Spring cup",
    game: "quadropolis",
    mode: "classic",
    players: 3,
    format: "swiss",
    rated: true,
    clock: null,
    rounds: 4,
    starts: null,
  });
});

test("a round robin's rounds follow from its entrants; a clock and a start time are sent", () => {
  const body = eventBody(
    form({ format: "round_robin", clock: "day1", starts: "2030-06-01T12:00" }),
  );
  assert.equal(body.rounds, null);
  assert.deepEqual(body.clock, { kind: "turn", per_move: 86400, max_bank: 3 * 86400 });
  assert.equal(body.starts, new Date("2030-06-01T12:00").toISOString());
});
