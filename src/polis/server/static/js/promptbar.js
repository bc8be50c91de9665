// @ts-check
// The prompt bar: one bar at the top of the table, on every screen size, and the single place
// where the table says
//   - its status: whose turn it is, whom it waits for, a bot standing in, the game over, the
//     replay's place, with the running clock of the seat to move;
//   - what to do now: the instruction for the step of the move being built, worded by the
//     game's client (its `prompt(ctx, t).step`), or the question of a move to confirm;
//   - that step's buttons: the choices that are buttons, pass, discard, cancel, confirm (the
//     words of a button in a `.pb-words` span are left out on a phone: they stay its name).
// It is drawn in the page's flow and sticks to the top of the screen once scrolled to, so it
// never covers the board before the player scrolls; a piece focused below it scrolls clear of
// it (the page's scroll padding follows the bar's height).
// The tutorial (learn.js) shows the same bar in the column beside its board.
//
// Screen readers hear a new status and a new instruction once: `said()` gives what changed
// since it was last asked, and the table reads it out with the moves just made through the
// page's one live region (notify.js `announce`). The bar itself is not live: a live bar and
// the announcement would say the same twice.
import { h, clear } from "./dom.js";

/**
 * The status of the table, as the bar shows it.
 * @typedef {object} Status
 * @property {string} text       "Your turn.", "Waiting for Robo…", "The game is over."
 * @property {boolean} mine      the seat shown is to move (the bar stands out)
 * @property {Node | null} [clock] the clock chip of the seat to move (seatclock.js), if any
 */

/**
 * The step of the move being built.
 * @typedef {object} Step
 * @property {string | null} step      what to do now (null: nothing to do)
 * @property {Node | null} [note]      a line under it (what the piece chosen takes)
 * @property {Node[]} actions          the step's buttons (and groups of buttons)
 * @property {string | null} [error]   why the server refused the last move
 * @property {string} label            the bar's name for screen readers
 */

/**
 * @typedef {object} PromptBar
 * @property {HTMLElement} element   the bar (a region of the page)
 * @property {HTMLElement} status    the status line (a focus target: tabindex -1)
 * @property {HTMLElement} actions   the step's buttons (#controls)
 * @property {(s: Status) => void} setStatus
 * @property {(s: Step) => void} setStep
 * @property {(quiet: boolean) => string[]} said  what changed since last asked (quiet: nothing
 *   to read out now, e.g. the first draw or a language switch; the news is taken as said)
 * @property {() => void} destroy
 */

/** @returns {PromptBar} */
export function promptBar() {
  const status = h("span", { id: "status", tabindex: "-1" });
  const clock = h("span", { class: "pb-clock" });
  const prompt = h("span", { id: "prompt", class: "step" });
  const note = h("div", { class: "pb-note" });
  const error = h("p", { id: "error", class: "error", hidden: true });
  const actions = h("div", { id: "controls", class: "pb-actions" });
  const element = h("section", { id: "prompt-bar", class: "prompt-bar" }, [
    h("div", { class: "pb-text" }, [
      h("p", { class: "pb-say" }, [status, " ", clock, " ", prompt]),
      note,
    ]),
    error,
    actions,
  ]);
  /** @type {{status: string, step: string}} */
  const last = { status: "", step: "" };
  // the status as a screen reader read it when the keyboard's focus came to it
  /** @type {string | null} */
  let heard = null;
  status.addEventListener("focus", () => (heard = status.textContent));

  // the page's scroll padding: a focused piece scrolls clear of the bar stuck at the top
  const root = document.documentElement;
  const observer = new ResizeObserver(() =>
    root.style.setProperty("--pb-h", `${Math.ceil(element.getBoundingClientRect().height)}px`),
  );
  observer.observe(element);

  /** @param {Status} s */
  function setStatus(s) {
    if (status.textContent !== s.text) status.textContent = s.text;
    status.className = s.mine ? "your-turn" : "";
    element.classList.toggle("your-turn", s.mine);
    clear(clock);
    if (s.clock) clock.append(s.clock);
  }

  /** @param {Step} s */
  function setStep(s) {
    const text = s.step ?? "";
    if (prompt.textContent !== text) prompt.textContent = text;
    prompt.hidden = !text;
    clear(note);
    if (s.note) note.append(s.note);
    note.hidden = !s.note;
    error.textContent = s.error ?? "";
    error.hidden = !s.error;
    clear(actions).append(...s.actions);
    actions.hidden = !s.actions.length;
    element.setAttribute("aria-label", s.label);
  }

  /** @param {boolean} quiet */
  function said(quiet) {
    const now = { status: status.textContent ?? "", step: prompt.textContent ?? "" };
    const lines = [];
    // a status line the focus came to is read by the focus itself
    if (now.status !== last.status && now.status !== heard) lines.push(now.status);
    if (now.step !== last.step && now.step) lines.push(now.step);
    Object.assign(last, now);
    heard = null;
    return quiet ? [] : lines;
  }

  return {
    element,
    status,
    actions,
    setStatus,
    setStep,
    said,
    destroy() {
      observer.disconnect();
      root.style.removeProperty("--pb-h");
    },
  };
}
