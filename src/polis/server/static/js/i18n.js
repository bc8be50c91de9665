// Catalogues (static/i18n/<lang>.json) and lookup; the page re-renders on a language switch.
const cache = {};
let lang = "en";
let current = {};
let fallback = {};
const listeners = [];

export const LANGS = ["en", "de", "pl", "it"];

async function load(code) {
  if (!cache[code]) {
    const resp = await fetch(`/static/i18n/${code}.json`);
    cache[code] = await resp.json();
  }
  return cache[code];
}

export async function setLanguage(code) {
  if (!LANGS.includes(code)) code = "en";
  fallback = await load("en");
  current = await load(code);
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

// t("key", {name: "Ada"}) -> catalogue text with {name} filled in; the key itself if missing.
export function t(key, params) {
  let text = current[key] ?? fallback[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return text;
}
