// @ts-check
// What the prompt bar (../promptbar.js) says: the table's status (whose turn it is, whom it
// waits for, a bot standing in, the game over, the replay's place, with the clock of the seat
// to move), and the step of the move being built (the game's instruction and buttons, or the
// move to confirm, and why the server refused the last move).
//
// The status is a component of its own. The step is drawn with the board (./board.js): the
// game's client draws its buttons with the board from the same context.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { seatClock } from "../seatclock.js";
import { component } from "./changed.js";

/** @typedef {import("../seatclock.js").Seat} Seat */
/** @typedef {import("../clockmath.js").Clock} Clock */

/**
 * The status line: `say` is its message (a key of the catalogue and its names), `clock` the
 * clock of the seat to move (none in a replay, once over, for a bot, at a table without one).
 * @typedef {{
 *   lang: string,
 *   say: {key: string, name?: string, level?: string, n?: number, total?: number},
 *   mine: boolean,
 *   clock: {clock: Clock, seat: number, name: string} | null,
 * }} StatusProps
 */

/**
 * @param {{lang: string, replay: {position: number, total: number} | null,
 *   msg: {finished?: boolean, seats: Seat[], current_player?: number | null,
 *     seat?: number | null, clock?: Clock | null},
 *   myTurn: boolean, held: number[], names: string[]}} s
 * @returns {StatusProps}
 */
export function statusProps(s) {
  const { msg, names } = s;
  const current = msg.current_player ?? -1;
  const name = names[current] ?? "";
  /** @type {StatusProps["say"]} */
  let say;
  if (s.replay) say = { key: "replay.at", n: s.replay.position, total: s.replay.total };
  else if (msg.finished) say = { key: "status.over" };
  else if (msg.seats.some((seat) => seat.vacant))
    say = { key: "status.waitingPlayers" }; // an open table
  else if (s.myTurn)
    say =
      s.held.length > 1
        ? { key: "status.yourTurnAs", name: names[msg.seat ?? -1] }
        : { key: "status.yourTurn" };
  else if (msg.seats[current]?.stand_in)
    say = {
      key: "status.standIn",
      name,
      level: /** @type {string} */ (msg.seats[current].stand_in),
    };
  else say = { key: "status.waiting", name };
  const clock =
    s.replay || msg.finished || !msg.clock || msg.seats[current]?.kind === "bot"
      ? null
      : { clock: msg.clock, seat: current, name };
  return { lang: s.lang, say, mine: s.myTurn, clock };
}

/**
 * The status in words.
 * @param {StatusProps["say"]} say
 * @returns {string}
 */
export function statusText(say) {
  const { key, ...params } = say;
  return t(key, params.level ? { ...params, level: t(`level.${params.level}`) } : params);
}

/**
 * @param {import("../promptbar.js").PromptBar} bar
 * @returns {import("./changed.js").Component<StatusProps>}
 */
export function statusLine(bar) {
  return component((p) => {
    const clock = p.clock
      ? seatClock({ clock: p.clock.clock, seats: [] }, p.clock.seat, p.clock.name)
      : null;
    bar.setStatus({ text: statusText(p.say), mine: p.mine, clock });
  });
}

/**
 * The step's frame: the bar's name, why the last move was refused (said on the seat's turn
 * only) and the move to confirm, if one waits.
 * @typedef {{mine: boolean, error: string | null, confirm: {text: string, label: string} | null}} StepProps
 */

/**
 * @param {{myTurn: boolean, lastError: string | null, pending: {text: string, label: string} | null}} s
 * @returns {StepProps}
 */
export function stepProps(s) {
  return {
    mine: s.myTurn,
    error: s.lastError && s.myTurn ? s.lastError : null,
    confirm: s.pending ? { text: s.pending.text, label: s.pending.label } : null,
  };
}

/**
 * Draws the step into the bar: the move to confirm (its OK sends it, Change goes back to the
 * choice), else the game's step.
 * @param {import("../promptbar.js").PromptBar} bar
 * @param {StepProps} p
 * @param {{step: string | null, note?: Node | null, actions: Node[]}} step  the game's step
 * @param {{ok: (text: string) => void, change: () => void}} act
 */
export function drawStep(bar, p, step, act) {
  const error = p.error ? `${t("error.prefix")}: ${p.error}` : null;
  const label = p.mine ? t("table.yourMove") : t("table.status");
  const confirm = p.confirm;
  if (confirm) {
    const ok = h("button", {
      id: "confirm-move",
      class: "primary",
      text: t("confirm.ok"),
      on: { click: () => act.ok(confirm.text) },
    });
    const change = h("button", {
      id: "confirm-cancel",
      text: t("confirm.change"),
      on: { click: () => act.change() },
    });
    const ask = t("confirm.ask", { move: confirm.label });
    bar.setStep({ step: ask, actions: [ok, change], error, label });
    return;
  }
  bar.setStep({ step: step.step, note: step.note, actions: step.actions, error, label });
}
