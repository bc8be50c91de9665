// @ts-check
// The end of the game's host: once the game is over, the winner, the score pad, the replay's
// buttons, the review, the rematch (../endgame.js) span the table's width under its head, and
// the table is marked "ended".
import { clear } from "../dom.js";
import { heldTokens } from "../tokens.js";
import { endPanel } from "../endgame.js";
import { component } from "./changed.js";

/**
 * @typedef {{lang: string, finished: boolean, replayAt: number | null, rematch: string | null}} EndProps
 */

/**
 * @param {{lang: string, finished: boolean, replayAt: number | null, rematch: string | null | undefined}} s
 *   `finished`: the game (not the replay's view) is over; `replayAt`: the replay's position
 *   shown (null: none); `rematch`: the rematch's game, once someone asked for it
 * @returns {EndProps}
 */
export function endProps(s) {
  return {
    lang: s.lang,
    finished: s.finished,
    replayAt: s.replayAt,
    rematch: s.rematch ?? null,
  };
}

/**
 * @template {import("../sdk.js").TableContext & {msg: any}} C
 * @param {{end: HTMLElement, table: HTMLElement}} el  the end's slot, and the table
 * @param {{gameId: string, mod: any, tg: import("../i18n.js").Translator, replay: () => any,
 *   goto: (n: number) => void, leaveReplay: () => void, rematch: (tokens: string[]) => void}} env
 *   the game, its client and words, the replay shown, and what the end's buttons do
 * @returns {import("./changed.js").Component<EndProps, [C]>}
 */
export function endHost(el, env) {
  return component((p, ctx) => {
    clear(el.end);
    el.table.classList.toggle("ended", p.finished);
    if (!p.finished) return;
    const tokens = [...new Set(Object.values(heldTokens(env.gameId)))];
    el.end.append(
      endPanel({
        gameId: env.gameId,
        msg: ctx.msg,
        ctx,
        mod: env.mod,
        tg: env.tg,
        replay: env.replay(),
        tokens,
        goto: env.goto,
        leaveReplay: env.leaveReplay,
        rematch: () => env.rematch(tokens),
      }),
    );
  });
}
