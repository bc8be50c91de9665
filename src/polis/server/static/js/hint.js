// @ts-check
// Hints at the table (see hints.py): every seat sees whether the table allows them; the person
// whose turn it is may press "Suggest a move" and reads the move with why in words. The server
// answers once per position (asking again costs nothing), worked out from this seat's view.
// What the box shows is worked out first, without the DOM (`hintState`), then drawn.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, toast } from "./ui.js";

/**
 * The server's answer: the move (as the seat's choices hold it) and why, in words to be.
 * @typedef {{move: string, choice?: any, reason: {key: string, params?: Record<string, any>}}} HintAnswer
 */

/**
 * Kept by the table between draws: the answers per "position:seat", the one being asked.
 * @typedef {{answers: Record<string, HintAnswer>, asking: string | null}} HintUi
 */

/**
 * A signed number: "+2", "−1.5" (a true minus sign).
 * @param {number} n
 * @param {number} [digits]
 * @returns {string}
 */
export const signed = (n, digits = 0) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(digits)}`;

/**
 * The reason's parameters as said: gains signed (wins whole, points to a tenth).
 * @param {Record<string, any> | undefined} params
 * @returns {Record<string, any>}
 */
export function hintParams(params) {
  const p = { ...params };
  if ("gainWins" in p) p.gainWins = signed(p.gainWins);
  if ("gainPoints" in p) p.gainPoints = signed(p.gainPoints, 1);
  return p;
}

// The reason of a hint {key, params} in the chosen language.
/**
 * @param {HintAnswer["reason"]} reason
 * @returns {string}
 */
export function hintText(reason) {
  return t(reason.key, hintParams(reason.params));
}

/**
 * What the hint box shows: nothing (null: the game over, a replay, a table that says nothing
 * of hints), else whether hints are on, and for the seat to move (hints on, a seat held by
 * its token): the answer, "working it out", or the button to ask (`key`: the answer's key).
 * @typedef {{on: boolean, show: "state" | "answer" | "working" | "button", key: string}} HintState
 */

/**
 * @param {{msg: {position: number, seat: number | null, hints?: boolean, finished?: boolean},
 *   myTurn: boolean, replaying: boolean, token: boolean, ui: HintUi}} s
 * @returns {HintState | null}
 */
export function hintState(s) {
  const { msg, ui } = s;
  if (msg.finished || s.replaying || msg.hints === undefined) return null;
  const on = !!msg.hints;
  const key = `${msg.position}:${msg.seat}`;
  if (!on || !s.myTurn || !s.token) return { on, show: "state", key };
  if (ui.answers[key]) return { on, show: "answer", key };
  if (ui.asking === key) return { on, show: "working", key };
  return { on, show: "button", key };
}

// The table's setting, for the lobby: possible (and on by default) only where no other person
// sits, i.e. one person against bots or every person's seat on this device (hints.py).
/**
 * @param {{hints?: boolean, [field: string]: any}} form  the lobby's form
 * @param {boolean} alone
 * @returns {HTMLDivElement}
 */
export function hintsChoice(form, alone) {
  return h("div", { class: "row" }, [
    h("label", { class: "inline check" }, [
      h("input", {
        type: "checkbox",
        id: "hints",
        checked: alone && (form.hints ?? true),
        disabled: !alone,
        "aria-describedby": "hints-alone",
        on: {
          change: (e) => (form.hints = /** @type {HTMLInputElement} */ (e.target).checked),
        },
      }),
      t("lobby.hints"),
    ]),
    h("p", { class: "hint", id: "hints-alone", hidden: alone, text: t("lobby.hintsAlone") }),
  ]);
}

/**
 * What the table hands the box: the game, the state shown and its connection (a hint is asked
 * with its token), whether it is the seat's turn, a replay, the answers kept between draws,
 * and how an answer is drawn (`redraw(focus)`).
 * @typedef {{gameId: string, msg: {position: number, seat: number | null, hints?: boolean,
 *   finished?: boolean}, conn: {token?: string | null} | null | undefined, myTurn: boolean,
 *   replaying: boolean, ui: HintUi, redraw: (focus?: string) => void}} HintEnv
 */

/**
 * @param {HintEnv} env
 * @returns {HTMLDivElement | null}
 */
export function hintBox(env) {
  const state = hintState({
    msg: env.msg,
    myTurn: env.myTurn,
    replaying: env.replaying,
    token: !!env.conn?.token,
    ui: env.ui,
  });
  if (!state) return null;
  const { on, key } = state;
  const badge = h("span", {
    class: `badge hints-state ${on ? "on" : "off"}`,
    id: "hints-state",
    title: t(on ? "hint.onHelp" : "hint.offHelp"),
    text: t(on ? "hint.on" : "hint.off"),
  });
  /** @type {HTMLElement[]} */
  const parts = [badge];
  const answer = env.ui.answers[key];
  if (state.show === "answer") {
    parts.push(
      h("p", { class: "hint-answer", id: "hint-answer", role: "status", tabindex: "-1" }, [
        h("strong", { text: `${t("hint.title")}: ` }),
        hintText(answer.reason),
      ]),
    );
  } else if (state.show === "working") {
    parts.push(
      h("p", {
        class: "hint-answer muted",
        id: "hint-answer",
        role: "status",
        "aria-busy": "true",
        text: t("hint.working"),
      }),
    );
  } else if (state.show === "button") {
    parts.push(
      h("button", {
        id: "hint-button",
        text: t("hint.button"),
        on: { click: () => ask(env, key) },
      }),
    );
  }
  return h("div", { class: "hint-bar", id: "hint" }, parts);
}

/**
 * @param {HintEnv} env
 * @param {string} key
 */
async function ask(env, key) {
  const { ui, conn, msg } = env;
  ui.asking = key;
  env.redraw("#hint-answer");
  try {
    ui.answers[key] = await api(`/api/games/${encodeURIComponent(env.gameId)}/hint`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: conn?.token, position: msg.position }),
    });
  } catch (err) {
    toast(`${t("hint.failed")} ${/** @type {Error} */ (err).message}`);
  } finally {
    ui.asking = null;
  }
  env.redraw(ui.answers[key] ? "#hint-answer" : "#hint-button");
}
