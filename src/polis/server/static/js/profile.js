// @ts-check
// #/player/{name}: a player's public page. Ratings per game and mode (provisional ones said to
// be), the history of each as a chart (inline SVG built here, coloured by the style sheet: no
// style attribute, which the page's CSP forbids), games played, win share, mean rank, best and
// mean final score per game and mode, and the recent games with their replay and review. A
// signed-in visitor may challenge the player or block them.
import { h, s, clear } from "./dom.js";
import { t, language } from "./i18n.js";
import { api, toast, ApiError } from "./ui.js";
import { me, people, setPerson, errorLine } from "./session.js";
import { pageTitle, when, dateOf } from "./forms.js";

/**
 * One point of a rating's history: the rating shown after a rated game, and when.
 * @typedef {{game: string, mode: string, game_id: string, rating: number, at: string}} RatingPoint
 */

/**
 * A player's figures in one game and mode (best_score: as the game counts, whole or not).
 * @typedef {{
 *   game: string,
 *   mode: string,
 *   played: number,
 *   win_share: number,
 *   mean_rank: number,
 *   best_score: number,
 *   mean_score: number,
 * }} Stats
 */

/**
 * One of the player's last finished games: their seat, rank and score, and every seat's name
 * (with its account, if it is a live one).
 * @typedef {{
 *   id: string,
 *   game: string,
 *   mode: string,
 *   players: number,
 *   seat: number,
 *   seats: {name: string, account: string | null}[],
 *   rank: number,
 *   score: number,
 *   rated: boolean,
 *   forfeited: boolean,
 *   finished: string,
 * }} RecentGame
 */

/**
 * GET /api/players/{name} (accounts/profiles.py's profile): times are ISO 8601 in UTC.
 * @typedef {{
 *   name: string,
 *   bot: boolean,
 *   created: string,
 *   ratings: import("./session.js").Rating[],
 *   stats: Stats[],
 *   recent: RecentGame[],
 *   history: RatingPoint[],
 * }} Profile
 */

/** @param {number} x */
const pct = (x) =>
  new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(x);
/**
 * @param {number | null | undefined} x
 * @param {number} [digits]
 */
const num = (x, digits = 1) =>
  x === null || x === undefined
    ? "—"
    : new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(x);

// "14:05" in the page's language (the chart's games of one day).
/** @param {string} iso */
function clockTime(iso) {
  const d = dateOf(iso);
  return Number.isNaN(d.getTime())
    ? ""
    : new Intl.DateTimeFormat(language(), { timeStyle: "short" }).format(d);
}

// Round steps for the rating axis (25, 50, 100, ...) giving at most 5 lines.
/**
 * @param {number} low
 * @param {number} high
 * @returns {number[]}
 */
export function ticks(low, high) {
  for (const step of [10, 25, 50, 100, 200, 500, 1000]) {
    const first = Math.ceil(low / step) * step;
    /** @type {number[]} */
    const out = [];
    for (let v = first; v <= high; v += step) out.push(v);
    if (out.length <= 5) return out;
  }
  return [low, high];
}

// One series' chart: its rating after each rated game, in order; `width` in CSS pixels (the
// chart is drawn for its box, so its words keep their size on a phone).
/**
 * @param {{rating: number, at: string}[]} points
 * @param {string} label
 * @param {string} id
 * @param {number} [width]
 */
export function ratingChart(points, label, id, width = 600) {
  const W = Math.round(Math.max(280, Math.min(640, width)));
  const H = 220;
  const pad = { left: 52, right: 16, top: 14, bottom: 34 };
  const values = points.map((p) => p.rating);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 40) {
    low -= 20;
    high += 20;
  }
  const span = high - low;
  low -= span * 0.08;
  high += span * 0.08;
  const n = points.length;
  /** @param {number} i */
  const x = (i) =>
    pad.left +
    (n === 1 ? (W - pad.left - pad.right) / 2 : (i * (W - pad.left - pad.right)) / (n - 1));
  /** @param {number} v */
  const y = (v) => pad.top + ((high - v) * (H - pad.top - pad.bottom)) / (high - low);
  const grid = ticks(low, high).map((v) =>
    s("g", { class: "tick" }, [
      s("line", { class: "grid", x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v) }),
      s("text", { class: "axis", x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)),
    ]),
  );
  const first = points[0];
  const last = points[n - 1];
  // the dates of the first and last games, or their times when both were the same day
  const sameDay = n > 1 && when(first.at, false) === when(last.at, false);
  /** @param {{at: string}} p */
  const stamp = (p) => (sameDay ? clockTime(p.at) : when(p.at, false));
  const best = Math.max(...values);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return s(
    "svg",
    {
      class: "rating-chart",
      id,
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "aria-labelledby": `${titleId} ${descId}`,
      preserveAspectRatio: "xMidYMid meet",
    },
    [
      s("title", { id: titleId }, label),
      s(
        "desc",
        { id: descId },
        t("profile.chartDesc", { n, first: first.rating, last: last.rating, best }),
      ),
      ...grid,
      s("line", {
        class: "axis-line",
        x1: pad.left,
        x2: W - pad.right,
        y1: H - pad.bottom,
        y2: H - pad.bottom,
      }),
      s(
        "text",
        {
          class: "axis",
          x: x(0),
          y: H - pad.bottom + 18,
          "text-anchor": n === 1 ? "middle" : "start",
        },
        stamp(first),
      ),
      n > 1
        ? s(
            "text",
            { class: "axis", x: x(n - 1), y: H - pad.bottom + 18, "text-anchor": "end" },
            stamp(last),
          )
        : null,
      n > 1
        ? s("polyline", {
            class: "line",
            fill: "none",
            points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
          })
        : null,
      ...points.map((p, i) =>
        s(
          "circle",
          { class: "pt", cx: x(i), cy: y(p.rating), r: 4.5 },
          s(
            "title",
            {},
            t("profile.point", { n: i + 1, rating: p.rating, when: when(p.at, false) }),
          ),
        ),
      ),
    ],
  );
}

/**
 * @param {import("./forms.js").PageEnv} env `name`: the address's
 * @returns {import("./forms.js").Page}
 */
export function profilePage(env) {
  const { root, name, gameTitle, modeName } = env;
  /** @type {Profile | null} */
  let data = null;
  let missing = false;
  /** @type {string | null} */
  let failed = null;
  let blocked = false;
  let destroyed = false;
  /**
   * @param {string} g
   * @param {string} m
   */
  const what = (g, m) => `${gameTitle(g)} · ${modeName(g, m)}`;

  async function load() {
    try {
      data = await api(`/api/players/${encodeURIComponent(name)}`, { cache: "no-store" });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) missing = true;
      else failed = errorLine(err);
    }
    if (me() && me() !== name) blocked = (await people()).blocked.includes(data?.name ?? name);
    if (!destroyed) draw();
  }

  /** @param {Profile} data */
  function ratingsSection(data) {
    const rows = data.ratings.map((r) =>
      h("tr", { dataset: { game: r.game, mode: r.mode } }, [
        h("th", { scope: "row", text: what(r.game, r.mode) }),
        h("td", { class: "num rating" }, [
          String(r.rating),
          r.provisional
            ? h("span", { class: "badge provisional", text: t("rating.provisional") })
            : "",
        ]),
        h("td", { class: "num", text: String(r.games) }),
      ]),
    );
    return h(
      "section",
      {
        class: "panel page-section",
        id: "profile-ratings",
        "aria-labelledby": "profile-ratings-title",
      },
      [
        h("h2", { id: "profile-ratings-title", text: t("profile.ratings") }),
        data.ratings.length
          ? h(
              "div",
              { class: "scroll-x" },
              h("table", { class: "data-table", id: "ratings-table" }, [
                h(
                  "thead",
                  {},
                  h("tr", {}, [
                    h("th", { scope: "col", text: t("profile.gameMode") }),
                    h("th", { scope: "col", class: "num", text: t("rating.rating") }),
                    h("th", { scope: "col", class: "num", text: t("rating.games") }),
                  ]),
                ),
                h("tbody", {}, rows),
              ]),
            )
          : h("p", { class: "muted", id: "no-ratings", text: t("profile.noRatings") }),
        h("p", { class: "hint", text: t("rating.provisionalHint") }),
      ],
    );
  }

  /** @param {Profile} data */
  function historySection(data) {
    /** @type {Map<string, RatingPoint[]>} */
    const series = new Map();
    for (const p of data.history) {
      const key = `${p.game}\u0000${p.mode}`;
      let points = series.get(key);
      if (!points) series.set(key, (points = []));
      points.push(p);
    }
    const charts = [...series.entries()].map(([key, points], i) => {
      const [game, mode] = key.split("\u0000");
      const label = t("profile.chartTitle", { what: what(game, mode) });
      return h("figure", { class: "chart-box", dataset: { game, mode } }, [
        ratingChart(points, label, `rating-chart-${i}`, root.clientWidth - 48),
        h("figcaption", { text: label }),
      ]);
    });
    if (!charts.length) return null;
    return h(
      "section",
      {
        class: "panel page-section",
        id: "profile-history",
        "aria-labelledby": "profile-history-title",
      },
      [h("h2", { id: "profile-history-title", text: t("profile.history") }), ...charts],
    );
  }

  // one column per game and mode (a player has few): the figures read down, and fit a phone
  /** @param {Profile} data */
  function statsSection(data) {
    if (!data.stats.length) return null;
    /** @type {[string, (st: Stats) => string][]} */
    const rows = [
      ["profile.played", (st) => String(st.played)],
      ["profile.winShare", (st) => pct(st.win_share)],
      ["profile.meanRank", (st) => num(st.mean_rank, 2)],
      ["profile.bestScore", (st) => num(st.best_score, 0)],
      ["profile.meanScore", (st) => num(st.mean_score)],
    ];
    return h(
      "section",
      {
        class: "panel page-section",
        id: "profile-stats",
        "aria-labelledby": "profile-stats-title",
      },
      [
        h("h2", { id: "profile-stats-title", text: t("profile.stats") }),
        h(
          "div",
          {
            class: "scroll-x",
            tabindex: "0",
            role: "region",
            "aria-labelledby": "profile-stats-title",
          },
          h("table", { class: "data-table stats", id: "stats-table" }, [
            h(
              "thead",
              {},
              h("tr", {}, [
                h("td", {}),
                ...data.stats.map((st) =>
                  h("th", {
                    scope: "col",
                    class: "num",
                    dataset: { game: st.game, mode: st.mode },
                    text: what(st.game, st.mode),
                  }),
                ),
              ]),
            ),
            h(
              "tbody",
              {},
              rows.map(([key, value]) =>
                h("tr", {}, [
                  h("th", { scope: "row", text: t(key) }),
                  ...data.stats.map((st) => h("td", { class: "num", text: value(st) })),
                ]),
              ),
            ),
          ]),
        ),
      ],
    );
  }

  /** @param {Profile} data */
  function recentSection(data) {
    const items = data.recent.map((g) =>
      h("li", { class: "my-game", dataset: { game: g.id } }, [
        h("div", { class: "my-game-info" }, [
          h("strong", { text: what(g.game, g.mode) }),
          g.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
          g.forfeited ? h("span", { class: "badge", text: t("profile.left") }) : "",
          g.seats?.length
            ? h(
                "div",
                { class: "muted" },
                g.seats.flatMap((p, i) => [
                  i ? ", " : "",
                  p.account && p.account !== data.name
                    ? h("a", { href: `#/player/${encodeURIComponent(p.account)}`, text: p.name })
                    : p.name,
                ]),
              )
            : "",
          h("div", { class: "muted" }, [
            t("my.place", { place: g.rank, n: g.players, score: g.score }),
            " · ",
            h("time", { datetime: g.finished, text: when(g.finished) }),
          ]),
        ]),
        h("div", { class: "my-game-actions" }, [
          h("a", {
            class: "button",
            href: `#/game/${encodeURIComponent(g.id)}`,
            text: t("my.replay"),
            "aria-label": t("my.replayOf", {
              game: `${what(g.game, g.mode)}, ${when(g.finished)}`,
            }),
          }),
          h("a", {
            class: "button",
            href: `#/review/${encodeURIComponent(g.id)}`,
            text: t("review.open"),
            "aria-label": t("my.reviewOf", {
              game: `${what(g.game, g.mode)}, ${when(g.finished)}`,
            }),
          }),
        ]),
      ]),
    );
    return h(
      "section",
      {
        class: "panel page-section",
        id: "profile-recent",
        "aria-labelledby": "profile-recent-title",
      },
      [
        h("h2", { id: "profile-recent-title", text: t("profile.recent") }),
        items.length
          ? h("ul", { class: "my-list", id: "recent-games" }, items)
          : h("p", { class: "muted", text: t("profile.noGames") }),
      ],
    );
  }

  /** @param {Profile} data */
  function actions(data) {
    if (!me() || me() === data.name || data.bot) return null;
    const blockButton = h("button", {
      type: "button",
      id: "block-toggle",
      "aria-pressed": blocked ? "true" : "false",
      class: blocked ? "danger" : "",
      text: blocked ? t("people.unblock") : t("people.block"),
      on: {
        click: async () => {
          try {
            await setPerson("block", data.name, !blocked);
            blocked = !blocked;
            toast(
              blocked
                ? t("people.blockedToast", { name: data.name })
                : t("people.unblockedToast", { name: data.name }),
              "info",
            );
            draw();
            document.getElementById("block-toggle")?.focus();
          } catch (err) {
            toast(errorLine(err));
          }
        },
      },
    });
    return h("div", { class: "row", id: "profile-actions" }, [
      blocked
        ? ""
        : h("a", {
            class: "button primary",
            id: "challenge-button",
            href: `#/challenge/${encodeURIComponent(data.name)}`,
            text: t("challenge.button"),
          }),
      blockButton,
      h("p", { class: "hint", id: "block-hint", text: t("people.blockHint") }),
    ]);
  }

  function draw() {
    pageTitle(data?.name ?? name);
    if (missing || failed) {
      clear(root).append(
        h("section", { class: "panel page-section", id: "profile-missing", role: "alert" }, [
          h("h1", { text: missing ? t("profile.missing", { name }) : failed }),
          h("a", { href: "#/leaderboard", text: t("board.title") }),
        ]),
      );
      return;
    }
    if (!data) {
      clear(root).append(
        h("h1", { class: "page-title", text: name }),
        h("p", { class: "muted", text: "…" }),
      );
      return;
    }
    clear(root).append(
      h("div", { class: "page-head" }, [
        h("h1", { class: "page-title", id: "profile-name" }, [
          data.name,
          data.bot ? h("span", { class: "badge", text: t("lobby.bot") }) : "",
        ]),
        data.created
          ? h("span", {
              class: "muted",
              text: t("profile.since", { when: when(data.created, false) }),
            })
          : "",
      ]),
      actions(data) ?? "",
      ratingsSection(data),
      historySection(data) ?? "",
      statsSection(data) ?? "",
      recentSection(data),
    );
  }

  draw();
  load();
  return {
    render: draw,
    destroy() {
      destroyed = true;
    },
    session: load,
  };
}
