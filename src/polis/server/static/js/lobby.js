// @ts-check
// The lobby: a form to start a game (seats as cards that wrap on a phone) and the recent
// games, each saying whose turn it is.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { markerHtml } from "./players.js";
import { heldTokens, holdToken } from "./tokens.js";
import { api, toast, copyField } from "./ui.js";
import { openTablesBox, listedChoice, botsChoice } from "./opentables.js";
import { tableRules, rulesBody } from "./seatclock.js";
import { hintsChoice } from "./hint.js";
import { me, session, onSession } from "./session.js";
import { gameCards } from "./welcome.js";

/** @typedef {import("./ui.js").SeatInfo} SeatInfo */

/**
 * A game of GET /api/games (the latest listed ones): the same summary as an open table's.
 * @typedef {import("./opentables.js").OpenTable} ListedGame
 */

/**
 * A seat of the new table: with its token and invite link, or (a bot's) neither.
 * @typedef {SeatInfo & ({token: string, invite: string} | {token?: undefined, invite?: undefined})}
 *   SeatMade
 */

/**
 * POST /api/games: the new table.
 * @typedef {{id: string, seats: SeatMade[], watch: string}} GameMade
 */

/**
 * A seat of the form: a person (here: on this device), a bot, or open to anyone.
 * @typedef {{kind: string, level: string, name: string, here: boolean}} SeatChoice
 */

/**
 * The form (with the table's rules of seatclock.js, and the choices of opentables.js and
 * hint.js).
 * @typedef {import("./seatclock.js").RulesForm & {
 *   game: string | undefined,
 *   mode: string | null,
 *   players: number,
 *   seats: SeatChoice[],
 *   chatSpectators: boolean,
 *   rated?: boolean,
 *   listed?: boolean,
 *   bots?: boolean,
 *   hints?: boolean,
 * }} LobbyForm
 */

/**
 * Hints are possible (and on by default) only where no other person sits: one person against
 * bots, or hot-seat; never with an open seat (see hints.py, seats.py).
 * @param {SeatChoice[]} seats  the table's seats
 * @returns {boolean}
 */
export function hintsPossible(seats) {
  const humans = seats.filter((s) => s.kind !== "bot");
  return (
    humans.every((s) => s.kind === "human") && (humans.length <= 1 || humans.every((s) => s.here))
  );
}

/**
 * The seats as POST /api/games receives them: an open seat is only that; a seat left without a
 * name is called by its number.
 * @param {SeatChoice[]} seats  the table's seats
 * @returns {({kind: "open"} | {name: string, kind: string, level: string | null})[]}
 */
export function seatsBody(seats) {
  return seats.map((s, i) =>
    s.kind === "open"
      ? { kind: "open" }
      : {
          name:
            s.name.trim() ||
            (s.kind === "bot"
              ? t("lobby.botName", { n: i + 1 })
              : t("lobby.playerName", { n: i + 1 })),
          kind: s.kind,
          level: s.kind === "bot" ? s.level : null,
        },
  );
}

/**
 * @typedef {object} LobbyEnv
 * @property {HTMLElement} root
 * @property {import("./ui.js").Meta} meta
 * @property {Record<string, import("./ui.js").GameClient>} clients
 * @property {string[]} names  the playable games
 * @property {(game: string) => string} gameTitle
 * @property {(game: string, mode: string) => string} modeName
 */

/**
 * @param {LobbyEnv} env
 * @returns {{render: () => void, destroy: () => void, session: () => void}}
 */
export function lobby(env) {
  const { root, meta, clients, names, gameTitle, modeName } = env;
  /** @type {LobbyForm} */
  const form = {
    game: names[0],
    mode: null,
    players: 2,
    seats: [],
    chatSpectators: false,
    clock: "none", // seatclock.js
    standIn: "medium",
    away: null,
  };
  /**
   * @param {number} i
   * @returns {SeatChoice}
   */
  const defaults = (i) => ({
    kind: i === 0 ? "human" : "bot",
    level: "easy",
    name: "",
    here: true,
  });
  for (let i = 0; i < 4; i++) form.seats.push(defaults(i));
  const panel = h("section", {
    class: "panel",
    id: "new-game",
    "aria-labelledby": "new-game-title",
  });
  // the heading is there from the start: a section named by a heading not yet drawn has no
  // name, and aria-labelledby is then not allowed on it
  const recentBox = h(
    "section",
    { class: "panel", id: "recent", "aria-labelledby": "recent-title" },
    [h("h2", { id: "recent-title", text: t("lobby.recent") })],
  );
  const openBox = openTablesBox({ gameTitle, modeName });
  let invitesShown = false;
  // My games (with the tables where it is the account's turn) and the leaderboards; for a
  // guest, what an account is for
  const accountBar = h("nav", { class: "account-bar", id: "account-bar" });
  // a card per game above the form (welcome.js): its picture, what it is, Learn to play, New table
  const cardsOf = () =>
    gameCards({ games: meta.games, clients, names, gameTitle, newTable: startTableOf });
  let cards = cardsOf();
  clear(root).append(
    h("h1", { class: "visually-hidden", text: "polis" }),
    accountBar,
    cards,
    panel,
    openBox.element,
    recentBox,
  );

  function drawAccountBar() {
    const turns = session().turns;
    accountBar.setAttribute("aria-label", t("lobby.accountNav"));
    clear(accountBar);
    if (me()) {
      accountBar.append(
        h("a", { class: "button", id: "my-games-link", href: "#/my" }, [
          t("my.title"),
          turns
            ? h("span", {
                class: "badge turn-count",
                id: "my-games-count",
                text: t("my.turnBadge", { n: turns }),
              })
            : "",
        ]),
      );
    }
    accountBar.append(
      h("a", {
        class: "button",
        id: "leaderboard-link",
        href: "#/leaderboard",
        text: t("board.title"),
      }),
    );
    accountBar.append(
      h("a", { class: "button", id: "events-link", href: "#/events", text: t("event.title") }),
    );
    if (!me() && session().loaded) {
      accountBar.append(
        h("p", { class: "hint" }, [
          t("lobby.accountHint"),
          " ",
          h("a", { id: "lobby-sign-in", href: "#/signin", text: t("lobby.accountLink") }),
        ]),
      );
    }
  }

  // A rated table: the person's own seat and seats open to signed-in people, nothing else.
  const rated = () => !!me() && !!form.rated;

  /**
   * @param {string} game
   * @param {number} i
   */
  function seatRow(game, i) {
    const seat = form.seats[i];
    if (rated())
      Object.assign(seat, i === 0 ? { kind: "human", here: true, name: me() } : { kind: "open" });
    const colour = clients[game].PLAYER_COLOURS[i];
    const kind = h(
      "select",
      {
        class: "kind",
        disabled: rated(),
        on: {
          change: (e) => {
            seat.kind = e.target.value;
            draw();
          },
        },
      },
      [
        h("option", { value: "human", selected: seat.kind === "human", text: t("lobby.human") }),
        h("option", { value: "bot", selected: seat.kind === "bot", text: t("lobby.bot") }),
        h("option", { value: "open", selected: seat.kind === "open", text: t("lobby.open") }),
      ],
    );
    const name = h("input", {
      class: "name",
      value: seat.name,
      maxlength: 40,
      autocomplete: "off",
      readonly: rated() && i === 0,
      placeholder:
        seat.kind === "bot"
          ? t("lobby.botName", { n: i + 1 })
          : t("lobby.playerName", { n: i + 1 }),
      on: { input: (e) => (seat.name = e.target.value) },
    });
    const parts = [
      h("span", { class: "seat-no" }, [markerHtml(i, colour), `${i + 1}`]),
      seat.kind === "open" ? "" : h("label", { class: "name-label" }, [t("lobby.name"), name]),
      h("label", {}, [t("lobby.kind"), kind]),
    ];
    if (seat.kind === "open") {
      // an open seat's name is its taker's
    } else if (seat.kind === "bot") {
      parts.push(
        h("label", {}, [
          t("lobby.level"),
          h(
            "select",
            { class: "level", on: { change: (e) => (seat.level = e.target.value) } },
            meta.levels.map((l) =>
              h("option", { value: l, selected: l === seat.level, text: t(`level.${l}`) }),
            ),
          ),
        ]),
      );
    } else if (!rated()) {
      parts.push(
        h("label", { class: "inline", title: t("lobby.hereHelp") }, [
          h("input", {
            type: "checkbox",
            class: "here",
            checked: seat.here,
            on: {
              change: (e) => {
                seat.here = e.target.checked;
                syncHints();
              },
            },
          }),
          t("lobby.here"),
        ]),
      );
    }
    return h(
      "div",
      {
        class: "seat-row",
        role: "group",
        "aria-label": t("lobby.seat", { n: i + 1 }),
        dataset: { seat: i },
      },
      parts,
    );
  }

  function draw() {
    if (invitesShown) return;
    clear(panel);
    panel.append(h("h2", { id: "new-game-title", text: t("lobby.new") }));
    if (!form.game) {
      panel.append(h("p", { class: "error", text: t("error.noClient") }));
      return;
    }
    const game = form.game;
    const g = meta.games[game];
    if (!form.mode || !g.modes.includes(form.mode)) form.mode = g.modes[0];
    form.players = Math.min(Math.max(form.players, g.min_players), g.max_players);
    const gameSel = h(
      "select",
      {
        id: "game",
        on: {
          change: (e) => {
            form.game = e.target.value;
            draw();
          },
        },
      },
      names.map((n) => h("option", { value: n, selected: n === form.game, text: gameTitle(n) })),
    );
    const modeSel = h(
      "select",
      {
        id: "mode",
        on: {
          change: (e) => {
            form.mode = e.target.value;
          },
        },
      },
      g.modes.map((m) =>
        h("option", { value: m, selected: m === form.mode, text: modeName(game, m) }),
      ),
    );
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const countSel = h(
      "select",
      {
        id: "players",
        on: {
          change: (e) => {
            form.players = +e.target.value;
            draw();
          },
        },
      },
      counts.map((n) => h("option", { value: n, selected: n === form.players, text: String(n) })),
    );
    panel.append(
      h("div", { class: "row" }, [
        h("label", {}, [t("lobby.game"), " ", gameSel]),
        h("label", {}, [t("lobby.mode"), " ", modeSel]),
        h("label", {}, [t("lobby.players"), " ", countSel]),
      ]),
    );
    // a signed-in person's seat is called by the account's name (the seat is bound to it)
    const self = me();
    if (self && form.seats[0].kind === "human" && !form.seats[0].name) form.seats[0].name = self;
    const seats = h("div", { class: "seats" });
    for (let i = 0; i < form.players; i++) {
      while (form.seats.length <= i) form.seats.push(defaults(i));
      seats.append(seatRow(game, i));
    }
    if (me()) {
      panel.append(
        h(
          "div",
          { class: "row" },
          h("label", { class: "inline check" }, [
            h("input", {
              type: "checkbox",
              id: "rated",
              checked: rated(),
              "aria-describedby": "rated-why",
              on: {
                change: (e) => {
                  form.rated = e.target.checked;
                  draw();
                  document.getElementById("rated")?.focus();
                },
              },
            }),
            t("rated.label"),
          ]),
        ),
        h("p", {
          class: "hint",
          id: "rated-why",
          text: rated() ? t("rated.why") : t("rated.offer"),
        }),
      );
    }
    panel.append(seats, rated() ? "" : h("p", { class: "hint", text: t("lobby.hint") }));
    if (openSeat()) panel.append(botsChoice(form)); // bot accounts may take the open seats
    panel.append(
      h(
        "div",
        { class: "row" },
        h("label", { class: "inline check" }, [
          h("input", {
            type: "checkbox",
            id: "chat-spectators",
            checked: form.chatSpectators,
            on: { change: (e) => (form.chatSpectators = e.target.checked) },
          }),
          t("lobby.chatSpectators"),
        ]),
      ),
    );
    panel.append(...tableRules(form, draw));
    panel.append(listedChoice(form));
    panel.append(hintsChoice(form, hintsAllowed()));
    panel.append(
      h("button", {
        id: "create",
        class: "primary",
        text: t("lobby.create"),
        on: { click: create },
      }),
    );
  }

  const openSeat = () => form.seats.slice(0, form.players).some((s) => s.kind === "open");

  const hintsAllowed = () => hintsPossible(form.seats.slice(0, form.players));

  function syncHints() {
    const box = /** @type {HTMLInputElement | null} */ (document.getElementById("hints"));
    const alone = hintsAllowed();
    if (box) {
      box.checked = alone && (form.hints ?? true);
      box.disabled = !alone;
    }
    const note = document.getElementById("hints-alone");
    if (note) note.hidden = alone;
  }

  async function create() {
    const chosen = form.seats.slice(0, form.players);
    const seats = seatsBody(chosen);
    const listed = form.listed !== false;
    const humans = chosen.filter((s) => s.kind === "human");
    const hotSeat = humans.length > 1 && humans.every((s) => s.here) && !rated();
    /** @type {GameMade} */
    let data;
    try {
      data = await api("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          game: form.game,
          mode: form.mode,
          seats,
          hot_seat: hotSeat,
          chat_spectators: form.chatSpectators,
          listed,
          hints: !rated() && hintsAllowed() && (form.hints ?? true),
          ...(rated() ? { rated: true } : {}),
          ...(openSeat() && form.bots ? { bots: true } : {}),
          ...rulesBody(form),
        }),
      });
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err));
      return;
    }
    const invites = [];
    for (const seat of data.seats) {
      if (!seat.token) continue;
      if (form.seats[seat.seat].here) holdToken(data.id, seat.seat, seat.token);
      else invites.push(seat);
    }
    if (!invites.length) {
      location.hash = `#/game/${data.id}`;
      return;
    }
    invitesShown = true;
    clear(panel);
    panel.append(
      h("h2", { id: "new-game-title", text: t("lobby.invites") }),
      h("p", { text: t("lobby.invitesHelp") }),
    );
    if (data.seats.some((seat) => seat.vacant))
      panel.append(h("p", { class: "hint", text: t("lobby.openHelp") }));
    for (const seat of invites) {
      panel.append(
        h("div", {}, [
          h("strong", { text: seat.name }),
          copyField(seat.invite, {
            class: "invite-link",
            dataset: { seat: seat.seat },
            "aria-label": t("lobby.inviteFor", { name: seat.name }),
          }),
        ]),
      );
    }
    panel.append(
      h(
        "p",
        {},
        h("button", {
          id: "enter",
          class: "primary",
          text: t("lobby.enter"),
          on: { click: () => (location.hash = `#/game/${data.id}`) },
        }),
      ),
    );
  }

  // Whose turn it is in a game: asked of the server for the games this browser plays and a
  // few others (each answer loads that game on the server).
  /**
   * @param {ListedGame} g
   * @param {Record<string, string>} held  the seat tokens this browser holds for it
   * @param {HTMLElement} li
   */
  async function turnNote(g, held, li) {
    try {
      /** @type {import("./ui.js").GameSummary} */
      const summary = await api(`/api/games/${encodeURIComponent(g.id)}`);
      const cur = summary.current_player;
      if (cur === undefined || cur < 0) return;
      const mine = Object.keys(held).map(Number).includes(cur);
      const who = summary.seats[cur]?.name ?? "";
      li.append(
        h("span", {
          class: `turn-note${mine ? " mine" : ""}`,
          text: mine ? t("lobby.yourTurn", { name: who }) : t("lobby.turnOf", { name: who }),
        }),
      );
    } catch {
      // the list stays as it is
    }
  }

  async function drawRecent() {
    /** @type {{games: ListedGame[]}} */
    const { games } = await api("/api/games");
    clear(recentBox).append(h("h2", { id: "recent-title", text: t("lobby.recent") }));
    if (!games.length) {
      recentBox.append(h("p", { class: "muted", text: t("lobby.none") }));
      return;
    }
    const list = h("ul", { class: "recent-list" });
    let asked = 0;
    for (const g of games) {
      const held = heldTokens(g.id);
      const mine = Object.keys(held).length > 0;
      const li = h("li", { dataset: { game: g.id } }, [
        h("a", {
          href: `#/game/${g.id}`,
          text: `${gameTitle(g.game)} · ${modeName(g.game, g.mode)} · ${g.names.map((n, i) => (g.vacant?.includes(i) ? `(${t("lobby.openSeat")})` : n)).join(", ")}`,
        }),
        h("span", {
          class: "muted",
          text: g.finished ? t("lobby.finished") : t("lobby.moves", { n: g.position }),
        }),
        mine ? h("span", { class: "badge", text: t("lobby.yours") }) : "",
      ]);
      list.append(li);
      if (!g.finished && (mine || asked < 5)) {
        if (!mine) asked++;
        turnNote(g, held, li);
      }
    }
    recentBox.append(list);
  }

  // "New table" on a game's card: the form, set to that game, with its game menu focused
  /** @param {string} name */
  function startTableOf(name) {
    form.game = name;
    invitesShown = false;
    draw();
    document.getElementById("game")?.focus();
  }

  drawAccountBar();
  draw();
  drawRecent().catch(() => {});
  openBox.refresh().catch(() => {});
  const stop = onSession(drawAccountBar);
  return {
    render: () => {
      const next = cardsOf();
      cards.replaceWith(next);
      cards = next;
      drawAccountBar();
      draw();
      drawRecent().catch(() => {});
      openBox.refresh().catch(() => {});
    },
    destroy: stop,
    session: () => {
      drawAccountBar();
      draw();
    },
  };
}
