// @ts-check
// "Keep in My games": a signed-in person playing a seat by its link, the seat bound to no
// account, may bind it to theirs (POST /api/account/claim).
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { api, toast } from "../ui.js";
import { component } from "./changed.js";

/** @typedef {{lang: string, account: string | null, gameId: string, tokens: string[]}} ClaimProps */

/**
 * The seats to offer: held by link (a token), played by a person, bound to no account; none
 * in a replay or while signed out.
 * @param {{seat: number, token: string | null}[]} held
 * @param {import("../seatclock.js").Seat[]} seats
 * @param {{account: string | null, replaying: boolean}} local
 * @returns {string[]} their tokens
 */
export function looseSeats(held, seats, { account, replaying }) {
  if (replaying || !account) return [];
  return held
    .filter(({ seat, token }) => token && seats[seat] && !seats[seat].account)
    .filter(({ seat }) => seats[seat].kind === "human")
    .map(({ token }) => /** @type {string} */ (token));
}

/**
 * @param {HTMLElement} el
 * @param {(err: unknown) => string} errorLine a refusal in words (session.js)
 * @returns {import("./changed.js").Component<ClaimProps>}
 */
export function claimBanner(el, errorLine) {
  return component((p) => {
    clear(el);
    if (!p.tokens.length) return;
    const button = h("button", {
      id: "claim-seat",
      type: "button",
      class: "primary",
      text: t("claim.button"),
      on: {
        click: async () => {
          button.disabled = true;
          try {
            for (const token of p.tokens)
              await api("/api/account/claim", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ game_id: p.gameId, token }),
              });
            toast(t("claim.done"), "info");
          } catch (err) {
            toast(errorLine(err));
            button.disabled = false;
          }
        },
      },
    });
    el.append(
      h("div", { class: "banner claim", id: "claim" }, [
        h("span", { text: t("claim.ask", { name: p.account }) }),
        " ",
        button,
      ]),
    );
  });
}
