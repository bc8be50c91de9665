// @ts-check
// #/leaderboard/{game}/{mode}: the ratings of one game and mode, best first, with provisional
// ratings said to be, the signed-in player's row marked, and bots shown only when asked.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./ui.js";
import { me, errorLine } from "./session.js";
import { pageTitle } from "./forms.js";

/**
 * One row of a leaderboard (accounts/profiles.py's leaderboard): equal ratings share a rank.
 * @typedef {{
 *   rank: number,
 *   name: string,
 *   bot: boolean,
 *   rating: number,
 *   games: number,
 *   provisional: boolean,
 * }} BoardRow
 */

/**
 * GET /api/leaderboard?game&mode&bots: the best rated accounts of a game and mode.
 * @typedef {{game: string, mode: string, players: BoardRow[]}} Board
 */

/**
 * @param {import("./forms.js").PageEnv} env its game and mode: the address's
 * @returns {import("./forms.js").Page}
 */
export function leaderboardPage(env) {
  const { root, meta, names, gameTitle, modeName } = env;
  const choice = {
    game: names.includes(env.game) ? env.game : names[0],
    mode: env.mode,
    bots: sessionStorage.getItem("polis:board-bots") === "1",
  };
  /** @type {Board | null} */
  let board = null;
  /** @type {string | null} */
  let failed = null;
  let destroyed = false;
  let asked = 0;

  function modes() {
    return meta.games[choice.game]?.modes ?? [];
  }

  async function load() {
    if (!choice.game) return;
    if (!modes().includes(choice.mode)) choice.mode = modes()[0];
    history.replaceState(
      null,
      "",
      `#/leaderboard/${encodeURIComponent(choice.game)}/${encodeURIComponent(choice.mode)}`,
    );
    const n = ++asked;
    board = null;
    failed = null;
    draw();
    try {
      const query = new URLSearchParams({
        game: choice.game,
        mode: choice.mode,
        bots: String(choice.bots),
      });
      /** @type {Board} */
      const data = await api(`/api/leaderboard?${query}`, { cache: "no-store" });
      if (n !== asked) return; // a later choice is on its way
      board = data;
    } catch (err) {
      failed = errorLine(err);
    }
    if (!destroyed) draw();
  }

  function controls() {
    const gameSel = h(
      "select",
      {
        id: "board-game",
        on: {
          change: (e) => {
            choice.game = e.target.value;
            load();
          },
        },
      },
      names.map((n) => h("option", { value: n, selected: n === choice.game, text: gameTitle(n) })),
    );
    const modeSel = h(
      "select",
      {
        id: "board-mode",
        on: {
          change: (e) => {
            choice.mode = e.target.value;
            load();
          },
        },
      },
      modes().map((m) =>
        h("option", { value: m, selected: m === choice.mode, text: modeName(choice.game, m) }),
      ),
    );
    return h("div", { class: "row", id: "board-controls" }, [
      h("label", {}, [t("lobby.game"), " ", gameSel]),
      h("label", {}, [t("lobby.mode"), " ", modeSel]),
      h("label", { class: "inline check" }, [
        h("input", {
          type: "checkbox",
          id: "board-bots",
          checked: choice.bots,
          on: {
            change: (e) => {
              choice.bots = e.target.checked;
              sessionStorage.setItem("polis:board-bots", choice.bots ? "1" : "0");
              load();
            },
          },
        }),
        t("board.bots"),
      ]),
    ]);
  }

  function table() {
    if (failed) return h("p", { class: "error", role: "alert", text: failed });
    if (!board) return h("p", { class: "muted", role: "status", text: "…" });
    if (!board.players.length)
      return h("p", { class: "muted", id: "board-empty", role: "status", text: t("board.empty") });
    const who = me();
    return h(
      "div",
      { class: "scroll-x", tabindex: "0", role: "region", "aria-labelledby": "board-caption" },
      h("table", { class: "data-table leaderboard", id: "leaderboard" }, [
        h("caption", {
          id: "board-caption",
          text: `${gameTitle(choice.game)} · ${modeName(choice.game, choice.mode)}`,
        }),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [
              ["board.rank", "num"],
              ["board.player", ""],
              ["rating.rating", "num"],
              ["rating.games", "num"],
            ].map(([c, cls]) => h("th", { scope: "col", class: cls || null, text: t(c) })),
          ),
        ),
        h(
          "tbody",
          {},
          board.players.map((p) =>
            h("tr", { class: p.name === who ? "me" : "", dataset: { name: p.name } }, [
              h("td", { class: "num", text: String(p.rank) }),
              h("th", { scope: "row" }, [
                h("a", { href: `#/player/${encodeURIComponent(p.name)}`, text: p.name }),
                p.bot ? h("span", { class: "badge", text: t("lobby.bot") }) : "",
                p.name === who
                  ? h("span", { class: "visually-hidden", text: ` (${t("seat.you")})` })
                  : "",
              ]),
              h("td", { class: "num rating" }, [
                String(p.rating),
                p.provisional
                  ? h("span", { class: "badge provisional", text: t("rating.provisional") })
                  : "",
              ]),
              h("td", { class: "num", text: String(p.games) }),
            ]),
          ),
        ),
      ]),
    );
  }

  function draw() {
    pageTitle(t("board.title"));
    const had = document.activeElement?.id;
    clear(root).append(
      h(
        "section",
        { class: "panel page-section", id: "leaderboard-page", "aria-labelledby": "board-title" },
        [
          h("h1", { id: "board-title", class: "page-title", text: t("board.title") }),
          controls(),
          table(),
          h("p", { class: "hint", text: t("rating.provisionalHint") }),
        ],
      ),
    );
    if (had) document.getElementById(had)?.focus();
  }

  load();
  return {
    render: draw,
    destroy() {
      destroyed = true;
    },
  };
}
