// The browser words the catalogues as the terminal does: every message, and every sample
// event through each game's `describe`, gives the text Python gave (the fixture is written
// by tests/test_wording.py and named by POLIS_WORDING_FIXTURE; without it this test skips).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, formatList } from "/static/js/i18n.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
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

function catalogue(file) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, file), "utf-8"));
  } catch {
    return {};
  }
}

// A game's translator as the page builds it: its catalogue, then the generic one, English last.
function translatorOf(game, lang) {
  const chain = [lang, "en"].flatMap((code) => [
    catalogue(`src/polis/games/${game}/web/i18n/${code}.json`),
    catalogue(`src/polis/server/static/i18n/${code}.json`),
  ]);
  const say = (key, params) => format(chain.find((c) => key in c)?.[key] ?? key, params, lang);
  say.list = (items) => formatList(items, lang);
  return say;
}

test("every sample event is told as the terminal tells it", { skip: !fixture }, async () => {
  const clients = {};
  let told = 0;
  for (const { game, lang, names, view, event, expected } of fixture.events) {
    clients[game] ??= await import(
      pathToFileURL(path.join(ROOT, `src/polis/games/${game}/web/client.js`)).href
    );
    const got = clients[game].describe(event, { names, view }, translatorOf(game, lang));
    assert.equal(got, expected, `${game} ${lang} ${event.key}`);
    told += 1;
  }
  assert.ok(told > 40);
});
