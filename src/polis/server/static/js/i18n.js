// Catalogues and lookup. The generic strings live in /static/i18n/<lang>.json; each game adds
// its own catalogue (served from the game's package), looked up first by that game's
// translator. The page re-renders on a language switch.
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

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// t(key, {name: "Ada"}) -> generic catalogue text with {name} filled in; the key if missing.
export function t(key, params) {
  return fill(lookup(GENERIC, key) ?? key, params);
}

// The translator of one game: its own catalogue first, then the generic one.
export function translator(name) {
  return (key, params) => fill(lookup(name, key) ?? lookup(GENERIC, key) ?? key, params);
}

