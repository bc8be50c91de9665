// @ts-check
// Hints: whether the table allows them, and "Suggest a move" for the seat to move (../hint.js).
// Not while a hot-seat device is being passed on (`covered`): the hint is worked out from
// secrets.
import { clear } from "../dom.js";
import { hintBox } from "../hint.js";
import { component } from "./changed.js";

/**
 * @typedef {{
 *   covered: boolean,
 *   lang: string,
 *   position: number,
 *   seat: number | null,
 *   hints: boolean | undefined,
 *   myTurn: boolean,
 *   replaying: boolean,
 *   finished: boolean,
 *   asking: string | null,
 *   answers: number,
 * }} HintProps
 */

/**
 * @param {HTMLElement} el
 * @param {{gameId: string, conn: () => any, ui: {answers: Record<string, any>, asking: string | null},
 *   redraw: (focus?: string) => void}} env
 *   the connection shown (the hint is asked with its token), the answers kept by the table
 *   (its board shows the one for the position) and how an answer is drawn
 * @returns {import("./changed.js").Component<HintProps>}
 */
export function hintPanel(el, env) {
  return component((p) => {
    const box = p.covered
      ? null
      : hintBox({
          gameId: env.gameId,
          msg: { position: p.position, seat: p.seat, hints: p.hints, finished: p.finished },
          conn: env.conn(),
          myTurn: p.myTurn,
          replaying: p.replaying,
          ui: env.ui,
          redraw: env.redraw,
        });
    clear(el).append(...(box ? [box] : []));
  });
}
