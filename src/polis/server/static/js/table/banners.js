// @ts-check
// The table's banners under the seats: the connection lost, the server's store down, watching,
// a bot standing in for someone (with "take my seat back" for this browser's seats), a person
// away on their turn (the time before a bot plays for them), what a bot did for a person now
// back, the open seats still to take.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { standInBanners, awayBanner, whileAwayBanner, standInRuns } from "../seatclock.js";
import { component } from "./changed.js";

/** @typedef {import("../seatclock.js").Seat} Seat */
/** @typedef {import("../seatclock.js").LogEvent} LogEvent */

/**
 * What the banners show. `standIn`: the seats as far as stand-ins go (null in a replay);
 * `away`: the seat to move whose person is away, and when (this device's ms) a bot plays for
 * them; `whileAway`: this browser's seats a bot played for until their person came back.
 * @typedef {{
 *   lang: string,
 *   offline: boolean,
 *   storeDown: boolean,
 *   spectator: "playing" | "over" | null,
 *   names: string[],
 *   standIn: {finished: boolean, leaveFinal: boolean, held: number[],
 *     seats: {kind: string, stand_in: string | null, stand_in_why: string | null}[]} | null,
 *   away: {seat: number, name: string, level: string, deadline: number} | null,
 *   whileAway: {seat: number, name: string, count: number, level: string, move: number}[],
 *   vacant: number,
 * }} BannersProps
 */

/**
 * The state message as far as the banners go.
 * @typedef {{finished?: boolean, seats: Seat[], current_player?: number | null,
 *   clock?: object | null, log: LogEvent[], authors?: (string | null)[] | null,
 *   rules?: {away_limit?: number | null, stand_in?: string, leave_final?: boolean} | null}} BannersMsg
 */

/**
 * The banners' props. `online`: a connection of this page is open; `refused`: the server
 * refused this page (no "reconnecting" then); `shown`: the table shown (null: none yet);
 * `awaySince`: since when (this device's ms) each person has been seen away; `seenWhileAway`:
 * per seat, the bot's last move its person said they saw.
 * @param {{lang: string, online: boolean, refused: boolean, storeDown: boolean,
 *   shown: {msg: BannersMsg, names: string[], held: number[], replaying: boolean} | null,
 *   awaySince: Record<number, number>, seenWhileAway: Record<number, number>}} s
 * @returns {BannersProps}
 */
export function bannersProps(s) {
  /** @type {BannersProps} */
  const p = {
    lang: s.lang,
    offline: !s.online && !s.refused,
    storeDown: s.storeDown,
    spectator: null,
    names: [],
    standIn: null,
    away: null,
    whileAway: [],
    vacant: 0,
  };
  if (!s.shown) return p;
  const { msg, names, held, replaying } = s.shown;
  p.names = names;
  if (!held.length && !replaying) p.spectator = msg.finished ? "over" : "playing";
  if (replaying) return p;
  p.standIn = {
    finished: !!msg.finished,
    leaveFinal: !!msg.rules?.leave_final,
    held,
    seats: msg.seats.map((seat) => ({
      kind: seat.kind,
      stand_in: seat.stand_in ?? null,
      stand_in_why: seat.stand_in_why ?? null,
    })),
  };
  p.vacant = msg.seats.filter((seat) => seat.vacant).length;
  // a person away on their turn where the table has an away limit: the time left before a bot
  // plays for them (from when this page saw them go; the server counts from when it did)
  const limit = msg.rules?.away_limit;
  const seat = msg.current_player;
  if (limit && !msg.clock && !msg.finished && !p.vacant && seat !== null && seat !== undefined) {
    const since = s.awaySince[seat];
    if (since !== undefined && !held.includes(seat))
      p.away = {
        seat,
        name: names[seat],
        level: msg.rules?.stand_in ?? "medium",
        deadline: since + limit * 1000,
      };
  }
  // back at a seat a bot played meanwhile: what it did, until the person says they saw it or
  // moves
  const { trailing } = standInRuns(msg.log, msg.authors ?? [], msg.seats);
  for (const seat of held) {
    const run = trailing[seat];
    if (!run || msg.seats[seat]?.stand_in || s.seenWhileAway[seat] === run.move) continue;
    p.whileAway.push({
      seat,
      name: names[seat],
      count: run.count,
      level: run.level,
      move: run.move,
    });
  }
  return p;
}

/**
 * @param {HTMLElement} el
 * @param {{reclaim: (seat: number) => void, seen: (seat: number, move: number) => void}} act
 *   taking a seat back from its bot; "I have seen it" under what a bot did meanwhile
 * @returns {import("./changed.js").Component<BannersProps>}
 */
export function bannersStrip(el, act) {
  return component((p) => {
    clear(el);
    if (p.offline)
      el.append(
        h("p", { class: "banner offline", role: "status", text: t("status.reconnecting") }),
      );
    if (p.storeDown)
      el.append(
        h("p", {
          class: "banner warn",
          id: "store-down",
          role: "status",
          text: t("status.storeDown"),
        }),
      );
    if (p.spectator)
      el.append(
        h("p", {
          class: "banner",
          id: "spectator",
          text: p.spectator === "over" ? t("status.spectatorEnd") : t("status.spectator"),
        }),
      );
    if (p.standIn) {
      const { finished, leaveFinal, held, seats } = p.standIn;
      el.append(
        ...standInBanners(
          { finished, seats, rules: { leave_final: leaveFinal } },
          p.names,
          held,
          act.reclaim,
        ),
      );
    }
    if (p.away) el.append(awayBanner(p.away.seat, p.away.name, p.away.level, p.away.deadline));
    for (const run of p.whileAway)
      el.append(whileAwayBanner(run.seat, run.name, run, () => act.seen(run.seat, run.move)));
    if (p.vacant)
      el.append(
        h("p", {
          class: "banner",
          id: "vacant",
          role: "status",
          text: t("status.vacant", { n: p.vacant }),
        }),
      );
  });
}
