// @ts-check
// Small page-wide helpers: messages (toasts), the JSON API, copying a link with a visible
// confirmation.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * Shows a message for a while: an error (the default) for 6 s, anything else for 2.5 s.
 * @param {string} text
 * @param {"error" | "info" | string} [kind]
 */
export function toast(text, kind = "error") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), kind === "error" ? 6000 : 2500);
}

/** The error of an API request the server refused: its message, HTTP status and error code. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {string | undefined} code
   */
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A seat as every client may see it (wire/to_client: SeatJSON).
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {string} name  empty for an open seat nobody has taken yet
 * @property {string} kind  human or bot
 * @property {string | null} level  a bot seat's level
 * @property {boolean} connected
 * @property {boolean} vacant
 * @property {string | null} stand_in  the level of the bot playing a person's seat now
 * @property {string | null} stand_in_why
 * @property {string | null} [account]  the account the seat is bound to
 */

/**
 * A game's summary (GET /api/games/{id}, routes/api.py).
 * @typedef {object} GameSummary
 * @property {string} id
 * @property {string} game
 * @property {string} mode
 * @property {number} players
 * @property {SeatInfo[]} seats
 * @property {number} position
 * @property {boolean} finished
 * @property {number} current_player  -1 once over
 * @property {string | null} rematch_of
 * @property {string | null} rematch_id
 * @property {boolean} seed_chosen
 * @property {boolean} listed
 * @property {boolean} chat_spectators
 * @property {boolean} hints
 * @property {boolean} rated
 * @property {boolean} bots
 */

/**
 * A game as GET /api/meta lists it: its modes, how many play, and where its browser client is
 * (null: a game played through the API only).
 * @typedef {object} GameMeta
 * @property {string} title
 * @property {string[]} modes
 * @property {number} min_players
 * @property {number} max_players
 * @property {{script: string, style: string | null, i18n: string} | null} client
 */

/**
 * GET /api/meta: the games served, the bot levels and the languages.
 * @typedef {{games: Record<string, GameMeta>, levels: string[], languages: string[],
 *   [feature: string]: unknown}} Meta
 */

/**
 * A game's client module (its web/client.js, see app.js), as far as the pages outside the
 * table use it.
 * @typedef {{PLAYER_COLOURS: string[], picture?: () => Element,
 *   ABOUT?: {minutes: [number, number]}, [part: string]: any}} GameClient
 */

// The signed-in session's CSRF token (from GET /api/account, kept in memory only): every
// state-changing request sends it in X-CSRF-Token, which a page of another site cannot read.
/** @type {string | null} */
let csrf = null;
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** @param {string | null | undefined} token */
export function setCsrf(token) {
  csrf = token || null;
}

/** @returns {string | null} */
export function csrfToken() {
  return csrf;
}

/**
 * A request to the JSON API: its answer, or an ApiError with the server's message.
 * @param {string} path
 * @param {RequestInit} [options]
 * @returns {Promise<any>} the answer's JSON (the caller names its type)
 */
export async function api(path, options = {}) {
  const method = (options.method || "GET").toUpperCase();
  const headers = new Headers(options.headers || {});
  if (!SAFE.has(method) && csrf) headers.set("X-CSRF-Token", csrf);
  const resp = await fetch(path, { credentials: "same-origin", ...options, headers });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const message =
      data?.error?.message || (data.detail ? JSON.stringify(data.detail) : resp.statusText);
    throw new ApiError(message, resp.status, data?.error?.code);
  }
  return data;
}

// A JSON request that changes something: POST (or `method`) with `body` as JSON.
/**
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [method]
 * @returns {Promise<any>}
 */
export function send(path, body, method = "POST") {
  return api(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

/**
 * @param {string} text
 * @param {HTMLInputElement} [input]
 * @returns {Promise<boolean>} whether the text was copied
 */
async function writeClipboard(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // no clipboard access (an insecure origin, or no permission): select the text instead
    if (input) {
      input.focus();
      input.select();
    }
    return false;
  }
}

// A read-only field with the link and a Copy button that says when the link was copied.
/**
 * @param {string} link
 * @param {import("./dom.js").Attrs} [attrs]
 * @returns {HTMLDivElement}
 */
export function copyField(link, attrs = {}) {
  const input = h("input", {
    readonly: true,
    value: link,
    ...attrs,
    "aria-label": attrs["aria-label"] ?? t("links.link"),
    on: { focus: (e) => e.target.select() },
  });
  const button = h("button", { class: "copy", type: "button", text: t("lobby.copy") });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  button.addEventListener("click", async () => {
    const done = await writeClipboard(link, input);
    button.textContent = done ? `✓ ${t("lobby.copied")}` : t("lobby.copyManual");
    toast(done ? t("lobby.copiedToast") : t("lobby.copyManual"), "info");
    clearTimeout(timer);
    timer = setTimeout(() => (button.textContent = t("lobby.copy")), 2500);
  });
  return h("div", { class: "invite" }, [input, button]);
}
