// The browser words the catalogues as the terminal does: every message, and every sample
// event through each game's `describe`, gives the text Python gave (the fixture is written
// by tests/test_wording.py and named by POLIS_WORDING_FIXTURE; without it this test skips).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { format, formatList } from "/static/js/i18n.js";
import { client, translatorOf } from "./catalogue.mjs";

const FIXTURE = process.env.POLIS_WORDING_FIXTURE;
const fixture = FIXTURE ? JSON.parse(readFileSync(FIXTURE, "utf-8")) : null;

test("every catalogue message formats to Python's text", { skip: !fixture }, () => {
  const wrong = [];
  for (const { lang, text, params, expected } of fixture.messages) {
    const got = format(text, params, lang);
    if (got !== expected) wrong.push({ lang, text, params, expected, got });
  }
  assert.deepEqual(wrong.slice(0, 5), []);
  assert.ok(fixture.messages.length > 100);
});

test("names are listed as Python lists them", { skip: !fixture }, () => {
  for (const { lang, names, expected } of fixture.lists)
    assert.equal(formatList(names, lang), expected);
});

test("every sample event is told as the terminal tells it", { skip: !fixture }, async () => {
  const clients = {};
  let told = 0;
  for (const { game, lang, names, view, event, expected } of fixture.events) {
    clients[game] ??= await client(game);
    const got = clients[game].describe(event, { names, view }, translatorOf(game, lang));
    assert.equal(got, expected, `${game} ${lang} ${event.key}`);
    told += 1;
  }
  assert.ok(told > 40);
});
