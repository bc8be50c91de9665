// @ts-check
// The seats strip: each seat's marker, name (a link to the profile of a seat bound to an
// account), a stand-in's badge, its clock, whether its person is online, "You" and who is to
// move. Drawn again only when what it shows changed (a player coming online redraws this
// list, never the board).
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { markerHtml } from "../players.js";
import { seatClock, standInBadge } from "../seatclock.js";
import { component } from "./changed.js";

/** @typedef {import("../seatclock.js").Seat} Seat */
/** @typedef {import("../clockmath.js").Clock} Clock */

/**
 * What the strip shows.
 * @typedef {{
 *   lang: string,
 *   seats: Seat[],
 *   names: string[],
 *   colours: string[],
 *   current: number | null,
 *   held: number[],
 *   replaying: boolean,
 *   clock: Clock | null,
 *   finished: boolean,
 * }} SeatsProps
 */

/**
 * Each seat's name as the table says it: an open seat's, a bot's with its level.
 * @param {Seat[]} seats
 * @returns {string[]}
 */
export function seatNames(seats) {
  return seats.map((s) =>
    s.vacant
      ? t("lobby.openSeat")
      : s.kind === "bot"
        ? `${s.name} (${t(`level.${s.level}`)})`
        : (s.name ?? ""),
  );
}

/**
 * The strip's props from the state message shown and the view drawn (a replay's own view).
 * @param {{seats: Seat[], clock?: Clock | null, finished?: boolean}} msg
 * @param {{current_player?: number | null}} view
 * @param {{held: number[], replaying: boolean, lang: string, colours: string[]}} local
 * @returns {SeatsProps}
 */
export function seatsProps(msg, view, { held, replaying, lang, colours }) {
  return {
    lang,
    seats: msg.seats,
    names: seatNames(msg.seats),
    colours,
    current: view.current_player ?? null,
    held: replaying ? [] : held,
    replaying,
    clock: replaying ? null : (msg.clock ?? null),
    finished: !!msg.finished,
  };
}

/**
 * @param {HTMLElement} el the list (ul#seats)
 * @returns {import("./changed.js").Component<SeatsProps>}
 */
export function seatsStrip(el) {
  return component((p) => {
    clear(el);
    el.setAttribute("aria-label", t("seat.list"));
    const msg = { clock: p.clock, finished: p.finished, seats: p.seats };
    p.seats.forEach((s, i) => {
      const current = p.current === i;
      const you = p.held.includes(i);
      // a seat bound to an account links to its profile
      const name = s.account
        ? h("a", {
            class: "profile-link",
            href: `#/player/${encodeURIComponent(s.account)}`,
            text: p.names[i],
            title: t("seat.profile", { name: s.account }),
          })
        : p.names[i];
      el.append(
        h(
          "li",
          { class: `${current ? "current" : ""} ${you ? "mine" : ""}`, dataset: { seat: i } },
          [
            markerHtml(i, p.colours[i]),
            name,
            standInBadge(s),
            p.replaying ? null : seatClock(msg, i, p.names[i]),
            h("span", {
              class: `conn ${s.connected ? "on" : "off"}`,
              role: "img",
              "aria-label": s.connected ? t("seat.online") : t("seat.offline"),
              title: s.connected ? t("seat.online") : t("seat.offline"),
            }),
            you ? h("span", { class: "badge", text: t("seat.you") }) : "",
            current ? h("span", { class: "visually-hidden", text: t("seat.toMove") }) : "",
          ],
        ),
      );
    });
  });
}
