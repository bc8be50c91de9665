// @ts-check
// Take-backs at the table (see takebacks.py): a "Take back my move" button with a confirmation
// for the seat that may take back now, the waiting note of a request, and the accept/decline
// prompt for the other people. A request whose answering seats this browser also holds (a
// hot-seat table) is accepted at once: the same person asked.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./conn.js").SeatConnection} SeatConnection */

/**
 * A take-back waiting for the other people's consent (wire/to_client: TakeBackRequestJSON).
 * @typedef {{seat: number, position: number, waiting: number[]}} TakeBackRequest
 */

/**
 * The state message's `take_back` (wire/to_client: TakeBackStatusJSON): the seat that may take
 * back its last move now (null: none), and the request waiting, if any.
 * @typedef {{seat: number | null, request: TakeBackRequest | null}} TakeBackStatus
 */

/**
 * What the box is drawn from.
 * @typedef {object} TakeBackEnv
 * @property {{position: number, take_back: TakeBackStatus | null | undefined, finished: boolean,
 *   seats: import("./seatclock.js").Seat[]}} msg  the shown state
 * @property {string[]} names  the seats' names
 * @property {SeatConnection[]} conns  this page's connections, one per held seat
 * @property {{confirming: number | null, answered: Set<string>}} ui  kept between draws: the
 *   position whose take-back is being confirmed, the requests already answered
 *   ("position:seat")
 * @property {(change: {confirming: number | null, focus?: string}) => void} redraw
 */

/**
 * @param {TakeBackEnv} env
 * @returns {HTMLElement | null}
 */
export function takeBackBox(env) {
  const { msg, names, conns, ui } = env;
  const tb = msg.take_back;
  if (!tb || msg.finished) return null;
  /** @param {number} seat */
  const connFor = (seat) => conns.find((c) => c.state && c.state.seat === seat);
  const request = tb.request;
  if (request) {
    // the waiting seats this browser holds, with their connections
    const mine = request.waiting.flatMap((seat) => {
      const conn = connFor(seat);
      return conn ? [{ seat, conn }] : [];
    });
    if (connFor(request.seat)) {
      for (const { seat, conn } of mine) {
        const key = `${request.position}:${seat}`;
        if (ui.answered.has(key)) continue;
        ui.answered.add(key);
        conn.send({ type: "takeback_answer", position: request.position, accept: true });
      }
      if (mine.length === request.waiting.length) return null;
      return h(
        "div",
        { class: "box takeback", id: "takeback", role: "status" },
        h("p", { text: t("takeback.waiting") }),
      );
    }
    if (!mine.length) return null;
    /** @param {boolean} accept */
    const answer = (accept) => {
      for (const { conn } of mine)
        conn.send({ type: "takeback_answer", position: request.position, accept });
    };
    return h(
      "div",
      {
        class: "box takeback",
        id: "takeback",
        role: "alertdialog",
        "aria-labelledby": "takeback-ask",
      },
      [
        h("p", {
          id: "takeback-ask",
          text: t("takeback.request", { name: names[request.seat] ?? "" }),
        }),
        h("div", { class: "row" }, [
          h("button", {
            id: "takeback-accept",
            class: "primary",
            text: t("takeback.accept"),
            on: { click: () => answer(true) },
          }),
          h("button", {
            id: "takeback-decline",
            text: t("takeback.decline"),
            on: { click: () => answer(false) },
          }),
        ]),
      ],
    );
  }
  const conn = tb.seat === null ? null : connFor(tb.seat);
  if (!conn) return null;
  if (ui.confirming !== msg.position) {
    return h(
      "div",
      { class: "takeback-bar", id: "takeback" },
      h("button", {
        id: "takeback-button",
        text: t("takeback.button"),
        on: { click: () => env.redraw({ confirming: msg.position, focus: "#takeback-ok" }) },
      }),
    );
  }
  const others = msg.seats.some(
    (s) => s.kind === "human" && s.seat !== tb.seat && !connFor(s.seat),
  );
  return h(
    "div",
    { class: "box takeback", id: "takeback", role: "group", "aria-labelledby": "takeback-confirm" },
    [
      h("p", { id: "takeback-confirm", text: t("takeback.ask") }),
      others ? h("p", { class: "hint", text: t("takeback.askPeople") }) : "",
      h("div", { class: "row" }, [
        h("button", {
          id: "takeback-ok",
          class: "primary",
          text: t("takeback.ok"),
          on: {
            click: () => {
              conn.send({ type: "takeback", position: conn.state?.position });
              env.redraw({ confirming: null, focus: "#status" });
            },
          },
        }),
        h("button", {
          id: "takeback-keep",
          text: t("takeback.keep"),
          on: { click: () => env.redraw({ confirming: null, focus: "#takeback-button" }) },
        }),
      ]),
    ],
  );
}
