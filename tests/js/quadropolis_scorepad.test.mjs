// The Quadropolis client's pure parts besides narration and choices (issue 40, item 7): the
// score pad's rows (the end's table), the running score's words (its label, tooltip and
// accessible description), the progress line and the log lines that stand out. The shapes
// are those of scoring.py's reports and view_json.py's running_score. Run by
// tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LANGS, translatorOf, client } from "./catalogue.mjs";

const q = await client("quadropolis");

const CLASSIC = [
  "tower_blocks",
  "shops",
  "public_services",
  "parks",
  "factories",
  "harbors",
  "inhabitants_penalty",
  "energy_penalty",
];
const EXPERT = [...CLASSIC.slice(0, 6), "office_towers", "monuments", ...CLASSIC.slice(6)];

// A city's score (every category is in a report, the Expert ones 0 in Classic).
function score(total, categories, onBuildings, empty) {
  const all = Object.fromEntries(EXPERT.map((c) => [c, 0]));
  return {
    total,
    categories: { ...all, ...categories },
    inhabitants_on_buildings: onBuildings,
    empty_squares: empty,
  };
}
const ADA = score(
  31,
  { tower_blocks: 8, shops: 12, parks: 5, harbors: 9, energy_penalty: -3 },
  7,
  2,
);
const BO = score(12, { factories: 10, public_services: 4, inhabitants_penalty: -2 }, 3, 5);
const CY = score(25, { office_towers: 14, monuments: 6, shops: 5 }, 4, 1);

test("the score pad's categories: Classic has no office towers nor monuments", () => {
  assert.deepEqual(q.padCategories("classic"), CLASSIC);
  assert.deepEqual(q.padCategories("expert"), EXPERT);
});

test("the score pad's rows: the categories, the total, the two tie-breaks, a column per city", () => {
  const t = translatorOf("quadropolis", "en");
  const rows = q.padRows([ADA, BO], "classic", t);
  assert.deepEqual(
    rows.map((r) => r.label),
    [
      "Tower Blocks",
      "Shops",
      "Public Services",
      "Parks",
      "Factories",
      "Harbors",
      "Unused Inhabitants",
      "Pollution (unused Energy)",
      "Total",
      "Inhabitants on buildings (tie-break)",
      "Empty spaces (tie-break)",
    ],
  );
  assert.deepEqual(
    rows.map((r) => r.values),
    [
      [8, 0],
      [12, 0],
      [0, 4],
      [5, 0],
      [0, 10],
      [9, 0],
      [0, -2],
      [-3, 0],
      [31, 12],
      [7, 3],
      [2, 5],
    ],
  );
  assert.deepEqual(
    rows.map((r) => r.cls),
    [...CLASSIC.map(() => null), "total", "tie", "tie"],
  );
  // Expert: office towers and monuments after the harbors; one city alone, one column
  const expert = q.padRows([CY], "expert", t);
  assert.equal(expert.length, EXPERT.length + 3);
  assert.deepEqual(expert[6], { label: "Office Towers", cls: null, values: [14] });
  assert.deepEqual(expert[7], { label: "Monuments", cls: null, values: [6] });
  assert.deepEqual(expert.at(-3).values, [25]);
  // no city, no column (a pad's rows are still all there)
  assert.deepEqual(
    q.padRows([], "classic", t).map((r) => r.values),
    rows.map(() => []),
  );
});

test("every row of the score pad is worded, and told apart from the others, in every language", () => {
  for (const lang of LANGS) {
    const t = translatorOf("quadropolis", lang);
    for (const mode of ["classic", "expert"]) {
      const labels = q.padRows([ADA, BO, CY], mode, t).map((r) => r.label);
      for (const label of labels) {
        assert.ok(label.trim(), `${lang} ${mode}: an empty row label`);
        assert.doesNotMatch(label, /^(cat|score|tie)\.|[{}]/, `${lang} ${mode}: ${label}`);
      }
      assert.equal(new Set(labels).size, labels.length, `${lang} ${mode}: ${labels}`);
    }
  }
});

test("the running score's words: its label and the pad's category rows", () => {
  const en = translatorOf("quadropolis", "en");
  const going = q.runningWords(ADA, "classic", false, en);
  assert.equal(going.label, "31 points so far");
  assert.equal(going.rows.length, CLASSIC.length);
  assert.equal(going.rows[0], "Tower Blocks: 8");
  assert.equal(going.rows.at(-1), "Pollution (unused Energy): -3"); // a penalty, negative
  assert.equal(q.runningWords(score(1, {}, 0, 0), "classic", false, en).label, "1 point so far");
  assert.equal(q.runningWords(ADA, "classic", true, en).label, "31 points in all");
  // the rows are the score pad's, category by category, in every language and mode
  for (const lang of LANGS) {
    const t = translatorOf("quadropolis", lang);
    for (const mode of ["classic", "expert"]) {
      const { label, rows } = q.runningWords(CY, mode, false, t);
      assert.match(label, /\b25\b/, `${lang}: ${label}`);
      const pad = q.padRows([CY], mode, t).filter((r) => r.cls === null);
      assert.deepEqual(
        rows,
        pad.map((r) => `${r.label}: ${r.values[0]}`),
        `${lang} ${mode}`,
      );
    }
  }
  // Polish counts: one, few, many
  const pl = translatorOf("quadropolis", "pl");
  const said = (n) => q.runningWords(score(n, {}, 0, 0), "classic", false, pl).label;
  assert.equal(said(1), "1 punkt do tej pory");
  assert.equal(said(22), "22 punkty do tej pory");
  assert.equal(said(25), "25 punktów do tej pory");
});

test("the progress line: the round of how many and the turn, or the game over", () => {
  for (const lang of LANGS) {
    const t = translatorOf("quadropolis", lang);
    const line = q.progress({ finished: false, round: 3, rounds: 4, turn: 2 }, t);
    assert.deepEqual(line.match(/\d+/g), ["3", "4", "2"], `${lang}: ${line}`);
    const over = q.progress({ finished: true, round: 4, rounds: 4, turn: 4 }, t);
    assert.equal(over, t("finished"));
    assert.doesNotMatch(over, /\d|^finished$/, `${lang}: ${over}`);
  }
  assert.equal(
    q.progress(
      { finished: false, round: 1, rounds: 4, turn: 3 },
      translatorOf("quadropolis", "en"),
    ),
    "round 1 of 4, turn 3",
  );
});

test("the log lines that stand out: a round's start, the Mayor's move and the end", () => {
  const kind = (key) => q.eventKind({ move: 0, key, params: {} });
  assert.equal(kind("round_started"), "round");
  assert.equal(kind("mayor_moved"), "win");
  assert.equal(kind("game_ended"), "win");
  for (const key of [
    "game_started",
    "site_revealed",
    "architect_placed",
    "urbanist_moved",
    "building_built",
    "tile_discarded",
    "nothing_taken",
    "round_ended",
  ])
    assert.equal(kind(key), "", key);
});
