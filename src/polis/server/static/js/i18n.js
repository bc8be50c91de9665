// @ts-check
// Catalogues and lookup. The generic strings live in /static/i18n/<lang>.json; each game adds
// its own catalogue (served from the game's package), looked up first by that game's
// translator. The page re-renders on a language switch. Messages are ICU MessageFormat
// ({name}, plural, select), formatted by intl-messageformat (vendored, `make vendor`) with the
// browser's CLDR plural rules: the terminal formats the same catalogues in Python
// (polis.core.wording) to the same text.
import { IntlMessageFormat } from "../vendor/intl-messageformat.js";

export const LANGS = ["en", "de", "pl", "it"];
const GENERIC = "";
/** @typedef {Record<string, string>} Catalogue  message key -> ICU MessageFormat text */

/** @type {Record<string, string>} catalogue name -> URL prefix */
const sources = { [GENERIC]: "/static/i18n" };
/** @type {Record<string, Catalogue>} "name:lang" -> catalogue */
const cache = {};
let lang = "en";
/** @type {Record<string, Catalogue>} catalogue name -> strings in the chosen language */
let current = {};
/** @type {Record<string, Catalogue>} catalogue name -> English strings */
let fallback = {};
/** @type {((code: string) => void)[]} */
const listeners = [];

// A game's catalogue: `${prefix}/<lang>.json`, read by translator(name).
/**
 * @param {string} name
 * @param {string} prefix
 */
export function addCatalogue(name, prefix) {
  sources[name] = prefix;
}

/**
 * @param {string} name
 * @param {string} code
 * @returns {Promise<Catalogue>}
 */
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

/**
 * @param {string} code
 * @returns {Promise<Record<string, Catalogue>>}
 */
async function loadAll(code) {
  const names = Object.keys(sources);
  const loaded = await Promise.all(names.map((name) => fetchCatalogue(name, code)));
  return Object.fromEntries(names.map((name, i) => [name, loaded[i]]));
}

/** How many languages were asked for: a switch whose catalogues arrive after a later one's
 * changes nothing (the page's first language, still loading, must not undo the reader's). */
let asked = 0;

/** @param {string} code */
export async function setLanguage(code) {
  if (!LANGS.includes(code)) code = "en";
  const mine = ++asked;
  const english = await loadAll("en");
  const chosen = await loadAll(code);
  if (mine !== asked) return;
  fallback = english;
  current = chosen;
  lang = code;
  localStorage.setItem("polis:lang", code);
  document.documentElement.lang = code;
  for (const el of document.querySelectorAll("[data-i18n]"))
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  for (const fn of listeners) fn(code);
}

/** @returns {string} */
export function language() {
  return lang;
}

/** @param {(code: string) => void} fn */
export function onLanguage(fn) {
  listeners.push(fn);
}

/** @returns {string} */
export function initialLanguage() {
  const saved = localStorage.getItem("polis:lang");
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

/**
 * @param {string} name
 * @param {string} key
 * @returns {string | undefined}
 */
function lookup(name, key) {
  return current[name]?.[key] ?? fallback[name]?.[key];
}

/** @type {Map<string, {format: (values: Params) => unknown} | null>} language + message -> its formatter (null: does not parse) */
const compiled = new Map();

// One catalogue message with its arguments, in language `code`. A message that does not parse
// is shown as written (and told on the console); one called without all its arguments gets
// those it has, the others left as {name}: never dropped.
/**
 * @typedef {Record<string, any>} Params  a message's arguments
 */

/**
 * @param {string} text
 * @param {Params | null} [params]
 * @param {string} [code]
 * @returns {string}
 */
export function format(text, params, code = lang) {
  if (!/[{']/.test(text)) return text;
  const key = `${code}\u0000${text}`;
  let message = compiled.get(key);
  if (message === undefined) {
    try {
      message = new IntlMessageFormat(text, code, undefined, { ignoreTag: true });
    } catch (err) {
      console.error(`i18n: ${/** @type {Error} */ (err).message}: ${text}`);
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
/**
 * @param {unknown[]} items
 * @param {string} [code]
 * @returns {string}
 */
export function formatList(items, code = lang) {
  return new Intl.ListFormat(code, { type: "conjunction" }).format(items.map(String));
}

/**
 * A translator: a message by its key, formatted with its arguments (the key if missing), and
 * `list` joining names in the page's language.
 * @typedef {((key: string, params?: Params | null) => string) & {list: (items: unknown[]) => string}} Translator
 */

// t(key, {name: "Ada"}) -> generic catalogue text formatted with the params; the key if missing.
/**
 * @param {string} key
 * @param {Params | null} [params]
 * @returns {string}
 */
export function t(key, params) {
  return format(lookup(GENERIC, key) ?? key, params);
}
t.list = (/** @type {unknown[]} */ items) => formatList(items);
// The translator of one game: its own catalogue first, then the generic one. Its `list`
// joins names in the page's language.
/**
 * @param {string} name
 * @returns {Translator}
 */
export function translator(name) {
  /** @type {(key: string, params?: Params | null) => string} */
  const say = (key, params) => format(lookup(name, key) ?? lookup(GENERIC, key) ?? key, params);
  return Object.assign(say, { list: (/** @type {unknown[]} */ items) => formatList(items) });
}
