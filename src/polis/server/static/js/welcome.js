// @ts-check
// The lobby's welcome: a card per game above the form, with a picture the game's own client
// draws from its pieces (`picture()`), a line on what the game is (its catalogue's
// "about.line"), how many play and how long it takes (`ABOUT.minutes`), "Learn to play" (the
// tutorial at #/learn/<game>) and "New table" (the form below, set to that game).
import { h } from "./dom.js";
import { t, translator } from "./i18n.js";

/**
 * @typedef {object} GameCardsEnv
 * @property {Record<string, {min_players: number, max_players: number}>} games  /api/meta's games
 * @property {Record<string, {picture?: () => Element, ABOUT?: {minutes: [number, number]}}>} clients
 * @property {string[]} names  the playable games, in the lobby's order
 * @property {(name: string) => string} gameTitle
 * @property {(name: string) => void} newTable  sets the form to the game and focuses it
 */

/**
 * The section of game cards.
 * @param {GameCardsEnv} env
 * @returns {HTMLElement}
 */
export function gameCards(env) {
  const { games, clients, names, gameTitle, newTable } = env;
  return h("section", { class: "game-cards", id: "game-cards", "aria-labelledby": "games-title" }, [
    h("h2", { id: "games-title", class: "visually-hidden", text: t("lobby.games") }),
    h(
      "ul",
      { class: "game-card-list" },
      names.map((name) => {
        const client = clients[name] ?? {};
        const info = games[name];
        const title = gameTitle(name);
        const say = translator(name);
        const line = say("about.line");
        const minutes = client.ABOUT?.minutes;
        const facts = [];
        if (info)
          facts.push(
            h("li", {
              class: "game-players",
              text: t("lobby.card.players", { min: info.min_players, max: info.max_players }),
            }),
          );
        if (minutes)
          facts.push(
            h("li", {
              class: "game-length",
              text: t("lobby.card.length", { min: minutes[0], max: minutes[1] }),
            }),
          );
        return h(
          "li",
          { class: "game-card", id: `game-card-${name}`, dataset: { game: name } },
          h("article", { "aria-labelledby": `game-card-title-${name}` }, [
            h("div", { class: "game-art" }, client.picture?.() ?? null),
            h("div", { class: "game-about" }, [
              h("h3", { id: `game-card-title-${name}`, text: title }),
              line === "about.line" ? null : h("p", { class: "game-line", text: line }),
              h("ul", { class: "game-facts" }, facts),
              h("div", { class: "row game-actions" }, [
                h("a", {
                  class: "button learn",
                  href: `#/learn/${encodeURIComponent(name)}`,
                  "aria-describedby": `game-card-title-${name}`,
                  text: t("lobby.card.learn"),
                }),
                h("button", {
                  class: "primary new-table",
                  type: "button",
                  "aria-describedby": `game-card-title-${name}`,
                  text: t("lobby.card.newTable"),
                  on: { click: () => newTable(name) },
                }),
              ]),
            ]),
          ]),
        );
      }),
    ),
  ]);
}
