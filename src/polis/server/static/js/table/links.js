// @ts-check
// "Links": each held seat's link (to play it on another device) and the link to watch.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { seatLink } from "../tokens.js";
import { copyField } from "../ui.js";
import { component } from "./changed.js";

/** @typedef {{lang: string, gameId: string, seats: {name: string, token: string}[]}} LinksProps */

/**
 * @param {HTMLElement} el
 * @returns {import("./changed.js").Component<LinksProps>}
 */
export function linksBox(el) {
  return component((p) => {
    clear(el);
    const box = h(
      "details",
      { class: "box links", id: "links" },
      h("summary", { text: t("links.title") }),
    );
    for (const seat of p.seats) {
      box.append(
        h("p", { class: "hint", text: t("links.seat", { name: seat.name }) }),
        copyField(seatLink(p.gameId, seat.token), {
          class: "seat-link",
          "aria-label": t("links.seat", { name: seat.name }),
        }),
      );
    }
    box.append(
      h("p", { class: "hint", text: t("links.watch") }),
      copyField(`${location.origin}/#/game/${encodeURIComponent(p.gameId)}`, {
        class: "watch-link",
        "aria-label": t("links.watch"),
      }),
    );
    el.append(box);
  });
}
