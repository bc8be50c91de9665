// @ts-check
// Tooltips for the pieces of a board: on hover (mouse), on keyboard focus and on a long press
// (touch). An element opts in with data-tip; the text is also its accessible name's detail.
const DELAY = 350;
const PRESS = 450;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
/** @type {Element | null} */
let shownFor = null;
let swallowClick = false;
/** Where the mouse was last seen: a pointerover there is the page redrawn under a resting
 * mouse (the browser names the new piece under it), not the mouse moving onto a piece. */
let mouseX = NaN;
let mouseY = NaN;

/** @returns {HTMLElement | null} */
function tipBox() {
  return document.getElementById("tip");
}

/** @param {Element} el */
function show(el) {
  const box = tipBox();
  if (!box || !el.isConnected) return;
  box.textContent = el.getAttribute("data-tip") ?? "";
  box.hidden = false;
  const r = el.getBoundingClientRect();
  const w = box.offsetWidth,
    hgt = box.offsetHeight;
  let x = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), innerWidth - w - 8);
  let y = r.top - hgt - 8;
  if (y < 8) y = r.bottom + 8;
  box.style.left = `${x}px`;
  box.style.top = `${y}px`;
  shownFor = el;
}

/** Whether the focus is on a piece with a tip, reached by keyboard. */
function keyboardPiece() {
  const el = document.activeElement;
  return el instanceof Element && el.matches("[data-tip]:focus-visible");
}

export function hideTip() {
  clearTimeout(timer);
  const box = tipBox();
  if (box) box.hidden = true;
  shownFor = null;
}

/**
 * The element with a tip that an event happened in, if any.
 * @param {{target: EventTarget | null}} e
 * @returns {Element | null}
 */
function target(e) {
  return e.target instanceof Element ? e.target.closest("[data-tip]") : null;
}

export function installTooltips() {
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType !== "mouse") return;
    const still = e.clientX === mouseX && e.clientY === mouseY;
    mouseX = e.clientX;
    mouseY = e.clientY;
    // a redraw under a resting mouse does not take the tip from the piece focused by keyboard
    if (still && keyboardPiece()) return;
    const el = target(e);
    if (el === shownFor) return;
    hideTip();
    if (el) timer = setTimeout(() => show(el), DELAY);
  });
  document.addEventListener("pointerdown", (e) => {
    hideTip();
    if (e.pointerType === "mouse") return;
    const el = target(e);
    if (!el) return;
    swallowClick = false;
    timer = setTimeout(() => {
      show(el);
      swallowClick = true; // a long press shows the tip; it does not also play the piece
    }, PRESS);
  });
  document.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse") return;
    mouseX = e.clientX;
    mouseY = e.clientY;
  });
  for (const type of ["pointerup", "pointercancel"]) {
    document.addEventListener(type, (e) => {
      if (/** @type {PointerEvent} */ (e).pointerType !== "mouse") clearTimeout(timer);
    });
  }
  document.addEventListener(
    "click",
    (e) => {
      if (swallowClick) {
        swallowClick = false;
        e.stopPropagation();
        e.preventDefault();
      }
    },
    true,
  );
  document.addEventListener("contextmenu", (e) => {
    if (target(e)) e.preventDefault(); // the long press is ours, not the browser's menu
  });
  document.addEventListener("focusin", (e) => {
    const el = target(e);
    if (el && el === shownFor) return; // the piece a long press just showed takes focus
    hideTip();
    if (el && el.matches(":focus-visible")) timer = setTimeout(() => show(el), DELAY);
  });
  document.addEventListener("focusout", (e) => {
    if (!e.relatedTarget || target({ target: e.relatedTarget }) !== shownFor) hideTip();
  });
  document.addEventListener(
    "scroll",
    () => {
      // the scroll that brings a piece focused by keyboard into view keeps its tip (placed anew)
      if (keyboardPiece()) {
        if (shownFor && document.activeElement === shownFor) show(shownFor);
        return;
      }
      hideTip();
    },
    true,
  );
  document.addEventListener("keydown", (e) => e.key === "Escape" && hideTip());
}
