// The page's language: the last one asked for wins, whatever order the catalogues arrive in
// (the page's first language, still loading when the reader picks another, must not undo it).
import { test } from "node:test";
import assert from "node:assert/strict";

const delays = { en: 60, de: 0 };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.fetch = async (url) => {
  const code = /\/(\w+)\.json$/.exec(String(url))?.[1] ?? "en";
  await new Promise((done) => setTimeout(done, delays[code] ?? 0));
  return { ok: true, json: async () => ({ hello: code === "de" ? "Hallo" : "Hello" }) };
};

const { setLanguage, language, t } = await import("/static/js/i18n.js");

test("a language picked while the first still loads is the one that stays", async () => {
  const first = setLanguage("en"); // slow: its catalogues come last
  delays.en = 0;
  await setLanguage("de");
  await first;
  assert.equal(language(), "de");
  assert.equal(t("hello"), "Hallo");
});
