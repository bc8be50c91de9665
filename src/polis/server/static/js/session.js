// The signed-in account, if any (accounts are optional: a guest plays by links as before).
//
// GET /api/account says who is signed in and gives the session's CSRF token (kept in memory
// by ui.js and sent with every state-changing request); it is asked again after signing in
// or out. "My games" counts the tables where it is the account's turn: asked every 30 s and
// whenever the page comes back into focus, for the header's menu and the lobby's link.
import { t } from "./i18n.js";
import { api, send, setCsrf, ApiError } from "./ui.js";
import { forgetSessionKeys } from "./tokens.js";

const POLL = 30_000;
const state = { account: null, ratings: [], loaded: false, turns: null, people: null };
const listeners = new Set();
let timer = null;

/** @returns {string | null} the signed-in account's name */
export function me() {
  return state.account?.name ?? null;
}

export function session() {
  return state;
}

// Call fn() whenever who is signed in, or the count of turns, changes; returns the stop.
export function onSession(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  for (const fn of [...listeners]) fn(state);
}

export async function refreshSession() {
  const was = me();
  try {
    const data = await api("/api/account", { cache: "no-store" });
    state.account = data.account ?? null;
    state.ratings = data.ratings ?? [];
    setCsrf(data.csrf ?? null);
  } catch {
    // the server is away: the page keeps what it knew
  }
  state.loaded = true;
  if (me() !== was) {
    state.people = null;
    state.turns = null;
  }
  changed();
  countTurns();
  return state;
}

// Sign in or up: the answer carries the new session's CSRF token.
export async function signIn(path, body) {
  const data = await send(path, body);
  setCsrf(data.csrf ?? null);
  return refreshSession();
}

export async function signOut() {
  try {
    await send("/api/account/logout", {});
  } finally {
    forgetSessionKeys();
    setCsrf(null);
    await refreshSession();
  }
}

// -- My games: the count of tables where it is the account's turn ---------------------------
async function countTurns() {
  clearTimeout(timer);
  if (!me()) return;
  try {
    const games = await api("/api/account/games", { cache: "no-store" });
    const turns = games.turn?.length ?? 0;
    if (turns !== state.turns) {
      state.turns = turns;
      changed();
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      await refreshSession(); // the session ended (signed out elsewhere, password changed)
      return;
    }
  }
  timer = setTimeout(countTurns, POLL);
}

export function recountTurns() {
  countTurns();
}

window.addEventListener("focus", () => me() && countTurns());
document.addEventListener("visibilitychange", () => !document.hidden && me() && countTurns());

// -- people blocked and muted ----------------------------------------------------------------
export async function people() {
  if (!me()) return { blocked: [], muted: [] };
  if (!state.people) {
    try {
      state.people = await api("/api/account/people", { cache: "no-store" });
    } catch {
      return { blocked: [], muted: [] };
    }
  }
  return state.people;
}

// Block or mute (`kind`: "block" or "mute") someone, or stop (on = false).
export async function setPerson(kind, name, on) {
  await send(`/api/account/${kind}`, { name, on });
  const list = kind === "block" ? "blocked" : "muted";
  const known = await people();
  const others = known[list].filter((n) => n !== name);
  state.people = { ...known, [list]: on ? [...others, name] : others };
  changed();
}

// -- errors in words ---------------------------------------------------------------------------
// The codes worded in the page's language; the server's own (English) words follow as detail.
const WORDED = [
  "unauthorized",
  "forbidden",
  "name_taken",
  "rate_limited",
  "not_found",
  "invalid",
  "unavailable",
  "seat_taken",
  "full",
  "bad_request",
];

// {text, detail}: what went wrong, in the page's language where the code is known; `own` maps
// codes to the words a page has for them ({unauthorized: t("signin.wrong")}).
export function errorWords(err, own = {}) {
  if (!(err instanceof ApiError)) return { text: err?.message || String(err), detail: "" };
  if (own[err.code]) return { text: own[err.code], detail: err.message };
  if (WORDED.includes(err.code))
    return { text: t(`account.error.${err.code}`), detail: err.message };
  return { text: err.message, detail: "" };
}

// A refusal of passkeys.js (a PasskeyError: the browser's or the server's `code`) in words.
const PASSKEY = {
  cancelled: "signin.passkeyCancelled",
  unsupported: "passkey.unsupported",
  wrong_host: "passkey.wrongHost",
  exists: "passkey.exists",
  failed: "passkey.failed",
};

export function passkeyWords(err, own = {}) {
  const code = err?.code;
  if (own[code]) return { text: own[code], detail: err.message };
  if (PASSKEY[code])
    return { text: t(PASSKEY[code]), detail: code === "cancelled" ? "" : err.message };
  if (WORDED.includes(code)) return { text: t(`account.error.${code}`), detail: err.message };
  return { text: err?.message || String(err), detail: "" };
}

// The same, as one line (toasts).
export function errorLine(err, own = {}) {
  const { text, detail } = errorWords(err, own);
  return detail && detail !== text ? `${text} (${detail})` : text;
}
