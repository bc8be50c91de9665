// @ts-check
// Taking back a move: the button, its confirmation, a request to answer (../takeback.js draws
// them from the state message's take_back).
import { clear } from "../dom.js";
import { takeBackBox } from "../takeback.js";
import { component } from "./changed.js";

/**
 * @typedef {{
 *   lang: string,
 *   position: number,
 *   takeBack: any,
 *   finished: boolean,
 *   seats: import("../seatclock.js").Seat[],
 *   names: string[],
 *   held: number[],
 *   confirming: number | null,
 *   replaying: boolean,
 * }} TakeBackProps
 */

/**
 * @param {HTMLElement} el
 * @param {{conns: any[], redraw: (change: {confirming: number | null, focus?: string}) => void}} env
 *   the table's connections (a request is answered through the seat's own) and how a click
 *   changes the table's state
 * @returns {import("./changed.js").Component<TakeBackProps>}
 */
export function takeBackPanel(el, env) {
  // requests already answered on this page (kept between draws)
  const answered = new Set();
  return component((p) => {
    const box = p.replaying
      ? null
      : takeBackBox({
          msg: {
            position: p.position,
            take_back: p.takeBack,
            finished: p.finished,
            seats: p.seats,
          },
          names: p.names,
          conns: env.conns,
          ui: { confirming: p.confirming, answered },
          redraw: env.redraw,
        });
    clear(el).append(...(box ? [box] : []));
  });
}
