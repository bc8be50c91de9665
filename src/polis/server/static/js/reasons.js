// @ts-check
// A reason in words: {key, params} of a game's catalogue (the game's "reasons" part, for the
// review), a param that is itself a reason worded first, in the same catalogue. The terminal
// words it alike (polis.core.wording.say_reason); tests/js/reasons.test.mjs compares the two.

/**
 * @typedef {{ key: string, params?: Record<string, unknown> }} Reason
 * @param {Reason} reason
 * @param {(key: string, params?: Record<string, unknown>) => string} say a game's translator
 * @returns {string}
 */
export function words(reason, say) {
  /** @type {Record<string, unknown>} */
  const params = {};
  for (const [name, value] of Object.entries(reason.params ?? {}))
    params[name] =
      value && typeof value === "object" ? words(/** @type {Reason} */ (value), say) : value;
  return say(reason.key, params);
}
