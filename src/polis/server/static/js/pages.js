// @ts-check
// Pages that explain what went wrong with a link, and what can be done about it.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { forgetToken, forgetGame } from "./tokens.js";

/**
 * @typedef {object} MessagePage
 * @property {string} title
 * @property {string} text
 * @property {string} [gameId]
 * @property {string | null} [token]  the link's seat token, if any
 * @property {boolean} [watch]  offer to watch the game instead
 * @property {string | null} [detail]
 */

/**
 * @param {HTMLElement} root
 * @param {MessagePage} page
 */
export function messagePage(root, { title, text, gameId, token, watch, detail }) {
  const actions = h("div", { class: "row" });
  if (watch && gameId) {
    actions.append(
      h("button", {
        id: "watch-instead",
        class: "primary",
        text: t("page.watch"),
        on: {
          click: () => {
            if (token) forgetToken(gameId, token);
            const target = `#/game/${encodeURIComponent(gameId)}`;
            if (location.hash === target) window.dispatchEvent(new HashChangeEvent("hashchange"));
            else location.hash = target;
          },
        },
      }),
    );
  }
  if (gameId && token) {
    actions.append(
      h("button", {
        id: "forget-link",
        text: t("page.forget"),
        on: {
          click: () => {
            if (watch) forgetToken(gameId, token);
            else forgetGame(gameId); // no such game: nothing stored for it is of use
            location.hash = "#/";
          },
        },
      }),
    );
  }
  actions.append(h("a", { class: "button", href: "#/", id: "back-to-lobby", text: t("app.back") }));
  clear(root).append(
    h("section", { class: "panel message-page", id: "message-page", role: "alert" }, [
      h("h2", { text: title }),
      h("p", { text }),
      detail ? h("p", { class: "hint", text: detail }) : "",
      actions,
    ]),
  );
}
