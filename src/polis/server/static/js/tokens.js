// @ts-check
// The seat tokens this browser holds, per game: localStorage "polis:tokens:<game id>" maps a
// seat number (or "?n" until the server says which seat a token is) to its token.
/** @param {string} gameId */
const key = (gameId) => `polis:tokens:${gameId}`;

/**
 * The seat tokens held for a game: seat number (or "?n") -> token.
 * @param {string} gameId
 * @returns {Record<string, string>}
 */
export function heldTokens(gameId) {
  try {
    const held = JSON.parse(localStorage.getItem(key(gameId)) || "{}");
    return held && typeof held === "object" ? held : {};
  } catch {
    return {};
  }
}

/**
 * @param {string} gameId
 * @param {Record<string, string>} held
 */
function store(gameId, held) {
  if (Object.keys(held).length) localStorage.setItem(key(gameId), JSON.stringify(held));
  else localStorage.removeItem(key(gameId));
}

/**
 * @param {string} gameId
 * @param {number | string} seat
 * @param {string} token
 */
export function holdToken(gameId, seat, token) {
  const held = heldTokens(gameId);
  for (const [k, v] of Object.entries(held)) if (v === token) delete held[k];
  held[seat] = token;
  store(gameId, held);
}

// An invite link's token, before the server has said which seat it is.
/**
 * @param {string} gameId
 * @param {string} token
 */
export function holdUnknownSeat(gameId, token) {
  const held = heldTokens(gameId);
  if (!Object.values(held).includes(token)) held[`?${Object.keys(held).length}`] = token;
  store(gameId, held);
}

/**
 * @param {string} gameId
 * @param {string} token
 */
export function forgetToken(gameId, token) {
  const held = heldTokens(gameId);
  for (const [k, v] of Object.entries(held)) if (v === token) delete held[k];
  store(gameId, held);
}

/** @param {string} gameId */
export function forgetGame(gameId) {
  localStorage.removeItem(key(gameId));
}

// The seat link that lets this seat be played on another device (it carries the token).
/**
 * @param {string} gameId
 * @param {string} token
 * @returns {string}
 */
export function seatLink(gameId, token) {
  return `${location.origin}/#/game/${encodeURIComponent(gameId)}/${encodeURIComponent(token)}`;
}

// Tokens an account's session gave this device (POST /api/account/games/{id}/key): they end
// with the session, so signing out forgets them here too.
const KEYS = "polis:keys";

/** @returns {{gameId: string, token: string}[]} */
function sessionKeys() {
  try {
    const keys = JSON.parse(localStorage.getItem(KEYS) || "[]");
    return Array.isArray(keys) ? keys : [];
  } catch {
    return [];
  }
}

/**
 * @param {string} gameId
 * @param {number | string} seat
 * @param {string} token
 */
export function holdSessionKey(gameId, seat, token) {
  holdToken(gameId, seat, token);
  localStorage.setItem(
    KEYS,
    JSON.stringify([...sessionKeys().filter((k) => k.token !== token), { gameId, token }]),
  );
}

export function forgetSessionKeys() {
  for (const { gameId, token } of sessionKeys()) forgetToken(gameId, token);
  localStorage.removeItem(KEYS);
}
