// @ts-check
// The table's components redraw only when their props changed: `changed(prev, next)` compares
// the props a component declares (plain data: numbers, strings, lists, objects), and
// `component(draw)` keeps the props it drew last and calls `draw` again only when they differ.
// What a component draws with that is not data (the table's context, the game's own elements)
// is handed to `render` after the props: it goes to `draw` and never decides whether it draws.

/**
 * Whether two values differ as data: primitives by identity (NaN equals NaN), lists item by
 * item, plain objects key by key (a key holding undefined counts as absent).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function differs(a, b) {
  if (Object.is(a, b)) return false;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return true;
  if (Array.isArray(a) !== Array.isArray(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return true;
    return a.some((x, i) => differs(x, b[i]));
  }
  if (a instanceof Set && b instanceof Set)
    return a.size !== b.size || [...a].some((x) => !b.has(x));
  const ra = /** @type {Record<string, unknown>} */ (a);
  const rb = /** @type {Record<string, unknown>} */ (b);
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (differs(ra[k], rb[k])) return true;
  return false;
}

/**
 * Whether a component's props changed since it last drew them (nothing drawn yet: changed).
 * @template {object} P
 * @param {P | null | undefined} prev
 * @param {P} next
 * @returns {boolean}
 */
export function changed(prev, next) {
  return prev === null || prev === undefined || differs(prev, next);
}

/**
 * A component: `render(props, ...extra)` draws when the props changed since its last drawing
 * and says whether it drew; `reset()` forgets them (the next render draws).
 * @template {object} P
 * @template {any[]} [W=[]]
 * @typedef {{render: (props: P, ...extra: W) => boolean, reset: () => void,
 *   readonly props: P | null}} Component
 */

/**
 * @template {object} P
 * @template {any[]} [W=[]]
 * @param {(props: P, ...extra: W) => void} draw
 * @returns {Component<P, W>}
 */
export function component(draw) {
  /** @type {P | null} */
  let last = null;
  return {
    render(props, ...rest) {
      if (!changed(last, props)) return false;
      last = props;
      draw(props, ...rest);
      return true;
    },
    reset() {
      last = null;
    },
    get props() {
      return last;
    },
  };
}
