// The server's structured choices as the games' clients read them (issue 40, item 7): the
// entries of the chosen architect and spot (Quadropolis) or field (Metropolys), and what a
// spot's architect would take, said once in every language (the confirm sheet said "takes the
// takes the"). The shapes are those of each game's choices.py. Run by tests/cli/test_wording.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LANGS, translatorOf, client } from "./catalogue.mjs";

const quadropolis = await client("quadropolis");
const metropolys = await client("metropolys");

// choices.py: {architects: [{architect, spots: [{spot, square, site, tile, targets, discard,
// nothing}]}]}
const SPOT_L2 = {
  spot: "L2",
  square: "r2c1",
  site: "face-up",
  tile: "T12",
  targets: { r1c1: "1L2 r1c1", r2c1: "1L2 r2c1" },
  discard: "1L2 x",
  nothing: null,
};
const SPOT_T3 = {
  spot: "T3",
  square: "r1c3",
  site: "face-down",
  tile: null,
  targets: {},
  discard: null,
  nothing: "1T3 -",
};
const Q_CHOICES = {
  architects: [
    { architect: 1, spots: [SPOT_L2, SPOT_T3] },
    { architect: 3, spots: [{ ...SPOT_T3, square: "r3c3", site: "empty" }] },
  ],
};

test("Quadropolis: the chosen architect's and spot's entries, as far as chosen", () => {
  const at = (selection, choices = Q_CHOICES) => quadropolis.chosen({ choices, selection });
  assert.deepEqual(at({}), { architect: null, spot: null });
  assert.equal(at({ architect: 1 }).architect, Q_CHOICES.architects[0]);
  assert.equal(at({ architect: 1 }).spot, null);
  assert.equal(at({ architect: 1, spot: "T3" }).spot, SPOT_T3);
  assert.equal(at({ architect: 3, spot: "T3" }).spot.site, "empty"); // the same spot, another architect
  // what is not offered is nothing: an architect not in the choices, a spot of another one
  assert.deepEqual(at({ architect: 2, spot: "L2" }), { architect: null, spot: null });
  assert.equal(at({ architect: 3, spot: "L2" }).spot, null);
  // not this seat's turn: no choices at all
  assert.deepEqual(at({ architect: 1, spot: "L2" }, null), { architect: null, spot: null });
  // every move a spot offers is a leaf of the choices: the client sends it as it is
  const spot = at({ architect: 1, spot: "L2" }).spot;
  assert.deepEqual(Object.values(spot.targets), ["1L2 r1c1", "1L2 r2c1"]);
});

const VIEW = {
  site: [
    { square: "r2c1", state: "face-up", tile: { id: "T12", type: "shop", variant: null } },
    { square: "r1c3", state: "face-down", tile: null },
    { square: "r3c3", state: "empty", tile: null },
  ],
};

// the word for "takes" in each language: said once in a line, never twice
const TAKES = { en: /\btakes\b/g, de: /\bnimmt\b/g, pl: /\bbierze\b/g, it: /\bprende\b/g };

test("Quadropolis: what a spot's architect takes is said once, in every language", () => {
  for (const lang of LANGS) {
    const t = translatorOf("quadropolis", lang);
    const shop = t("type.shop");
    const lines = {
      faceUp: quadropolis.takesWords(SPOT_L2, VIEW, t),
      faceDown: quadropolis.takesWords(SPOT_T3, VIEW, t),
      empty: quadropolis.takesWords({ ...SPOT_T3, square: "r3c3", site: "empty" }, VIEW, t),
    };
    assert.ok(lines.faceUp.includes(shop), `${lang}: ${lines.faceUp}`);
    assert.ok(lines.faceUp.includes(t("square", { row: 2, col: 1 })), `${lang}: ${lines.faceUp}`);
    assert.ok(lines.faceDown.includes(t("square", { row: 1, col: 3 })), lang);
    assert.ok(lines.empty.includes(t("square", { row: 3, col: 3 })), lang);
    assert.notEqual(lines.faceDown, lines.empty, lang);
    for (const [kind, line] of Object.entries(lines)) {
      assert.equal(line.match(TAKES[lang])?.length, 1, `${lang} ${kind}: ${line}`);
      assert.doesNotMatch(line, /[{}]|\bundefined\b|\bnull\b/, `${lang} ${kind}: ${line}`);
    }
  }
  assert.equal(quadropolis.takesWords(null, VIEW, translatorOf("quadropolis", "en")), "");
});

// choices.py: {fields: [{field, values: [{value, move}]}], pass}
const M_CHOICES = {
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

test("Metropolys: the chosen field's values, or nothing", () => {
  const at = (selection, choices = M_CHOICES) => metropolys.chosenField({ choices, selection });
  assert.equal(at({}), null);
  assert.equal(at({ field: 9 }), M_CHOICES.fields[1]);
  assert.deepEqual(
    at({ field: 9 }).values.map((v) => v.move),
    ["7@9", "11@9"],
  );
  assert.equal(at({ field: 0 }), null); // field 0 is a field: not taken for "none"
  assert.equal(at({ field: 5 }), null); // not offered
  assert.equal(at({ field: 4 }, null), null); // not this seat's turn
  assert.equal(at({ field: 4 }, { fields: [], pass: "pass" }), null); // only a pass
});
