// Metropolys's web client (issue 40): the parts that draw from the view without a board, on a
// small stand-in for the page's DOM: the progress line, the log's kinds, the board's frame
// (cropped, turned upright on a narrow screen, panned below the touch size), the prompt bar's
// step from the server's choices, the notes, the supplies and the score pad of a finished game.
// Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { client } from "./catalogue.mjs";

// -- a stand-in for the DOM: what /static/js/dom.js builds with, and a way to look inside ------
class FakeNode {}
class FakeText extends FakeNode {
  constructor(text) {
    super();
    this.data = text;
  }
  get textContent() {
    return this.data;
  }
}
class FakeElement extends FakeNode {
  constructor(tag) {
    super();
    this.tagName = tag;
    this.attributes = {};
    this.dataset = {};
    this.childNodes = [];
    this.listeners = {};
  }
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }
  append(...nodes) {
    for (const n of nodes) this.childNodes.push(n instanceof FakeNode ? n : new FakeText(n));
  }
  set textContent(text) {
    this.childNodes = [new FakeText(String(text))];
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }
  get className() {
    return this.attributes.class ?? "";
  }
  click() {
    for (const fn of this.listeners.click ?? []) fn({});
  }
  // every element under this one (itself first) that `test` accepts
  findAll(test) {
    const out = test(this) ? [this] : [];
    for (const c of this.childNodes) if (c instanceof FakeElement) out.push(...c.findAll(test));
    return out;
  }
}
globalThis.Node = FakeNode;
globalThis.document = {
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (ns, tag) => new FakeElement(tag),
  createTextNode: (text) => new FakeText(text),
};

const div = () => new FakeElement("div");
const byTag = (root, tag) => root.findAll((e) => e.tagName === tag);
const byClass = (root, cls) => root.findAll((e) => e.className.split(" ").includes(cls));
const byId = (root, id) => root.findAll((e) => e.attributes.id === id)[0] ?? null;
const texts = (els) => els.map((e) => e.textContent);

const m = await client("metropolys");

// A translator that says its key and arguments, so what is asked for shows.
const t = (key, params) => (params ? `${key}${JSON.stringify(params)}` : key);
t.list = (items) => items.join(" & ");

const NAMES = ["Ada", "Bo", "Cy"];
const marker = (seat) => Object.assign(new FakeElement("i"), { seat });

function view(extra = {}) {
  return {
    mode: "family",
    players: 3,
    player: 0,
    current_player: 0,
    terminal: false,
    unused_districts: [],
    fields: [],
    bid: null,
    bids: [],
    passed: [],
    supplies: [
      [1, 2, 3],
      [4, 5],
      [6, 7, 13],
    ],
    built: [0, 0, 0],
    tokens_collected: NAMES.map(() => ({ chic: 0, metro: 0, archaeology: 0 })),
    metro_card: null,
    archaeology_card: null,
    running_score: [],
    area_card: null,
    neighbourhood_card: null,
    ...extra,
  };
}

function context(extra = {}) {
  const calls = [];
  const ctx = {
    view: view(),
    names: NAMES,
    choices: null,
    selection: {},
    markerHtml: marker,
    seatHead: (seat) => [marker(seat), NAMES[seat]],
    move: (text, label) => calls.push(["move", text, label]),
    select: (selection, focus) => calls.push(["select", selection, focus]),
    ...extra,
  };
  return { ctx, calls };
}

// -- the progress line and the log --------------------------------------------------------------
test("progress: the buildings built so far, or the game's end", () => {
  assert.equal(m.progress(view({ built: [2, 3, 1] }), t), 'progress{"built":6}');
  assert.equal(m.progress(view({ built: [0, 0, 0] }), t), 'progress{"built":0}');
  assert.equal(m.progress(view({ terminal: true, built: [9, 9, 9] }), t), "finished");
});

test("eventKind: a round's start stands out, and a bid won and the end", () => {
  const kind = (key) => m.eventKind({ move: 1, key, params: {} });
  assert.equal(kind("round_started"), "round");
  assert.equal(kind("bid_won"), "win");
  assert.equal(kind("game_ended"), "win");
  for (const key of ["bid_placed", "bid_raised", "player_passed", "round_ended", "cards_dealt"])
    assert.equal(kind(key), "");
});

// -- the board's frame -----------------------------------------------------------------------------
// Four fields in play, 400 x 150 board pixels apart (492 x 242 with the margins), and one far
// off that is not in play: it must not widen the board.
const BOARD = {
  fields: [
    { id: 0, x: 100, y: 100 },
    { id: 1, x: 500, y: 100 },
    { id: 2, x: 100, y: 250 },
    { id: 3, x: 500, y: 250 },
    { id: 4, x: 3000, y: 2000 },
  ],
};
const FIELDS = BOARD.fields.map((f) => ({ id: f.id, in_play: f.id !== 4 }));

test("layoutKey: flat on a wide screen, upright on a narrow one, panned below the touch size", () => {
  const key = (w) => m.layoutKey({ w, h: 800 }, { board: BOARD, view: view({ fields: FIELDS }) });
  assert.equal(key(1200), "false|null");
  assert.equal(key(800), "false|null"); // wide enough: never turned
  assert.equal(key(400), "true|null"); // turned upright, its neighbourhoods large enough
  // narrower than a 44 px target for every neighbourhood: a fixed scale (44 / 50) and a pan
  assert.equal(key(150), `true|${44 / 50}`);
  assert.equal(m.layoutKey({ w: 400, h: 800 }, undefined), "");
  // the far field in play too: the board is cropped to it, too large not to pan
  const all = BOARD.fields.map((f) => ({ id: f.id, in_play: true }));
  const wide = { board: BOARD, view: view({ fields: all }) };
  assert.equal(m.layoutKey({ w: 400, h: 800 }, wide), `true|${44 / 50}`);
});

// -- the prompt bar ----------------------------------------------------------------------------------
const CHOICES = {
  fields: [
    { field: 4, values: [{ value: 6, move: "6@4" }] },
    {
      field: 9,
      values: [
        { value: 7, move: "7@9" },
        { value: 11, move: "11@9" },
      ],
    },
  ],
  pass: "pass",
};
const VIEW_FIELDS = Array.from({ length: 12 }, (_, id) => ({
  id,
  district: id < 6 ? "north" : "east",
  colour: id % 2 ? "red" : "blue",
  in_play: true,
  token: null,
  building: null,
}));

test("prompt: opening a call offers the few neighbourhoods as buttons; one chosen, its values", () => {
  const { ctx, calls } = context({ view: view({ fields: VIEW_FIELDS }), choices: CHOICES });
  const first = m.prompt(ctx, t);
  assert.equal(first.step, "chooseOpen");
  const bar = div();
  bar.append(...first.actions);
  const offered = byClass(bar, "field-choice");
  assert.deepEqual(
    offered.map((b) => b.dataset.field),
    ["4", "9"],
  );
  assert.match(offered[1].textContent, /^9 district\.east · colour\.red$/);
  assert.equal(byId(bar, "cancel"), null); // nothing chosen: nothing to cancel
  offered[1].click();
  assert.deepEqual(calls.pop(), ["select", { field: 9 }, ".values button.value"]);
  byId(bar, "pass").click();
  assert.deepEqual(calls.pop(), ["move", "pass", "label.pass"]);

  ctx.selection = { field: 9 };
  const second = m.prompt(ctx, t);
  assert.equal(second.step, 'chooseValue{"n":9}');
  const box = div();
  box.append(...second.actions);
  assert.equal(byClass(box, "field-choice").length, 0);
  const values = byClass(box, "value");
  assert.deepEqual(texts(values), ["7", "11"]);
  values[1].click();
  assert.deepEqual(calls.pop(), ["move", "11@9", 'label.bid{"value":11,"n":9}']);
  byId(box, "cancel").click();
  assert.deepEqual(calls.pop(), ["select", {}, "#metro-board .field.legal"]);
});

test("prompt: raising names the bid to beat; no raise left, a pass; many fields, no list", () => {
  const bid = { field: 3, value: 5, player: 1 };
  const raising = view({ fields: VIEW_FIELDS, bid, bids: [bid] });
  const { ctx } = context({ view: raising, choices: CHOICES });
  assert.equal(m.prompt(ctx, t).step, 'chooseRaise{"value":5,"field":3}');

  ctx.choices = { fields: [], pass: "pass" };
  const stuck = m.prompt(ctx, t);
  assert.equal(stuck.step, "mustPass");
  const bar = div();
  bar.append(...stuck.actions);
  assert.ok(byId(bar, "pass"));
  assert.equal(byClass(bar, "field-choice").length, 0);

  // up to six neighbourhoods offered are buttons too; more are chosen on the board
  const offered = (n) => {
    const fields = VIEW_FIELDS.slice(0, n).map((f) => ({
      field: f.id,
      values: [{ value: 1, move: `1@${f.id}` }],
    }));
    ctx.choices = { fields, pass: null };
    const box = div();
    box.append(...m.prompt(ctx, t).actions);
    assert.equal(byId(box, "pass"), null); // no pass offered: no button
    return byClass(box, "field-choice").length;
  };
  assert.equal(offered(6), 6);
  assert.equal(offered(7), 0);
});

test("controls: the notes, then the step and its buttons; not this seat's turn, the notes", () => {
  const bid = { field: 3, value: 5, player: 1 };
  const { ctx } = context({ view: view({ fields: VIEW_FIELDS, bid, bids: [bid] }) });
  const waiting = m.controls(ctx, t);
  assert.deepEqual(
    waiting.map((e) => e.attributes.id),
    ["current-bid"],
  );
  ctx.choices = CHOICES;
  const moving = m.controls(ctx, t);
  assert.deepEqual(
    moving.map((e) => e.attributes.id ?? e.className),
    ["current-bid", "prompt", "field-list", "row"],
  );
  assert.equal(moving[1].textContent, 'chooseRaise{"value":5,"field":3}');
});

// -- beside the board --------------------------------------------------------------------------------
test("notes: the goal on the seat's turn, the bid to beat, the call's chain", () => {
  const bids = [
    { field: 3, value: 5, player: 1 },
    { field: 4, value: 8, player: 2 },
  ];
  const mine = view({ area_card: "lakes", bid: bids[1], bids });
  const { ctx } = context({ view: mine, choices: CHOICES });
  const out = m.notes(ctx, t);
  assert.deepEqual(
    out.map((e) => e.attributes.id ?? e.className),
    ["my-goal", "current-bid", "bid-chain"],
  );
  assert.match(out[0].textContent, /area\.lakes/);
  assert.match(out[1].textContent, /currentBid\{"name":"Cy","value":8,"field":4\}$/);
  assert.equal(out[2].textContent, 'chain: 5 (Bo, fieldShort{"n":3}) → 8 (Cy, fieldShort{"n":4})');
  // not this seat's turn: no goal; one bid: no chain
  ctx.choices = null;
  ctx.view = view({ area_card: "lakes", bid: bids[0], bids: bids.slice(0, 1) });
  assert.deepEqual(
    m.notes(ctx, t).map((e) => e.attributes.id),
    ["current-bid"],
  );
});

test("info: this seat's cards, every player's supply, tokens, cards and whether they passed", () => {
  const tokens = [
    { chic: 1, metro: 0, archaeology: 2 },
    { chic: 0, metro: 3, archaeology: 0 },
    { chic: 0, metro: 0, archaeology: 0 },
  ];
  const seen = view({
    area_card: "bridges",
    neighbourhood_card: "red",
    mode: "expert",
    passed: [1],
    tokens_collected: tokens,
    metro_card: 1,
  });
  const { ctx } = context({ view: seen });
  const [cards, supplies] = m.info(ctx, t);
  assert.equal(cards.attributes.id, "my-cards");
  assert.deepEqual(
    byClass(cards, "card").map((c) => c.className),
    ["card area", "card neighbourhood"],
  );
  const rows = byTag(supplies, "tr").slice(1);
  assert.deepEqual(
    rows.map((r) => r.dataset.seat),
    ["0", "1", "2"],
  );
  assert.deepEqual(
    rows.map((r) => texts(byClass(r, "chip")).join(" ")),
    ["1 2 3", "4 5", "6 7 13"],
  );
  assert.deepEqual(
    rows.map((r) => r.className),
    ["", "passed", ""],
  );
  assert.deepEqual(
    byClass(rows[0], "tok").map((e) => e.attributes["aria-label"]),
    ["token.chic: 1", "token.metro: 0", "token.archaeology: 2"],
  );
  assert.deepEqual(texts(byClass(rows[1], "card")), ["metroCard"]);
  // a spectator has no cards of its own
  ctx.view = view();
  assert.equal(m.info(ctx, t).length, 1);
});

// -- the running score and the score pad -----------------------------------------------------------
test("runningScore: the public points so far, the secret ones said to come; once over, final", () => {
  const running = [
    { total: 7, categories: { metro_card: 3, chic: 4 } },
    { total: 0, categories: {} },
  ];
  const { ctx } = context({ view: view({ running_score: running }) });
  const span = m.runningScore(ctx, 0, t);
  assert.equal(span.className, "running-score");
  const [total, hidden] = span.childNodes;
  assert.equal(total.textContent, 'running.short{"n":7}');
  // in the pad's order, whatever the order of the view's keys
  assert.equal(hidden.textContent, "cat.chic: 4; cat.metro_card: 3; running.secret");
  assert.equal(total.attributes["aria-describedby"], hidden.attributes.id);
  assert.equal(m.runningScore(ctx, 2, t), null); // no score for that seat

  const cats = { chic: 1, metro: 2, metro_card: 0, archaeology: 0, archaeology_card: 3 };
  const over = [{ total: 14, categories: { ...cats, area: 8, neighbourhood: 0, highest: 5 } }];
  ctx.view = view({ terminal: true, running_score: over });
  const final = m.runningScore(ctx, 0, t);
  assert.equal(final.className, "running-score final");
  assert.equal(final.childNodes[0].textContent, "14");
  // Family: six categories, no secret row
  assert.equal(
    final.childNodes[1].textContent,
    "cat.chic: 1; cat.metro: 2; cat.metro_card: 0; cat.archaeology: 0; cat.archaeology_card: 3; cat.area: 8",
  );
});

function finished(mode) {
  const breakdown = (n) => ({
    chic: n,
    metro: n + 1,
    metro_card: 0,
    archaeology: 2,
    archaeology_card: 0,
    area: 5,
    neighbourhood: mode === "expert" ? 4 : 0,
    highest: mode === "expert" ? 3 : 0,
  });
  const players = [1, 2].map((n, p) => ({ total: 10 * n, built: 5 + p, breakdown: breakdown(n) }));
  const cards = [
    { area_card: "lakes", neighbourhood_card: mode === "expert" ? "red" : null },
    { area_card: "bridges", neighbourhood_card: mode === "expert" ? "blue" : null },
  ];
  const { ctx } = context({
    names: NAMES.slice(0, 2),
    view: view({ mode, terminal: true, cards }),
    result: { players, ranking: [[1], [0]] },
  });
  return m.scorePad(ctx, t);
}

test("scorePad: a row per category of the mode, the totals, the tie-break, the cards revealed", () => {
  for (const mode of ["family", "expert"]) {
    const pad = finished(mode);
    const rows = byTag(byId(pad, "scorepad"), "tr");
    const head = (r) => byTag(r, "th").at(-1).textContent;
    const cells = (r) => texts(byTag(r, "td"));
    assert.equal(rows[0].childNodes.length, 3); // the category, then a column per seat
    const six = ["chic", "metro", "metro_card", "archaeology", "archaeology_card", "area"];
    const cats = mode === "expert" ? [...six, "neighbourhood", "highest"] : six;
    assert.deepEqual(
      rows.slice(1, -2).map(head),
      cats.map((c) => `cat.${c}`),
    );
    assert.deepEqual(cells(rows[1]), ["1", "2"]); // chic
    assert.deepEqual(cells(rows[2]), ["2", "3"]); // metro
    assert.deepEqual([head(rows.at(-2)), ...cells(rows.at(-2))], ["score.total", "10", "20"]);
    assert.deepEqual([head(rows.at(-1)), ...cells(rows.at(-1))], ["tie.built", "5", "6"]);
    const revealed = byId(pad, "revealed-cards");
    const seats = byTag(revealed, "li");
    assert.deepEqual(texts(seats.map((li) => byTag(li, "strong")[0])), ["Ada", "Bo"]);
    assert.deepEqual(
      texts(byClass(seats[1], "card-score")),
      mode === "expert" ? ['cardScored{"n":5}', 'cardScored{"n":4}'] : ['cardScored{"n":5}'],
    );
  }
});
