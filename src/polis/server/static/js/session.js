// @ts-check
// The signed-in account, if any (accounts are optional: a guest plays by links as before).
//
// GET /api/account says who is signed in and gives the session's CSRF token (kept in memory
// by ui.js and sent with every state-changing request); it is asked again after signing in
// or out. "My games" counts the tables where it is the account's turn: asked every 30 s and
// whenever the page comes back into focus, for the header's menu and the lobby's link.
import { t } from "./i18n.js";
import { api, send, setCsrf, ApiError } from "./ui.js";
import { forgetSessionKeys } from "./tokens.js";

/**
 * The signed-in account (GET /api/account, routes/accounts.py's me()).
 * @typedef {{name: string, bot: boolean}} Account
 */

/**
 * One of an account's ratings (accounts/profiles.py's rating_json): `rating` is the one people
 * see; provisional until enough games are played.
 * @typedef {{
 *   game: string,
 *   mode: string,
 *   rating: number,
 *   mu: number,
 *   sigma: number,
 *   games: number,
 *   provisional: boolean,
 * }} Rating
 */

/**
 * GET /api/account (a guest's answer has only `account`: null); signing in or up answers
 * the account and the CSRF token.
 * @typedef {{account: Account | null, csrf?: string, ratings?: Rating[]}} AccountAnswer
 */

/**
 * The names the account blocks and mutes (GET /api/account/people).
 * @typedef {{blocked: string[], muted: string[]}} People
 */

/**
 * What the page knows of the session: `loaded` once the server has been asked; `turns` (the
 * tables where it is the account's turn) and `people` once counted or asked, null before.
 * @typedef {{
 *   account: Account | null,
 *   ratings: Rating[],
 *   loaded: boolean,
 *   turns: number | null,
 *   people: People | null,
 * }} Session
 */

/**
 * What went wrong in words: `text` in the page's language where it can be, and `detail`, the
 * server's own words (or "").
 * @typedef {{text: string, detail: string}} Words
 */

/** @typedef {Record<string, string>} OwnWords  error codes -> a page's own words for them */

const POLL = 30_000;
/** @type {Session} */
const state = { account: null, ratings: [], loaded: false, turns: null, people: null };
/** @type {Set<(state: Session) => void>} */
const listeners = new Set();
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/** @returns {string | null} the signed-in account's name */
export function me() {
  return state.account?.name ?? null;
}

/** @returns {Session} */
export function session() {
  return state;
}

// Call fn() whenever who is signed in, or the count of turns, changes; returns the stop.
/**
 * @param {(state: Session) => void} fn
 * @returns {() => boolean}
 */
export function onSession(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  for (const fn of [...listeners]) fn(state);
}

/** @returns {Promise<Session>} */
export async function refreshSession() {
  const was = me();
  try {
    /** @type {AccountAnswer} */
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
/**
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<Session>}
 */
export async function signIn(path, body) {
  /** @type {AccountAnswer} */
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
    /** @type {import("./mygames.js").MyGames} */
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
/** @returns {Promise<People>} */
export async function people() {
  if (!me()) return { blocked: [], muted: [] };
  if (state.people) return state.people;
  try {
    /** @type {People} */
    const found = await api("/api/account/people", { cache: "no-store" });
    state.people = found;
    return found;
  } catch {
    return { blocked: [], muted: [] };
  }
}

// Block or mute (`kind`: "block" or "mute") someone, or stop (on = false).
/**
 * @param {"block" | "mute"} kind
 * @param {string} name
 * @param {boolean} on
 */
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
/**
 * @param {unknown} err
 * @param {OwnWords} [own]
 * @returns {Words}
 */
export function errorWords(err, own = {}) {
  if (!(err instanceof ApiError)) return { text: messageOf(err), detail: "" };
  const code = err.code ?? "";
  if (own[code]) return { text: own[code], detail: err.message };
  if (WORDED.includes(code)) return { text: t(`account.error.${code}`), detail: err.message };
  return { text: err.message, detail: "" };
}

// An error's message: its own words, or the error written out.
/** @param {unknown} err */
function messageOf(err) {
  const message = err instanceof Object && "message" in err ? err.message : "";
  return (typeof message === "string" && message) || String(err);
}

// A refusal of passkeys.js (a PasskeyError: the browser's or the server's `code`) in words.
/** @type {Record<string, string>} */
const PASSKEY = {
  cancelled: "signin.passkeyCancelled",
  unsupported: "passkey.unsupported",
  wrong_host: "passkey.wrongHost",
  exists: "passkey.exists",
  failed: "passkey.failed",
};

/**
 * @param {{code?: string, message: string}} err
 * @param {OwnWords} [own]
 * @returns {Words}
 */
export function passkeyWords(err, own = {}) {
  const code = err.code ?? "";
  if (own[code]) return { text: own[code], detail: err.message };
  if (PASSKEY[code])
    return { text: t(PASSKEY[code]), detail: code === "cancelled" ? "" : err.message };
  if (WORDED.includes(code)) return { text: t(`account.error.${code}`), detail: err.message };
  return { text: err.message || String(err), detail: "" };
}

// The same, as one line (toasts).
/**
 * @param {unknown} err
 * @param {OwnWords} [own]
 * @returns {string}
 */
export function errorLine(err, own = {}) {
  const { text, detail } = errorWords(err, own);
  return detail && detail !== text ? `${text} (${detail})` : text;
}
