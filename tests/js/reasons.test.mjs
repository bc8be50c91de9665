// The review's reasons are worded in the browser as in the terminal: a reason's nested
// reasons first, then its own message (static/js/reasons.js). With the fixture that
// tests/bots/test_review_words.py writes (POLIS_REASONS_FIXTURE), every reason the games gave
// there, in every language, against Python's text; without it, one reason of each game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { translatorOf } from "./catalogue.mjs";
import { words } from "/static/js/reasons.js";

const FIXTURE = process.env.POLIS_REASONS_FIXTURE;

test("a reason is worded as the terminal words it", () => {
  const cases = FIXTURE
    ? JSON.parse(readFileSync(FIXTURE, "utf-8"))
    : [
        {
          game: "quadropolis",
          lang: "en",
          reason: {
            key: "review.now",
            params: {
              best: {
                key: "review.do.build",
                params: {
                  tile: { key: "type.harbor", params: {} },
                  square: { key: "square", params: { row: 2, col: 3 } },
                },
              },
              played: { key: "review.did.discard", params: { tile: { key: "type.shop" } } },
              points: 6,
              why: { key: "review.why.harbors", params: { n: 2 } },
            },
          },
          expected:
            "Building the Harbor at row 2, column 3 instead of discarding the Shop would " +
            "have scored 6 more points at once (it lines up with your 2 other Harbors).",
        },
        {
          game: "metropolys",
          lang: "de",
          reason: {
            key: "review.better",
            params: {
              best: { key: "review.do.pass", params: {} },
              played: { key: "review.did.bid", params: { value: 12, field: 5 } },
              why: { key: "review.why.outbid", params: { n: 1 } },
            },
          },
          expected:
            "Besser: passen statt eine 12 auf Stadtviertel 5 setzen – ein Gebot, das nicht " +
            "gewinnen konnte: ein Mitspieler in dieser Ausschreibung hat noch ein höheres Gebäude.",
        },
      ];
  const wrong = [];
  for (const { game, lang, reason, expected } of cases) {
    const got = words(reason, translatorOf(game, lang));
    if (got !== expected) wrong.push({ game, lang, expected, got });
  }
  assert.deepEqual(wrong.slice(0, 5), []);
  assert.ok(cases.length >= 2);
});
