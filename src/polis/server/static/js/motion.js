// @ts-check
// Moves that move: a piece the last move moved travels from where it was to where it is now,
// on the real elements (FLIP: the places are measured before the board is drawn again, then
// each piece, drawn at its new place, is shown at its old one and slides home), with the Web
// Animations API. Nothing waits for an animation: the board is drawn at once and takes input
// at once (a moving piece lets clicks through); a new move or any redraw during one finishes it.
//
// A game client marks its elements, this module knows no game:
//   data-motion="key"        a piece: after a move, it slides from the place of the element
//                            that had this key before (when that was in another frame, or
//                            elsewhere in the same one)
//   data-motion-at="key"     a place only (the button a piece was chosen with, a supply's chip):
//                            a piece new since the last drawing may come from there; it never
//                            moves itself
//   data-motion-from="k1 k2" where a piece new since the last drawing comes from: the first of
//                            these keys that was on the screen
//   data-motion-enter="rise" | "pop"  how a piece new since the last drawing, and from nowhere,
//                            appears (also when its data-motion-state changed: a piece turned over)
//   data-motion-frame="name" the board part a piece lies in (a player's own part): a
//                            piece at the same place in the same frame has not moved, even if
//                            the frame moved or changed size (another part first, a new layout)
// A piece in an SVG is an element with no transform of its own (the animation's transform takes
// its place), drawn alike without its ancestors (no style of theirs): while it moves it is
// drawn in a layer over the page (see lift()).
//
// Off under prefers-reduced-motion: reduce, unless the player's setting says otherwise
// ("Animations": as the system, on, off; settings.js); "off" also stops the pages' CSS
// animations (html[data-animations="off"], style.css).
import { prefs, onPrefs } from "./settings.js";

const TRAVEL = { min: 240, max: 400 }; // ms, by distance
const ENTER = 320; // ms
const EASE = "cubic-bezier(.25,.8,.3,1)";
const SVGNS = "http://www.w3.org/2000/svg";

/** @typedef {{rect: DOMRect, frame: string, at: number[] | null, state: string}} Place */

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** Whether moves are animated now: the setting, else the system's wish. */
export function motionOn() {
  const wish = /** @type {{motion?: string}} */ (prefs).motion ?? "auto";
  return wish === "on" || (wish !== "off" && !reduced());
}

function applySetting() {
  const wish = /** @type {{motion?: string}} */ (prefs).motion ?? "auto";
  document.documentElement.dataset.animations = wish;
}
applySetting();
onPrefs((/** @type {string} */ key) => key === "motion" && applySetting());

/** Each running animation of this module, with what puts its piece back when it stops.
 * @type {Map<Animation, () => void>} */
const running = new Map();

/** Finish every animation of this module at once: its pieces stand at their places, in their
 * boards (now, not at the animation's finish event, a frame later). */
export function finishAll() {
  for (const [anim, done] of [...running]) {
    anim.finish();
    done();
  }
}

/** @param {Element} el */
function frameOf(el) {
  const frame = el.parentElement?.closest("[data-motion-frame]");
  return frame instanceof HTMLElement || frame instanceof SVGElement ? frame : null;
}

/** Where every marked element of `scope` is now.
 * @param {ParentNode} scope
 * @returns {Map<string, Place>} */
function measure(scope) {
  /** @type {Map<string, Place>} */
  const places = new Map();
  for (const el of scope.querySelectorAll("[data-motion], [data-motion-at]")) {
    if (!(el instanceof HTMLElement || el instanceof SVGElement)) continue;
    const key = el.dataset.motion ?? el.dataset.motionAt ?? "";
    if (places.has(key)) continue;
    const rect = el.getBoundingClientRect();
    if (!rect.width && !rect.height) continue; // not shown
    const frame = frameOf(el);
    places.set(key, {
      rect,
      frame: frame?.dataset.motionFrame ?? "",
      at: frame ? within(rect, frame.getBoundingClientRect()) : null,
      state: el.dataset.motionState ?? "",
    });
  }
  return places;
}

/** A rectangle as fractions of its frame's.
 * @param {DOMRect} r @param {DOMRect} f */
function within(r, f) {
  const w = f.width || 1,
    h = f.height || 1;
  return [(r.x - f.x) / w, (r.y - f.y) / h, r.width / w, r.height / h];
}

/** @param {number[] | null} a @param {number[] | null} b */
function same(a, b) {
  return !!a && !!b && a.every((v, i) => Math.abs(v - b[i]) < 0.004);
}

/** @type {SVGSVGElement | null} */
let layer = null;

/** Draw an SVG piece above the whole page while it moves: an SVG paints in the order of its
 * elements, and a board's <svg> clips what it holds (a piece on its way from one <svg> to
 * another would pass under the squares it crosses, or vanish at an edge). The piece goes
 * into a layer over the page, under a group that places it exactly where it was drawn (its
 * parent's transform to the screen), and back home when it stops. Returns the way back.
 * @param {SVGGraphicsElement} el */
function lift(el) {
  const home = el.parentNode,
    next = el.nextSibling;
  const parent = el.parentElement;
  if (!home || !(parent instanceof SVGGraphicsElement)) return () => {};
  const m = parent.getScreenCTM();
  if (!m) return () => {};
  if (!layer?.isConnected) {
    layer = document.createElementNS(SVGNS, "svg");
    layer.setAttribute("class", "motion-layer");
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  const carrier = document.createElementNS(SVGNS, "g");
  /** @param {DOMMatrix} m */
  const put = (m) =>
    carrier.setAttribute("transform", `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
  put(m);
  carrier.append(el);
  layer.append(carrier);
  // its board may move under it meanwhile (the page scrolled, a board panned back): follow it
  let frame = requestAnimationFrame(function follow() {
    const now = parent.getScreenCTM();
    if (now) put(now);
    frame = requestAnimationFrame(follow);
  });
  return () => {
    cancelAnimationFrame(frame);
    home.insertBefore(el, next?.parentNode === home ? next : null);
    carrier.remove();
    if (layer && !layer.firstChild) layer.remove();
  };
}

/** @param {HTMLElement | SVGElement} el @param {Keyframe[]} frames @param {number} duration */
function play(el, frames, duration) {
  el.classList.add("motion-moving");
  const back = el instanceof SVGGraphicsElement ? lift(el) : () => {};
  const anim = el.animate(frames, { duration, easing: EASE, id: "motion" });
  const done = () => {
    if (!running.delete(anim)) return;
    el.classList.remove("motion-moving");
    back();
  };
  running.set(anim, done);
  anim.addEventListener("finish", done);
  anim.addEventListener("cancel", done);
}

/** Show `el` (now at `now`) at `was` first, sliding home.
 * @param {HTMLElement | SVGElement} el @param {DOMRect} was @param {DOMRect} now */
function travel(el, was, now) {
  const dx = was.x + was.width / 2 - (now.x + now.width / 2),
    dy = was.y + was.height / 2 - (now.y + now.height / 2);
  const grow = Math.sqrt((was.width * was.height) / (now.width * now.height || 1)) || 1;
  const scale = Math.min(3, Math.max(0.33, grow));
  if (Math.hypot(dx, dy) < 1 && Math.abs(scale - 1) < 0.02) return;
  // the screen's pixels in the element's own units (an SVG drawn larger or smaller)
  let [ux, uy] = [dx, dy];
  const ctm = el instanceof SVGGraphicsElement ? el.parentElement : null;
  const m = ctm instanceof SVGGraphicsElement ? ctm.getScreenCTM() : null;
  if (m) {
    const inv = m.inverse();
    [ux, uy] = [inv.a * dx + inv.c * dy, inv.b * dx + inv.d * dy];
  }
  const duration = Math.min(TRAVEL.max, TRAVEL.min + Math.hypot(dx, dy) / 4);
  play(
    el,
    [{ transform: `translate(${ux}px, ${uy}px) scale(${scale})` }, { transform: "none" }],
    duration,
  );
}

/** @param {HTMLElement | SVGElement} el @param {string} kind */
function enter(el, kind) {
  const frames =
    kind === "rise"
      ? [
          { transform: "translateY(-40%) scale(1.5)", opacity: 0 },
          { transform: "translateY(-12%) scale(1.15)", opacity: 1, offset: 0.6 },
          { transform: "none", opacity: 1 },
        ]
      : [
          { transform: "scale(.4)", opacity: 0 },
          { transform: "scale(1.12)", opacity: 1, offset: 0.7 },
          { transform: "none", opacity: 1 },
        ];
  play(el, frames, ENTER);
}

/** Animate every piece of `scope` that moved since `before` was measured.
 * @param {ParentNode} scope @param {Map<string, Place>} before */
function animate(scope, before) {
  for (const el of scope.querySelectorAll("[data-motion]")) {
    if (!(el instanceof HTMLElement || el instanceof SVGElement)) continue;
    const was = before.get(el.dataset.motion ?? "");
    const now = el.getBoundingClientRect();
    if (!now.width && !now.height) continue;
    const frame = frameOf(el);
    const name = frame?.dataset.motionFrame ?? "";
    const box = frame?.getBoundingClientRect();
    // where a place of the same frame is now (its frame may have moved: a board panned)
    /** @param {Place} place */
    const origin = (place) =>
      box && place.at && place.frame === name
        ? new DOMRect(
            box.x + place.at[0] * box.width,
            box.y + place.at[1] * box.height,
            place.at[2] * box.width,
            place.at[3] * box.height,
          )
        : place.rect;
    if (was) {
      const at = box ? within(now, box) : null;
      if (was.frame && name && (was.frame !== name || !same(was.at, at)))
        travel(el, origin(was), now);
      else if (el.dataset.motionEnter && was.state !== (el.dataset.motionState ?? ""))
        enter(el, el.dataset.motionEnter);
      continue;
    }
    const from = (el.dataset.motionFrom ?? "")
      .split(" ")
      .map((key) => (key ? before.get(key) : undefined))
      .find(Boolean);
    if (from) travel(el, origin(from), now);
    else if (el.dataset.motionEnter) enter(el, el.dataset.motionEnter);
  }
}

/**
 * The moves of one table's screen: `before(moved)` just before the board is drawn (`moved`:
 * for a new position), `after()` once it is drawn for one; `keep()` when the player sends a
 * move, so that it travels from where they picked it (their choices may be gone from the
 * screen by the time the move comes back).
 * @param {ParentNode} scope where the pieces and their places are (the board, the action bar)
 */
export function motionStage(scope) {
  /** @type {Map<string, Place> | null} */
  let shot = null;
  /** @type {Map<string, Place> | null} */
  let kept = null;
  let keptAt = 0;
  return {
    /** @param {boolean} moved whether the board is drawn for a new position */
    before(moved) {
      finishAll(); // (a piece still moving would fly over a board drawn anew)
      shot = moved && motionOn() ? measure(scope) : null;
    },
    keep() {
      finishAll();
      kept = motionOn() ? measure(scope) : null;
      keptAt = Date.now();
    },
    after() {
      const was = shot;
      // (what was kept for a move sent a while ago is stale: the move was refused, or lost)
      if (was && kept && Date.now() - keptAt < 10_000)
        for (const [key, place] of kept) if (!was.has(key)) was.set(key, place);
      shot = kept = null;
      if (was && motionOn()) animate(scope, was);
    },
  };
}
