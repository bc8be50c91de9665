// @ts-check
// The end of a game: the winner's moment, the game's score pad, the record, a replay of every
// move, the review and the rematch. What it shows is worked out first, without the DOM
// (`winnerProps`, `endBarProps`), then drawn.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { markerHtml } from "./players.js";

/**
 * A game's result as far as the end goes: each player's total, the places (seats sharing a
 * place together, best first).
 * @typedef {{players: {total: number}[], ranking: number[][]}} Result
 */

/**
 * The winner's moment: who won (several: a shared first place) with what score, and every
 * player's place and final score, best first.
 * @typedef {{shared: boolean, names: string, score: number,
 *   standings: {place: number, seat: number, name: string, points: number}[]}} WinnerProps
 */

/**
 * @param {Result} result
 * @param {string[]} names
 * @returns {WinnerProps}
 */
export function winnerProps(result, names) {
  const totals = result.players.map((p) => p.total);
  const first = result.ranking[0] ?? [];
  return {
    shared: first.length > 1,
    names: first.map((q) => names[q]).join(" · "),
    score: totals[first[0]],
    standings: result.ranking.flatMap((group, place) =>
      group.map((seat) => ({ place: place + 1, seat, name: names[seat], points: totals[seat] })),
    ),
  };
}

/**
 * The end's bar: the record to download, the replay's place (`at` of `total` moves standing),
 * the rematch's button ("new": ask for one, "join": one was asked for, null: none offered).
 * @typedef {{record: {href: string, download: string}, at: number, total: number,
 *   rematch: "new" | "join" | null, review: string, winner: boolean, pad: boolean}} EndBarProps
 */

/**
 * @param {{gameId: string, msg: {game: string, position: number, played?: number,
 *   rematch_id?: string | null}, result: Result | null, replay: {position: number} | null,
 *   tokens: string[]}} s
 *   `result`: the game's result as shown (a replay's is its own, once at its end); `tokens`:
 *   the seats this browser holds (a rematch is offered to them)
 * @returns {EndBarProps}
 */
export function endBarProps(s) {
  const id = encodeURIComponent(s.gameId);
  const total = s.msg.played ?? s.msg.position; // moves standing (take-backs: see takebacks.py)
  return {
    record: { href: `/api/games/${id}/record`, download: `${s.msg.game}-${s.gameId}.json` },
    at: s.replay ? s.replay.position : total,
    total,
    rematch: s.tokens.length && !s.replay ? (s.msg.rematch_id ? "join" : "new") : null,
    review: `#/review/${id}`,
    winner: !!s.result && !s.replay,
    pad: !!s.result,
  };
}

function trophy() {
  return s(
    "svg",
    { class: "trophy", viewBox: "0 0 64 64", width: 56, height: 56, "aria-hidden": "true" },
    [
      s("path", {
        d: "M18 8 H46 V24 Q46 40 32 42 Q18 40 18 24 Z",
        fill: "#f2b600",
        stroke: "#5a4100",
        "stroke-width": 2.5,
      }),
      s("path", {
        d: "M18 14 H8 Q8 30 20 30 M46 14 H56 Q56 30 44 30",
        fill: "none",
        stroke: "#5a4100",
        "stroke-width": 3,
      }),
      s("rect", {
        x: 28,
        y: 42,
        width: 8,
        height: 8,
        fill: "#f2b600",
        stroke: "#5a4100",
        "stroke-width": 2,
      }),
      s("rect", {
        x: 18,
        y: 50,
        width: 28,
        height: 7,
        rx: 2,
        fill: "#8a5a00",
        stroke: "#5a4100",
        "stroke-width": 2,
      }),
      s("path", {
        d: "M32 16 L34.5 22 L41 22.5 L36 26.5 L37.5 33 L32 29.5 L26.5 33 L28 26.5 L23 22.5 L29.5 22 Z",
        fill: "#fff6c8",
      }),
    ],
  );
}

// "Ada wins with 31 points", or a shared first place; then every player's final score.
/**
 * @param {Result} result
 * @param {string[]} names
 * @param {string[]} colours
 * @returns {HTMLDivElement}
 */
export function winnerBox(result, names, colours) {
  const p = winnerProps(result, names);
  const title = p.shared
    ? t("end.shared", { names: p.names, score: p.score })
    : t("end.wins", { name: p.names, score: p.score });
  const standings = h("ol", { class: "standings" });
  for (const row of p.standings)
    standings.append(
      h("li", { dataset: { seat: row.seat } }, [
        `${t("end.place", { n: row.place })} `,
        markerHtml(row.seat, colours[row.seat]),
        ` ${row.name} — ${t("end.points", { n: row.points })}`,
      ]),
    );
  return h("div", { class: "winner", id: "winner", role: "status" }, [
    trophy(),
    h("h3", { text: title }),
    standings,
  ]);
}

/**
 * What the table hands the end: the game, the state message and the context shown, the
 * game's client and words, the replay shown (null: none), the seats held, and what the
 * buttons do.
 * @typedef {{gameId: string, msg: {game: string, position: number, played?: number,
 *   rematch_id?: string | null}, ctx: import("./sdk.js").TableContext, mod: any,
 *   tg: import("./i18n.js").Translator, replay: {position: number} | null, tokens: string[],
 *   goto: (n: number) => void, leaveReplay: () => void, rematch: () => void}} EndEnv
 */

/**
 * @param {EndEnv} env
 * @returns {HTMLDivElement}
 */
export function endPanel(env) {
  const { ctx, mod, tg } = env;
  const p = endBarProps({
    gameId: env.gameId,
    msg: env.msg,
    result: ctx.result,
    replay: env.replay,
    tokens: env.tokens,
  });
  const box = h("div", { id: "end", class: `box${p.winner ? " with-winner" : ""}` });
  if (p.winner) box.append(winnerBox(ctx.result, ctx.names, ctx.colours));
  if (p.pad) {
    box.append(
      h("div", { class: "end-pad" }, [
        h("h3", { text: t("score.title") }),
        h("div", { class: "scroll-x pad-scroll" }, mod.scorePad(ctx, tg)),
      ]),
    );
  }
  const bar = h("div", { class: "row end-bar" });
  bar.append(
    h("a", {
      id: "download",
      class: "button",
      href: p.record.href,
      download: p.record.download,
      text: t("end.download"),
    }),
  );
  const at = p.at;
  bar.append(
    h("span", { class: "replay", role: "group", "aria-label": t("replay.title") }, [
      h("button", {
        id: "replay-start",
        "aria-label": t("replay.start"),
        title: t("replay.start"),
        text: "|◀",
        on: { click: () => env.goto(0) },
      }),
      h("button", {
        id: "replay-prev",
        "aria-label": t("replay.prev"),
        title: t("replay.prev"),
        text: "◀",
        on: { click: () => env.goto(at - 1) },
      }),
      h("button", {
        id: "replay-next",
        "aria-label": t("replay.next"),
        title: t("replay.next"),
        text: "▶",
        on: { click: () => env.goto(at + 1) },
      }),
      h("button", {
        id: "replay-end",
        "aria-label": t("replay.end"),
        title: t("replay.end"),
        text: "▶|",
        on: { click: () => env.leaveReplay() },
      }),
    ]),
  );
  // every move weighed against the strongest level's choice (review.js)
  bar.append(
    h("a", { id: "review-link", class: "button", href: p.review, text: t("review.open") }),
  );
  if (p.rematch) {
    bar.append(
      h("button", {
        id: "rematch",
        class: "primary",
        text: p.rematch === "join" ? t("end.joinRematch") : t("end.rematch"),
        on: { click: () => env.rematch() },
      }),
    );
  }
  box.append(bar);
  return box;
}
