// @ts-check
// The board's host: the game's client draws the board, its notes beside it, its information
// box and the step of the move in the prompt bar, from the table's context; or the hot-seat
// cover takes the board's place (./handover.js). Drawn again only when what the board shows
// changed: a player coming online, a chat line, a clock's tick never redraw it.
import { clear } from "../dom.js";
import { t } from "../i18n.js";
import { hideTip } from "../tooltip.js";
import { component } from "./changed.js";
import { coverElement } from "./handover.js";

/** @typedef {import("./handover.js").CoverProps} CoverProps */

/**
 * What the board shows. `layout`: the client's key for the board's room (a board laid out by
 * size is drawn again when it changes); `sent`: the move is on its way (nothing to offer).
 * @typedef {{
 *   lang: string,
 *   position: number,
 *   seat: number | null,
 *   selection: Record<string, any>,
 *   pending: string | undefined,
 *   replaying: boolean,
 *   finished: boolean,
 *   layout: unknown,
 *   cover: CoverProps | null,
 *   choices: boolean,
 *   myTurn: boolean,
 *   hint: string | undefined,
 *   sent: boolean,
 * }} BoardProps
 */

/**
 * @param {{lang: string, position: number, selection: Record<string, any>,
 *   pending: {text: string} | null, replaying: boolean, finished: boolean, myTurn: boolean,
 *   hint: {move: string} | null, msg: {choices?: unknown, position?: number, seat?: number | null, [field: string]: any}}} ctx
 *   the table's context (the seat shown is the message's, also in a replay)
 * @param {{layout: unknown, cover: CoverProps | null, sentAt: number | null | undefined}} local
 * @returns {BoardProps}
 */
export function boardProps(ctx, { layout, cover, sentAt }) {
  return {
    lang: ctx.lang,
    position: ctx.position,
    seat: ctx.msg.seat ?? null,
    selection: ctx.selection,
    pending: ctx.pending?.text,
    replaying: ctx.replaying,
    finished: ctx.finished,
    layout,
    cover,
    choices: !!ctx.msg.choices,
    myTurn: ctx.myTurn,
    hint: ctx.hint?.move,
    sent: sentAt === ctx.msg.position,
  };
}

/** @typedef {import("./status.js").StepProps} StepProps */
/** @typedef {{step: string | null, note?: Node | null, actions: Node[]}} GameStep */

/**
 * @template {import("../sdk.js").TableContext} C
 * @param {{board: HTMLElement, notes: HTMLElement, info: HTMLElement}} el
 * @param {{mod: any, tg: import("../i18n.js").Translator,
 *   motion: {before: (moved: boolean) => void, after: () => void},
 *   step: (ctx: C, step: GameStep) => void, reveal: (seat: number) => void}} env
 *   the game's client and words, the pieces' motion (../motion.js), how the bar's step is
 *   drawn, and what the cover's button does
 * @returns {import("./changed.js").Component<BoardProps, [C]>}
 */
export function boardHost(el, env) {
  const { mod, tg, motion } = env;
  /** @type {number | undefined} the position drawn last (a new one: the pieces move) */
  let drawnAt = undefined;
  return component((p, ctx) => {
    hideTip();
    const moved = drawnAt !== undefined && drawnAt !== ctx.position;
    drawnAt = ctx.position;
    motion.before(moved);
    if (p.cover) {
      const cover = coverElement(p.cover, env.reveal);
      clear(el.board).append(cover.element);
      clear(el.notes).hidden = true;
      clear(el.info).hidden = true;
      env.step(ctx, { step: cover.step, actions: cover.actions });
      return;
    }
    /** @type {Node[]} */
    const info = mod.info ? [mod.info(ctx, tg)].flat().filter(Boolean) : [];
    clear(el.info).append(...info);
    el.info.hidden = !info.length;
    el.info.setAttribute("aria-label", t("table.info"));
    el.board.setAttribute("aria-label", t("table.board"));
    clear(el.board).append(mod.render(ctx, tg));
    // the game's notes beside the board; a client without prompt() puts all in the bar
    /** @type {Node[]} */
    const notes = mod.prompt ? [mod.notes?.(ctx, tg) ?? []].flat().filter(Boolean) : [];
    clear(el.notes).append(...notes);
    el.notes.hidden = !notes.length;
    el.notes.setAttribute("aria-label", t("table.info"));
    /** @type {GameStep} */
    const step = mod.prompt
      ? (ctx.choices && !p.sent && mod.prompt(ctx, tg)) || { step: null, actions: [] }
      : { step: null, actions: [mod.controls(ctx, tg)].flat() };
    env.step(ctx, step);
    if (moved) motion.after();
  });
}
