// Narration (issue 40, item 7): where the engine's events become the log's sentences, each
// game's `describe` in its client, in every language. Each sample event is told with nothing
// left unformatted, no word said twice in a row (the confirm sheet said "takes the takes the"),
// counts agreeing with their number (Polish: one, few, many) and names listed as the language
// lists them. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LANGS, translatorOf, client } from "./catalogue.mjs";

const games = { quadropolis: await client("quadropolis"), metropolys: await client("metropolys") };
const NAMES = ["Ada", "Bo", "Cy", "Dee"];

function tell(game, lang, key, params, view = {}) {
  const say = translatorOf(game, lang);
  return games[game].describe({ move: 3, key, params }, { names: NAMES, view }, say);
}

const Q_VIEW = { spots: ["L1", "L2", "L3", "L4", "L5"].map((spot) => ({ spot })) };
const SAMPLES = {
  quadropolis: [
    ["game_started", { mode: "classic", players: 3, first_player: 1 }],
    ["round_started", { round: 2, first_player: 2 }],
    ["site_revealed", { round: 1, layout: ["T1", null, "T2"] }],
    ["architect_placed", { player: 0, architect: 2, spot: "L3" }],
    ["urbanist_moved", { square: "r2c4" }],
    ["nothing_taken", { player: 1, reason: "face_down" }],
    ["nothing_taken", { player: 1, reason: "empty" }],
    ["building_built", { player: 2, kind: "shop", code: "s", city_square: "r1c2", floors: 1 }],
    ["building_built", { player: 0, kind: "tower_block", city_square: "r3c3", floors: 3 }],
    ["tile_discarded", { player: 3, kind: "park", code: "k" }],
    ["mayor_moved", { player: 0 }],
    ["round_ended", { round: 1 }],
    ["game_ended", { ranking: [[1], [0]], scores: [10, 31] }],
    ["game_ended", { ranking: [[0, 2], [1]], scores: [12, 3, 12] }],
  ],
  metropolys: [
    ["game_started", { mode: "family", players: 3, first_player: 0 }],
    ["round_started", { round: 1, player: 0 }],
    ["bid_placed", { player: 0, value: 8, field: 12 }],
    ["bid_raised", { player: 1, value: 9, field: 13, over_value: 8, over_field: 12 }],
    ["player_passed", { player: 2 }],
    ["bid_won", { player: 1, value: 9, field: 13, reason: "all_passed", returned: [] }],
    [
      "bid_won",
      {
        player: 0,
        value: 12,
        field: 2,
        reason: "all_passed",
        returned: [
          { player: 1, value: 3, field: 4 },
          { player: 2, value: 5, field: 6 },
          { player: 3, value: 7, field: 8 },
        ],
      },
    ],
    ["token_collected", { player: 1, token: "metro" }],
    ["card_changed_hands", { player: 1, card: "metro", from: null }],
    ["card_changed_hands", { player: 2, card: "archaeology", from: 1 }],
    ["game_ended", { ranking: [[2], [0, 1]], scores: [20, 20, 25] }],
  ],
};

test("every sample event is told in every language with nothing left unformatted", () => {
  for (const [game, samples] of Object.entries(SAMPLES)) {
    for (const lang of LANGS) {
      for (const [key, params] of samples) {
        const line = tell(game, lang, key, params, Q_VIEW);
        const where = `${game} ${lang} ${key}: ${line}`;
        assert.ok(line.length > 8, where);
        assert.doesNotMatch(line, /[{}]|\bundefined\b|\bNaN\b|\bevent\.|\breason\.|\?/, where);
        // no word (or pair of words) said twice in a row: "takes the takes the", "nimmt nimmt"
        assert.doesNotMatch(
          line,
          /(?<![\p{L}\d])([\p{L}]+(?: [\p{L}]+)?) \1(?![\p{L}\d])/iu,
          where,
        );
      }
    }
  }
});

test("a doubled verb would be caught", () => {
  const doubled = /(?<![\p{L}\d])([\p{L}]+(?: [\p{L}]+)?) \1(?![\p{L}\d])/iu;
  assert.match("Ada takes the takes the Shop", doubled);
  assert.match("Ada nimmt nimmt", doubled);
  assert.doesNotMatch("Ada takes the Shop", doubled);
});

// the buildings laid out face up, by count (Polish has four forms)
const FACE_UP = {
  en: { 1: "1 building", 2: "2 buildings", 5: "5 buildings", 22: "22 buildings" },
  de: { 1: "1 Gebäude", 2: "2 Gebäude", 5: "5 Gebäude", 22: "22 Gebäude" },
  pl: { 1: "1 budynek", 2: "2 budynki", 5: "5 budynków", 22: "22 budynki" },
  it: { 1: "1 edificio", 2: "2 edifici", 5: "5 edifici", 22: "22 edifici" },
};

test("counts agree with their number in every language", () => {
  for (const [lang, forms] of Object.entries(FACE_UP)) {
    for (const [n, words] of Object.entries(forms)) {
      const layout = [...Array(Number(n)).fill("T1"), null];
      const line = tell("quadropolis", lang, "site_revealed", { round: 1, layout });
      assert.ok(line.includes(words), `${lang} ${n}: ${line}`);
    }
  }
  const ONE = { en: "1 point", de: "1 Punkt", pl: "1 punktem", it: "1 punto" };
  const MANY = { en: "31 points", de: "31 Punkten", pl: "31 punktami", it: "31 punti" };
  for (const lang of LANGS) {
    for (const game of Object.keys(games)) {
      const one = tell(game, lang, "game_ended", { ranking: [[0]], scores: [1] });
      const many = tell(game, lang, "game_ended", { ranking: [[0]], scores: [31] });
      assert.ok(one.includes(ONE[lang]), `${game} ${lang}: ${one}`);
      assert.ok(many.includes(MANY[lang]), `${game} ${lang}: ${many}`);
    }
  }
});

const AND = { en: "Ada and Cy", de: "Ada und Cy", pl: "Ada i Cy", it: "Ada e Cy" };
const THREE = {
  en: "Bo, Cy, and Dee",
  de: "Bo, Cy und Dee",
  pl: "Bo, Cy i Dee",
  it: "Bo, Cy e Dee",
};

test("names are listed as the language lists them, and the verb agrees with them", () => {
  for (const lang of LANGS) {
    for (const game of Object.keys(games)) {
      const tie = tell(game, lang, "game_ended", { ranking: [[0, 2], [1]], scores: [9, 2, 9] });
      assert.ok(tie.includes(AND[lang]), `${game} ${lang}: ${tie}`);
    }
    const [, , , , , , [key, params]] = SAMPLES.metropolys;
    const three = tell("metropolys", lang, key, params);
    assert.ok(three.includes(THREE[lang]), `${lang}: ${three}`);
  }
  // the verb of several players (one player's is tests/js/verb_agreement.test.mjs)
  const en = tell("metropolys", "en", "bid_won", SAMPLES.metropolys[6][1]);
  assert.match(en, /Bo, Cy, and Dee take back their other bids\./);
  // nobody's bid went back: nothing said of it
  const none = tell("metropolys", "en", "bid_won", SAMPLES.metropolys[5][1]);
  assert.doesNotMatch(none, /take/);
});
