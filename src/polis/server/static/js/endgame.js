// The end of a game: the winner's moment, the game's score pad, the record, a replay of every
// move, the review and the rematch.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { markerHtml } from "./players.js";

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
export function winnerBox(result, names, colours) {
  const totals = result.players.map((p) => p.total);
  const first = result.ranking[0] ?? [];
  const who = first.map((q) => names[q]).join(" · ");
  const title =
    first.length > 1
      ? t("end.shared", { names: who, score: totals[first[0]] })
      : t("end.wins", { name: who, score: totals[first[0]] });
  const standings = h("ol", { class: "standings" });
  result.ranking.forEach((group, place) => {
    for (const q of group) {
      standings.append(
        h("li", { dataset: { seat: q } }, [
          `${t("end.place", { n: place + 1 })} `,
          markerHtml(q, colours[q]),
          ` ${names[q]} — ${t("end.points", { n: totals[q] })}`,
        ]),
      );
    }
  });
  return h("div", { class: "winner", id: "winner", role: "status" }, [
    trophy(),
    h("h3", { text: title }),
    standings,
  ]);
}

// env: {gameId, msg, ctx, mod, tg, replay, tokens, goto(n), leaveReplay(), rematch()}
export function endPanel(env) {
  const { gameId, msg, ctx, mod, tg, replay } = env;
  const box = h("div", { id: "end", class: `box${ctx.result && !replay ? " with-winner" : ""}` });
  if (ctx.result && !replay) {
    box.append(winnerBox(ctx.result, ctx.names, ctx.colours));
  }
  if (ctx.result) {
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
      href: `/api/games/${encodeURIComponent(gameId)}/record`,
      download: `${msg.game}-${gameId}.json`,
      text: t("end.download"),
    }),
  );
  const total = msg.played ?? msg.position; // moves standing (take-backs: see takebacks.py)
  const at = replay ? replay.position : total;
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
    h("a", {
      id: "review-link",
      class: "button",
      href: `#/review/${encodeURIComponent(gameId)}`,
      text: t("review.open"),
    }),
  );
  if (env.tokens.length && !replay) {
    bar.append(
      h("button", {
        id: "rematch",
        class: "primary",
        text: msg.rematch_id ? t("end.joinRematch") : t("end.rematch"),
        on: { click: () => env.rematch() },
      }),
    );
  }
  box.append(bar);
  return box;
}
