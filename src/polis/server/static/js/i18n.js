// Catalogues and lookup. The generic strings live in /static/i18n/<lang>.json; each game adds
// its own catalogue (served from the game's package), looked up first by that game's
// translator. The page re-renders on a language switch. Messages are ICU MessageFormat
// ({name}, plural, select), formatted by intl-messageformat (vendored, `make vendor`) with the
// browser's CLDR plural rules: the terminal formats the same catalogues in Python
// (polis.core.wording) to the same text.
import { IntlMessageFormat } from "../vendor/intl-messageformat.js";

export const LANGS = ["en", "de", "pl", "it"];
const GENERIC = "";
const sources = { [GENERIC]: "/static/i18n" }; // catalogue name -> URL prefix
const cache = {}; // "name:lang" -> catalogue
let lang = "en";
let current = {}; // catalogue name -> strings in the chosen language
let fallback = {}; // catalogue name -> English strings
const listeners = [];

// A game's catalogue: `${prefix}/<lang>.json`, read by translator(name).
export function addCatalogue(name, prefix) {
  sources[name] = prefix;
}

async function fetchCatalogue(name, code) {
  const key = `${name}:${code}`;
  if (!cache[key]) {
    try {
      const resp = await fetch(`${sources[name]}/${code}.json`);
      cache[key] = resp.ok ? await resp.json() : {};
    } catch {
      cache[key] = {};
    }
  }
  return cache[key];
}

async function loadAll(code) {
  const names = Object.keys(sources);
  const loaded = await Promise.all(names.map((name) => fetchCatalogue(name, code)));
  return Object.fromEntries(names.map((name, i) => [name, loaded[i]]));
}

export async function setLanguage(code) {
  if (!LANGS.includes(code)) code = "en";
  fallback = await loadAll("en");
  current = await loadAll(code);
  lang = code;
  localStorage.setItem("polis:lang", code);
  document.documentElement.lang = code;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const fn of listeners) fn(code);
}

export function language() {
  return lang;
}

export function onLanguage(fn) {
  listeners.push(fn);
}

export function initialLanguage() {
  const saved = localStorage.getItem("polis:lang");
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

function lookup(name, key) {
  return current[name]?.[key] ?? fallback[name]?.[key];
}

const compiled = new Map(); // language + message -> IntlMessageFormat (null: does not parse)

// One catalogue message with its arguments, in language `code`. A message that does not parse
// is shown as written (and told on the console); one called without all its arguments gets
// those it has, the others left as {name}: never dropped.
export function format(text, params, code = lang) {
  if (!/[{']/.test(text)) return text;
  const key = `${code}\u0000${text}`;
  let message = compiled.get(key);
  if (message === undefined) {
    try {
      message = new IntlMessageFormat(text, code, undefined, { ignoreTag: true });
    } catch (err) {
      console.error(`i18n: ${err.message}: ${text}`);
      message = null;
    }
    compiled.set(key, message);
  }
  if (!message) return text;
  try {
    return String(message.format(params ?? {}));
  } catch {
    return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
  }
}

// Names joined as the language lists them: "Ada, Bob and Cy" (CLDR, as Python's Babel).
export function formatList(items, code = lang) {
  return new Intl.ListFormat(code, { type: "conjunction" }).format(items.map(String));
}

// t(key, {name: "Ada"}) -> generic catalogue text formatted with the params; the key if missing.
export function t(key, params) {
  return format(lookup(GENERIC, key) ?? key, params);
}
t.list = (items) => formatList(items);

// The translator of one game: its own catalogue first, then the generic one. Its `list`
// joins names in the page's language.
export function translator(name) {
  const say = (key, params) => format(lookup(name, key) ?? lookup(GENERIC, key) ?? key, params);
  say.list = (items) => formatList(items);
  return say;
}
