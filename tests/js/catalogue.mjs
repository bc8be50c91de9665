// The catalogues as the page chains them, for the unit tests (not a test itself): a game's
// translator in one language, its own catalogue first, then the generic one, English last.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, formatList } from "/static/js/i18n.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const LANGS = ["en", "de", "pl", "it"];

export function catalogue(file) {
  return JSON.parse(readFileSync(path.join(ROOT, file), "utf-8"));
}

export function translatorOf(game, lang) {
  const chain = [lang, "en"].flatMap((code) => [
    catalogue(`src/polis/games/${game}/web/i18n/${code}.json`),
    catalogue(`src/polis/server/static/i18n/${code}.json`),
  ]);
  const say = (key, params) => format(chain.find((c) => key in c)?.[key] ?? key, params, lang);
  say.list = (items) => formatList(items, lang);
  return say;
}

// A game's web client, imported as the page imports it.
export function client(game) {
  return import(pathToFileURL(path.join(ROOT, `src/polis/games/${game}/web/client.js`)).href);
}
