// @ts-check
// The review of a finished game (see reviews.py): every move next to the move the strongest
// level would have chosen from what that player could see then, what it cost in wins and
// points with the 95% interval of each over the sampled games, and the game's worst moves
// marked on the game's own scale (only where the interval is sure of it), each marked move
// explained in a sentence the game computed (its "reasons" part: a key of the game's
// catalogue and its arguments, a nested reason formatted first). Every row opens the replay
// at that move (click, Enter or Space). The server works it out in its bot workers; the page
// says how far it has come meanwhile and asks again every second.
import { h, clear } from "./dom.js";
import { t, translator } from "./i18n.js";
import { markerHtml } from "./players.js";
import { words } from "./reasons.js";
import { api, ApiError } from "./ui.js";

const POLL = 1000;
// the chess signs of the marks, short enough for a phone's table (the word is read out)
/** @type {Record<string, string>} */
const SIGNS = { blunder: "??", mistake: "?", inaccuracy: "?!" };

/** @typedef {[number, number]} Interval  a 95% interval: its low and high ends */

/**
 * What a move was expected to bring over the sampled games (bots/review.py: _estimate_json).
 * @typedef {{win_share: number, points: number, samples: number,
 *   win_share_interval: Interval | null, points_interval: Interval | null}} Estimate
 */

/**
 * One move weighed (bots/review.py: MoveReview.to_json).
 * @typedef {object} MoveReview
 * @property {number} index  the move's index in the game (0: the first)
 * @property {number} player  the seat that played it
 * @property {string} played  the move played, in notation
 * @property {string} best  the move the strongest level would have chosen
 * @property {boolean} forced  the only legal move
 * @property {Estimate | null} played_estimate
 * @property {Estimate | null} best_estimate
 * @property {number} win_share_loss  the win share lost (clipped at 0)
 * @property {number} points_loss
 * @property {string} mark  blunder, mistake, inaccuracy or "" (none)
 * @property {Interval | null} win_share_loss_interval
 * @property {Interval | null} points_loss_interval
 * @property {number} moves_lost
 * @property {import("./reasons.js").Reason | null} reason  why `best` was better
 */

/**
 * GET /api/games/{id}/review (table/reviews.py: Review.to_json): still being worked out, failed,
 * or ready with every move weighed.
 * @typedef {{status: "preparing", done: number, total: number}
 *   | {status: "failed", message: string}
 *   | ReadyReview} ReviewAnswer
 */

/**
 * A review worked out: every move weighed, and what each mark takes (in moves' worth, of
 * `points_scale` points each).
 * @typedef {{status: "ready", total: number, points_scale: number, moves: MoveReview[],
 *   marks?: Record<string, {win_share: number, moves_worth: number}>}} ReadyReview
 */

/** @param {string} mark */
function markSign(mark) {
  return h("span", { class: `badge mark ${mark}`, title: t(`review.mark.${mark}`) }, [
    h("span", { "aria-hidden": "true", text: SIGNS[mark] ?? "!" }),
    h("span", { class: "visually-hidden", text: t(`review.mark.${mark}`) }),
  ]);
}

/** @param {number} x */
const pct = (x) => Math.round(100 * x);
/**
 * A signed whole percent, with a real minus sign.
 * @param {number} x
 */
export const signedPct = (x) => (pct(x) < 0 ? `−${-pct(x)}` : String(pct(x)));
/**
 * Points lost (negative: the searcher's move was expected to score less, yet win as often).
 * @param {number} x
 */
export const points = (x) =>
  Math.abs(x) < 0.05 ? "0" : `${x > 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
/**
 * The win share lost as measured (negative: the played move did better on these samples), the
 * middle of its interval (the review's win_share_loss is clipped at 0).
 * @param {MoveReview} m
 * @returns {number}
 */
export function winLost(m) {
  const best = m.best_estimate;
  const mine = m.played_estimate;
  return best && mine ? best.win_share - mine.win_share : m.win_share_loss;
}
/**
 * The 95% intervals of a move's losses, in the words' arguments ("?" where there is none).
 * @param {MoveReview} m
 */
export function ranges(m) {
  const win = m.win_share_loss_interval;
  const pts = m.points_loss_interval;
  return {
    winLow: win ? signedPct(win[0]) : "?",
    winHigh: win ? signedPct(win[1]) : "?",
    pointsLow: pts ? points(pts[0]) : "?",
    pointsHigh: pts ? points(pts[1]) : "?",
  };
}

/**
 * A row that opens the replay at its move: a click, or Enter or Space on the focused row.
 * @param {string} gameId
 * @param {MoveReview} m
 * @returns {import("./dom.js").Attrs}
 */
function opener(gameId, m) {
  const open = () => {
    location.hash = `#/replay/${encodeURIComponent(gameId)}/${m.index + 1}`;
  };
  return {
    tabindex: "0",
    "aria-describedby": "review-open-help",
    on: {
      click: open,
      keydown: (/** @type {KeyboardEvent} */ e) => {
        if (e.target !== e.currentTarget || (e.key !== "Enter" && e.key !== " ")) return;
        e.preventDefault();
        open();
      },
    },
  };
}

/**
 * @typedef {object} ReviewEnv
 * @property {HTMLElement} root
 * @property {string} gameId
 * @property {Record<string, {PLAYER_COLOURS?: string[]}>} clients  the games' client modules
 * @property {(game: string) => string} gameTitle
 * @property {(game: string, mode: string) => string} modeName
 */

/**
 * @param {ReviewEnv} env
 * @returns {{render: () => void, destroy: () => void}}
 */
export function reviewPage(env) {
  const { root, gameId } = env;
  /** @type {import("./ui.js").GameSummary | null} */
  let summary = null;
  /** @type {ReviewAnswer | null} */
  let data = null;
  /** @type {string | null} */
  let failure = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let destroyed = false;
  const back = `#/game/${encodeURIComponent(gameId)}`;

  /** @typedef {import("./ui.js").GameSummary} GameSummary */

  /**
   * The seats' names, shown inside brackets ("at move 5 (Bea, easy)"): a bot's level follows
   * a comma.
   * @param {GameSummary} game
   */
  function names(game) {
    return game.seats.map((s) =>
      s.kind === "bot" ? `${s.name}, ${t(`level.${s.level}`)}` : s.name,
    );
  }

  /**
   * @param {GameSummary} game
   * @param {number} seat
   */
  function marker(game, seat) {
    const colours = env.clients[game.game]?.PLAYER_COLOURS ?? [];
    return colours[seat] ? markerHtml(seat, colours[seat]) : "";
  }

  /**
   * @param {GameSummary} game
   * @param {MoveReview[]} moves
   * @param {string[]} who  the seats' names
   */
  function worstList(game, moves, who) {
    const say = translator(game.game);
    const marked = moves.filter((m) => m.mark);
    const box = h("section", { class: "review-worst", "aria-labelledby": "review-worst-title" }, [
      h("h2", { id: "review-worst-title", text: t("review.worst") }),
    ]);
    if (!marked.length) {
      box.append(h("p", { text: t("review.none") }));
      return box;
    }
    box.append(
      h(
        "ul",
        {},
        marked.map((m) =>
          h("li", { class: `mark-${m.mark}`, dataset: { move: m.index }, ...opener(gameId, m) }, [
            h("span", { class: `badge mark ${m.mark}`, text: t(`review.mark.${m.mark}`) }),
            " ",
            m.reason
              ? [
                  h("strong", {
                    text: t("review.atMove", { n: m.index + 1, name: who[m.player] ?? "" }),
                  }),
                  " ",
                  h("span", { class: "reason", text: words(m.reason, say) }),
                  " ",
                  h("small", {
                    class: "muted",
                    text: t("review.figures", {
                      played: m.played,
                      best: m.best,
                      win: pct(m.win_share_loss),
                      points: points(m.points_loss).replace(/^\+/, ""), // "lost" says the sign
                    }),
                  }),
                ]
              : t("review.markLine", {
                  n: m.index + 1,
                  name: who[m.player] ?? "",
                  played: m.played,
                  best: m.best,
                  win: pct(m.win_share_loss),
                  points: points(m.points_loss),
                  ...ranges(m),
                }),
          ]),
        ),
      ),
    );
    return box;
  }

  /**
   * @param {GameSummary} game
   * @param {ReadyReview} review
   */
  function movesTable(game, review) {
    const moves = review.moves;
    const head = [
      "review.move",
      "review.player",
      "review.played",
      "review.best",
      "review.loss",
      "review.markCol",
    ];
    const rows = moves.map((m) => {
      const same = m.forced || m.best === m.played;
      return h(
        "tr",
        {
          class: `${m.forced ? "forced" : ""} ${m.mark ? `mark-${m.mark}` : ""}`,
          dataset: { move: m.index },
          ...opener(gameId, m),
        },
        [
          h("th", { scope: "row", text: String(m.index + 1) }),
          h("td", { class: "who" }, [
            marker(game, m.player),
            " ",
            game.seats[m.player]?.name ?? "",
          ]), // (short: a phone)
          h("td", { class: "notation", text: m.played }),
          h("td", {
            class: "notation",
            text: m.forced ? t("review.forced") : same ? t("review.same") : m.best,
          }),
          h(
            "td",
            { class: "num" },
            same
              ? "—"
              : [
                  t("review.lossValue", {
                    win: signedPct(winLost(m)),
                    points: points(m.points_loss),
                  }),
                  h("br"),
                  h("small", { class: "muted loss-range", text: t("review.lossRange", ranges(m)) }),
                ],
          ),
          h("td", {}, m.mark ? markSign(m.mark) : ""),
        ],
      );
    });
    return h("section", { "aria-labelledby": "review-moves-title" }, [
      h("h2", { id: "review-moves-title", text: t("review.table") }),
      h("p", {
        class: "hint",
        id: "review-loss-help",
        text: t("review.lossHelp", {
          inaccuracy: review.marks?.inaccuracy?.moves_worth ?? "?",
          mistake: review.marks?.mistake?.moves_worth ?? "?",
          blunder: review.marks?.blunder?.moves_worth ?? "?",
          scale: review.points_scale ?? 0,
        }),
      }),
      h("p", { class: "hint", id: "review-open-help", text: t("review.openHelp") }),
      h(
        "div",
        {
          class: "scroll-x",
          tabindex: "0",
          role: "region",
          "aria-labelledby": "review-moves-title",
        },
        h("table", { class: "review-table", id: "review-table" }, [
          // (the marks' column is named for screen readers only: its signs need no heading)
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              head.map((k) =>
                h(
                  "th",
                  { scope: "col" },
                  h("span", {
                    class: k === "review.markCol" ? "visually-hidden" : null,
                    text: t(k),
                  }),
                ),
              ),
            ),
          ),
          h("tbody", {}, rows),
        ]),
      ),
    ]);
  }

  function draw() {
    if (destroyed) return;
    const panel = h("section", {
      class: "panel review",
      id: "review",
      "aria-labelledby": "review-title",
    });
    const title = summary
      ? `${t("review.title")} · ${env.gameTitle(summary.game)} · ${env.modeName(summary.game, summary.mode)}`
      : t("review.title");
    panel.append(
      h("h1", { id: "review-title", text: title }),
      h("p", {}, h("a", { href: back, id: "review-back", text: t("review.back") })),
    );
    if (failure) {
      panel.append(
        h("p", { class: "error", role: "alert", id: "review-status", text: failure }),
        h("button", {
          id: "review-retry",
          text: t("review.retry"),
          on: {
            click: () => {
              failure = null;
              data = null;
              draw();
              poll();
            },
          },
        }),
      );
    } else if (data?.status !== "ready" || !summary) {
      const done = data?.status === "preparing" ? data.done : 0;
      const total = data?.status === "preparing" ? data.total : 0;
      panel.append(
        h("p", { class: "hint", text: t("review.intro") }),
        h("div", { id: "review-status", role: "status" }, [
          h("p", { text: t("review.preparing", { done, total }) }),
          h("progress", {
            max: Math.max(total, 1),
            value: done,
            "aria-label": t("review.progress"),
          }),
        ]),
      );
    } else {
      const who = names(summary);
      panel.append(
        h("p", { class: "hint", text: t("review.intro") }),
        h("p", {
          class: "muted",
          id: "review-status",
          role: "status",
          text: t("review.ready", { n: data.moves.length }),
        }),
        worstList(summary, data.moves, who),
        movesTable(summary, data),
      );
    }
    const had = document.activeElement?.id;
    clear(root).append(panel);
    if (had) document.getElementById(had)?.focus();
  }

  async function poll() {
    clearTimeout(timer);
    if (destroyed) return;
    try {
      summary = summary ?? (await api(`/api/games/${encodeURIComponent(gameId)}`));
      /** @type {ReviewAnswer} */
      const answer = await api(`/api/games/${encodeURIComponent(gameId)}/review`);
      data = answer;
      if (answer.status === "failed") failure = answer.message;
    } catch (err) {
      failure =
        err instanceof ApiError && err.code === "not_finished"
          ? t("review.notOver")
          : err instanceof Error
            ? err.message
            : String(err);
    }
    draw();
    if (!failure && data?.status === "preparing") timer = setTimeout(poll, POLL);
  }

  document.title = `${t("review.title")} – polis`;
  draw();
  poll();
  return {
    render: draw,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
    },
  };
}
