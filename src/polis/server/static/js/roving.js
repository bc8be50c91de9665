// @ts-check
// Keyboard movement on a board: one Tab stop per board, the arrow keys move between its
// pieces by where they are drawn (nearest in that direction), Home/End jump to the first and
// last, Escape back to the piece offered (data-preferred), Enter or Space activates the piece
// as a click would.
/** @type {Record<string, [number, number]>} */
const keys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * @param {Element} el
 * @returns {[number, number]}
 */
function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

// The item nearest to `from` in direction (dx, dy), or null.
/**
 * @param {HTMLElement[]} items
 * @param {HTMLElement} from
 * @param {number} dx
 * @param {number} dy
 * @returns {HTMLElement | null}
 */
function nearest(items, from, dx, dy) {
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const [x, y] = centre(item);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const score = along + 2.5 * across;
    if (score < bestScore) {
      bestScore = score;
      best = item;
    }
  }
  return best;
}

// Make the items matching `selector` inside `root` one roving group. The item marked
// `data-preferred` (else the first) is the group's Tab stop.
/**
 * @param {Element} root
 * @param {string} selector
 */
export function roving(root, selector) {
  /** @returns {HTMLElement[]} */
  const items = () => [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector))];
  const all = items();
  if (!all.length) return;
  const start = all.find((el) => el.dataset.preferred !== undefined) ?? all[0];
  for (const el of all) el.setAttribute("tabindex", el === start ? "0" : "-1");
  root.addEventListener("keydown", (event) => {
    const e = /** @type {KeyboardEvent} */ (event);
    const target = /** @type {Element | null} */ (e.target);
    const current = /** @type {HTMLElement | null} */ (target?.closest?.(selector) ?? null);
    if (!current || !root.contains(current)) return;
    /** @type {HTMLElement | null | undefined} */
    let next = null;
    if (keys[e.key]) next = nearest(items(), current, ...keys[e.key]);
    else if (e.key === "Home") next = items()[0];
    else if (e.key === "End") next = items().at(-1);
    else if (e.key === "Escape")
      next = items().find((el) => el.dataset.preferred !== undefined) ?? null;
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      current.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    } else return;
    e.preventDefault();
    if (!next) return;
    current.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
}
