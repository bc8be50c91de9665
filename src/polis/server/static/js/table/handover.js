// @ts-check
// Hot-seat games with secrets: before a seat's secrets are shown, the device is passed on;
// once its person has moved they are hidden at once (the table's send()), and stay hidden
// while no seat of this device is to move (a bot thinking, the move on its way).
//
// The cover takes the board's place: the board's host (./board.js) draws it when its props,
// which hold the cover's, change.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * No cover (null), the board hidden while this device waits ("wait"), or the device to pass
 * on to the seat to move ("pass").
 * @typedef {{kind: "wait"} | {kind: "pass", seat: number, name: string}} CoverProps
 */

/**
 * @param {{privateViews: boolean, replaying: boolean, finished: boolean, held: number[],
 *   seat: number | null, current: number | null, position: number, movedAt: number | undefined,
 *   revealed: number | null, names: string[]}} s
 *   `privateViews`: the game has secrets; `seat`: the seat shown; `movedAt`: the position where
 *   this device last sent a hot-seat move; `revealed`: the seat whose secrets are shown
 * @returns {CoverProps | null}
 */
export function coverProps(s) {
  if (!s.privateViews || s.replaying || s.finished) return null;
  if (s.held.length < 2) return null;
  const toMove = s.current === s.seat && s.position !== s.movedAt;
  if (s.seat === s.revealed && toMove) return null;
  // (whom the table waits for is the bar's status)
  if (!toMove || s.seat === null) return { kind: "wait" };
  return { kind: "pass", seat: s.seat, name: s.names[s.seat] };
}

/**
 * The cover, and what the bar says over it: the device to pass on, with the button that
 * shows the seat's turn (`reveal`).
 * @param {CoverProps} p
 * @param {(seat: number) => void} reveal
 * @returns {{element: HTMLElement, step: string | null, actions: HTMLElement[]}}
 */
export function coverElement(p, reveal) {
  if (p.kind === "wait")
    return {
      element: h("div", { class: "box handover", id: "handover-wait" }, [
        h("p", { text: t("handover.hidden") }),
      ]),
      step: null,
      actions: [],
    };
  return {
    element: h("div", { class: "box handover", id: "handover" }, [
      h("p", { text: t("handover.hint", { name: p.name }) }),
    ]),
    step: t("handover.pass", { name: p.name }),
    actions: [
      h("button", {
        id: "handover-ok",
        class: "primary",
        text: t("handover.show", { name: p.name }),
        on: { click: () => reveal(p.seat) },
      }),
    ],
  };
}
