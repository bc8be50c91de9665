// The verb agrees with who does it (issue 40: "Bot 2 (easy) take back their other bids", and
// "nehmen", "riprendono" for one player): the log's line of a call won, as the page words it
// through Metropolys's `describe`, in every language, for one and for two players taking their
// other bids back. Run by tests/cli/test_wording.py (node --test tests/js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, formatList } from "/static/js/i18n.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function catalogue(file) {
  return JSON.parse(readFileSync(path.join(ROOT, file), "utf-8"));
}

function translatorOf(game, lang) {
  const chain = [
    catalogue(`src/polis/games/${game}/web/i18n/${lang}.json`),
    catalogue(`src/polis/server/static/i18n/${lang}.json`),
  ];
  const say = (key, params) => format(chain.find((c) => key in c)?.[key] ?? key, params, lang);
  say.list = (items) => formatList(items, lang);
  return say;
}

const NAMES = ["Ada", "Bot 2 (easy)", "Cy"];

function won(returned) {
  return {
    move: 7,
    key: "bid_won",
    params: { player: 0, value: 5, field: 3, reason: "all_passed", returned },
  };
}

// one player takes back two bids; two players take back one bid each
const ONE = won([
  { player: 1, value: 3, field: 4 },
  { player: 1, value: 4, field: 6 },
]);
const TWO = won([
  { player: 1, value: 3, field: 4 },
  { player: 2, value: 4, field: 6 },
]);

// the verb for one player, the verb for several (and what must not be said of one)
const VERBS = {
  en: {
    one: /Bot 2 \(easy\) takes back their other bids\./,
    many: /Bot 2 \(easy\) and Cy take back/,
    wrongOne: /\btake back/,
  },
  de: {
    one: /Bot 2 \(easy\) nimmt die anderen Gebote zurück\./,
    many: /Bot 2 \(easy\) und Cy nehmen/,
    wrongOne: /\bnehmen\b/,
  },
  pl: {
    one: /Bot 2 \(easy\) odbiera pozostałe oferty\./,
    many: /Bot 2 \(easy\) i Cy odbierają/,
    wrongOne: /\bodbierają\b/,
  },
  it: {
    one: /Bot 2 \(easy\) riprende le altre offerte\./,
    many: /Bot 2 \(easy\) e Cy riprendono/,
    wrongOne: /\briprendono\b/,
  },
};

test("a call won says 'takes back' of one player and 'take back' of two, in every language", async () => {
  const client = await import(
    pathToFileURL(path.join(ROOT, "src/polis/games/metropolys/web/client.js")).href
  );
  for (const [lang, verbs] of Object.entries(VERBS)) {
    const t = translatorOf("metropolys", lang);
    const one = client.describe(ONE, { names: NAMES, view: {} }, t);
    const many = client.describe(TWO, { names: NAMES, view: {} }, t);
    assert.match(one, verbs.one, `${lang}: ${one}`);
    assert.doesNotMatch(one, verbs.wrongOne, `${lang}: ${one}`);
    assert.match(many, verbs.many, `${lang}: ${many}`);
  }
});

// The end screen counts points with the language's plural rules ("1 points" was said).
const ONE_POINT = {
  en: "Ada wins with 1 point!",
  de: "Ada gewinnt mit 1 Punkt!",
  pl: "Wygrywa Ada z 1 punktem!",
  it: "Vince Ada con 1 punto!",
};
const POINTS = {
  en: "Ada wins with 5 points!",
  de: "Ada gewinnt mit 5 Punkten!",
  pl: "Wygrywa Ada z 5 punktami!",
  it: "Vince Ada con 5 punti!",
};

test("the winner's points agree with their number in every language", () => {
  for (const lang of Object.keys(ONE_POINT)) {
    const wins = catalogue(`src/polis/server/static/i18n/${lang}.json`)["end.wins"];
    assert.equal(format(wins, { name: "Ada", score: 1 }, lang), ONE_POINT[lang]);
    assert.equal(format(wins, { name: "Ada", score: 5 }, lang), POINTS[lang]);
  }
});
