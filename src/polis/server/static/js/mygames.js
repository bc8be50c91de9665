// @ts-check
// #/my, "My games": every table bound to the account, on every device where it signs in.
// Challenges first (incoming to accept or decline, outgoing to withdraw), then the tables
// where it is the account's turn (longest waiting first, with the clock as the table shows
// it), the games in progress and the finished ones (with their replay and review).
//
// Opening a table asks the server for a key of this device (POST /api/account/games/{id}/key),
// kept like any seat token (tokens.js), unless this browser already holds that seat.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { api, send, toast, ApiError } from "./ui.js";
import { me, onSession, recountTurns, errorLine } from "./session.js";
import { signInFirst, pageTitle, when } from "./forms.js";
import { heldTokens, holdToken, holdSessionKey } from "./tokens.js";
import { seatClock, tick, CLOCKS } from "./seatclock.js";
import { clockWords } from "./opentables.js";

/**
 * A clock as a table is asked for it (routes/standins.py's ClockIn, as a challenge keeps it):
 * real-time, `bank` seconds and `increment` more per move; or turn-based, `per_move` seconds
 * per move, banked up to `max_bank`.
 * @typedef {{kind: "realtime", bank: number, increment?: number}
 *   | {kind: "turn", per_move: number, max_bank?: number, increment?: number}} ClockRule
 */

/**
 * One of the account's tables (GET /api/account/games: store/accounts.py's games_of, with what
 * accounts/service.py adds to an unfinished one: whose turn, waiting for players, the clock).
 * `seats`: the account's seats there; `names`: every seat's name; `result`: a finished game's.
 * @typedef {{
 *   id: string,
 *   game: string,
 *   mode: string,
 *   players: number,
 *   position: number,
 *   finished: boolean,
 *   rated: boolean,
 *   result: {scores?: number[], ranking?: number[][]} | null,
 *   updated: string,
 *   names: string[],
 *   seats: number[],
 *   current_player?: number,
 *   waiting?: boolean,
 *   your_turn?: boolean,
 *   clock?: import("./clockmath.js").Clock | null,
 * }} MyGame
 */

/**
 * A challenge as its two accounts see it (wire/bot.py's ChallengeJSON); `game_id`: the table
 * accepting it made.
 * @typedef {{
 *   id: string,
 *   from: string,
 *   to: string,
 *   game: string,
 *   mode: string,
 *   players: number,
 *   rated: boolean,
 *   clock: ClockRule | null,
 *   stand_in: string | null,
 *   away_limit: number | null,
 *   status: "open" | "accepted" | "declined" | "withdrawn",
 *   created: string,
 *   game_id: string | null,
 * }} Challenge
 */

/**
 * GET /api/challenges: the account's challenges, newest first.
 * @typedef {{incoming: Challenge[], outgoing: Challenge[]}} Challenges
 */

/**
 * GET /api/account/games: the tables where it is the account's turn (longest waiting first),
 * the others in progress and the finished ones; `now`: the server's time (seconds).
 * @typedef {{
 *   turn: MyGame[],
 *   playing: MyGame[],
 *   finished: MyGame[],
 *   now: number,
 *   challenges?: Challenges,
 * }} MyGames
 */

/**
 * A seat's key for this device (POST /api/account/games/{id}/key), or the seat an accepted
 * challenge gives (POST /api/challenges/{id}/accept, with `game_id`).
 * @typedef {{id?: string, game_id?: string, seat: number, token: string, invite: string}} SeatKey
 */

const POLL = 30_000;

// Open the account's seat at a table on this device.
/**
 * @param {string} gameId
 * @param {number[]} [seats] the account's seats there
 */
export async function openGame(gameId, seats = []) {
  const held = heldTokens(gameId);
  if (seats.some((seat) => held[seat])) {
    location.hash = `#/game/${encodeURIComponent(gameId)}`;
    return;
  }
  try {
    /** @type {SeatKey} */
    const key = await send(`/api/account/games/${encodeURIComponent(gameId)}/key`, {});
    holdSessionKey(gameId, key.seat, key.token);
    location.hash = `#/game/${encodeURIComponent(gameId)}/${encodeURIComponent(key.token)}`;
  } catch (err) {
    toast(errorLine(err));
  }
}

// A challenge's clock in words: the lobby's name for it, else its banks.
/** @param {ClockRule | null | undefined} clock */
export function clockName(clock) {
  if (!clock) return t("lobby.clock.none");
  const fields = clock.kind === "turn" ? ["per_move", "max_bank"] : ["bank", "increment"];
  /**
   * @param {Record<string, unknown> | null} rule
   * @param {string} f
   */
  const value = (rule, f) => Number(rule?.[f] ?? 0);
  const same = CLOCKS.find(
    (c) =>
      c.clock?.kind === clock.kind && fields.every((f) => value(c.clock, f) === value(clock, f)),
  );
  if (same) return t(`lobby.clock.${same.key}`);
  return clockWords(
    clock.kind === "turn" ? { kind: "turn", bank: clock.per_move, cap: clock.max_bank } : clock,
  );
}

// 1 for the best place (ties share it), from a result's ranking.
/**
 * @param {MyGame["result"] | undefined} result
 * @param {number} seat
 * @returns {number | null}
 */
export function placeOf(result, seat) {
  const i = (result?.ranking ?? []).findIndex((group) => group.includes(seat));
  return i < 0 ? null : i + 1;
}

/**
 * @param {import("./forms.js").PageEnv} env
 * @returns {import("./forms.js").Page}
 */
export function myGamesPage(env) {
  const { root, gameTitle, modeName } = env;
  /** @type {MyGames | null} */
  let games = null;
  /** @type {Challenges | false | null} false: not offered by this server */
  let challenges = null;
  /** @type {string | null} */
  let failed = null;
  let destroyed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function load() {
    clearTimeout(timer);
    if (!me() || destroyed) return;
    try {
      games = await api("/api/account/games", { cache: "no-store" });
      failed = null;
    } catch (err) {
      failed = errorLine(err);
    }
    try {
      challenges = await api("/api/challenges", { cache: "no-store" });
    } catch (err) {
      challenges = err instanceof ApiError && err.status === 404 ? false : challenges;
    }
    if (destroyed) return;
    draw();
    recountTurns();
    timer = setTimeout(load, POLL);
  }

  /** @param {MyGame} g */
  const title = (g) => `${gameTitle(g.game)} · ${modeName(g.game, g.mode)}`;

  /**
   * @param {MyGame} g
   * @param {"turn" | "playing" | "finished"} kind
   */
  function gameItem(g, kind) {
    const mine = g.seats ?? [];
    const people = g.names
      .map((n, i) => (mine.includes(i) ? t("my.you", { name: n }) : n || t("lobby.openSeat")))
      .join(", ");
    const parts = [
      h("div", { class: "my-game-info" }, [
        h("strong", { text: title(g) }),
        kind === "turn" ? h("span", { class: "badge your-turn", text: t("my.yourTurn") }) : "",
        g.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
        g.waiting ? h("span", { class: "badge", text: t("my.waiting") }) : "",
        people ? h("div", { class: "muted", text: people }) : "",
        h("div", { class: "muted small" }, [
          kind === "finished" ? finishedLine(g) : t("lobby.moves", { n: g.position }),
          " · ",
          h("time", { datetime: g.updated, text: when(g.updated) }),
        ]),
      ]),
    ];
    if (kind !== "finished" && g.clock) {
      const msg = {
        clock: g.clock,
        finished: false,
        seats: g.names.map(() => ({ kind: "human" })),
      };
      const chips = mine
        .map((seat) => seatClock(msg, seat, g.names[seat] ?? me() ?? ""))
        .filter(Boolean);
      if (chips.length) parts[0].append(h("div", { class: "my-clock" }, chips));
    }
    const actions = h("div", { class: "my-game-actions" });
    if (kind === "finished") {
      actions.append(
        h("a", {
          class: "button replay-link",
          href: `#/game/${encodeURIComponent(g.id)}`,
          text: t("my.replay"),
          "aria-label": t("my.replayOf", { game: title(g) }),
        }),
        h("a", {
          class: "button review-link",
          href: `#/review/${encodeURIComponent(g.id)}`,
          text: t("review.open"),
          "aria-label": t("my.reviewOf", { game: title(g) }),
        }),
      );
    } else {
      actions.append(
        h("button", {
          type: "button",
          class: kind === "turn" ? "primary open-game" : "open-game",
          text: kind === "turn" ? t("my.play") : t("my.open"),
          "aria-label": t("my.openOf", { game: title(g) }),
          on: { click: () => openGame(g.id, mine) },
        }),
      );
    }
    return h("li", { class: `my-game ${kind}`, dataset: { game: g.id } }, [...parts, actions]);
  }

  /** @param {MyGame} g */
  function finishedLine(g) {
    const seat = (g.seats ?? [])[0];
    const place = placeOf(g.result, seat);
    const score = g.result?.scores?.[seat];
    if (place === null || score === undefined) return t("lobby.finished");
    return t("my.place", { place, n: g.players, score });
  }

  /**
   * @param {Challenge} c
   * @param {boolean} incoming
   */
  function challengeItem(c, incoming) {
    const what = `${gameTitle(c.game)} · ${modeName(c.game, c.mode)}`;
    const pending = c.status === "open";
    const actions = h("div", { class: "my-game-actions" });
    if (incoming && pending) {
      actions.append(
        h("button", {
          type: "button",
          class: "primary accept",
          text: t("challenge.accept"),
          "aria-label": t("challenge.acceptFrom", { name: c.from }),
          on: { click: () => answer(c, "accept") },
        }),
        h("button", {
          type: "button",
          class: "decline",
          text: t("challenge.decline"),
          "aria-label": t("challenge.declineFrom", { name: c.from }),
          on: { click: () => answer(c, "decline") },
        }),
      );
    } else if (!incoming && pending) {
      actions.append(
        h("button", {
          type: "button",
          class: "withdraw",
          text: t("challenge.withdraw"),
          "aria-label": t("challenge.withdrawTo", { name: c.to }),
          on: { click: () => answer(c, "withdraw") },
        }),
      );
    } else if (c.game_id) {
      const gameId = c.game_id;
      actions.append(
        h("button", {
          type: "button",
          class: "open-game",
          text: t("my.open"),
          on: { click: () => openGame(gameId, [incoming ? 1 : 0]) },
        }),
      );
    }
    const other = incoming ? c.from : c.to;
    return h(
      "li",
      {
        class: `my-game challenge ${incoming ? "incoming" : "outgoing"}`,
        dataset: { challenge: c.id },
      },
      [
        h("div", { class: "my-game-info" }, [
          h("strong", {}, [
            incoming ? t("challenge.from") : t("challenge.to"),
            " ",
            h("a", { href: `#/player/${encodeURIComponent(other)}`, text: other }),
          ]),
          c.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
          pending ? "" : h("span", { class: "badge", text: t(`challenge.status.${c.status}`) }),
          h("div", {
            class: "muted",
            text: `${what} · ${t("challenge.players", { n: c.players })} · ${clockName(c.clock)}`,
          }),
          c.created
            ? h(
                "div",
                { class: "muted small" },
                h("time", { datetime: c.created, text: when(c.created) }),
              )
            : "",
        ]),
        actions,
      ],
    );
  }

  /**
   * @param {Challenge} c
   * @param {"accept" | "decline" | "withdraw"} verb
   */
  async function answer(c, verb) {
    try {
      /** @type {Partial<SeatKey>} a declined or withdrawn challenge: no seat */
      const data = await send(`/api/challenges/${encodeURIComponent(c.id)}/${verb}`, {});
      if (verb === "accept" && data.game_id) {
        if (data.token && data.seat !== undefined) holdToken(data.game_id, data.seat, data.token);
        location.hash = `#/game/${encodeURIComponent(data.game_id)}`;
        return;
      }
      toast(
        verb === "decline" ? t("challenge.declinedToast") : t("challenge.withdrawnToast"),
        "info",
      );
    } catch (err) {
      toast(errorLine(err));
    }
    load();
  }

  /**
   * @param {string} id
   * @param {HTMLElement[]} items
   * @param {string} empty what the list says without any
   */
  function list(id, items, empty) {
    return items.length
      ? h("ul", { class: "my-list", id }, items)
      : h("p", { class: "muted", id, text: empty });
  }

  /**
   * @param {string} id
   * @param {string} heading
   * @param {number} n a count shown beside the heading (0: none)
   * @param {HTMLElement[]} body
   */
  function section(id, heading, n, body) {
    return h("section", { class: "panel my-section", id, "aria-labelledby": `${id}-title` }, [
      h("h2", { id: `${id}-title` }, [
        heading,
        n ? h("span", { class: "badge count", text: String(n) }) : "",
      ]),
      ...body,
    ]);
  }

  function draw() {
    pageTitle(t("my.title"));
    if (!me()) {
      signInFirst(root, t("my.title"), t("my.needed"));
      return;
    }
    const had = document.activeElement?.id;
    const head = h("div", { class: "page-head" }, [
      h("h1", { class: "page-title", id: "my-title", text: t("my.title") }),
      h("div", { class: "row" }, [
        h("a", {
          class: "button",
          id: "challenge-link",
          href: "#/challenge",
          text: t("challenge.title"),
        }),
        h("a", { class: "button", id: "my-events-link", href: "#/events", text: t("event.title") }),
      ]),
    ]);
    if (!games) {
      clear(root).append(
        head,
        failed
          ? h("p", { class: "error", role: "alert", text: failed })
          : h("p", { class: "muted", text: "…" }),
      );
      return;
    }
    /** @type {HTMLElement[]} */
    const parts = [head];
    if (failed) parts.push(h("p", { class: "error", role: "alert", text: failed }));
    if (challenges) {
      /** @param {Challenge} c */
      const open = (c) => c.status === "open" || (c.status === "accepted" && c.game_id);
      const incoming = challenges.incoming.filter(open);
      const outgoing = challenges.outgoing.filter((c) => c.status !== "withdrawn");
      parts.push(
        section(
          "my-challenges",
          t("challenge.list"),
          incoming.filter((c) => c.status === "open").length,
          [
            h("h3", { text: t("challenge.incoming") }),
            list(
              "incoming",
              incoming.map((c) => challengeItem(c, true)),
              t("challenge.noneIncoming"),
            ),
            h("h3", { text: t("challenge.outgoing") }),
            list(
              "outgoing",
              outgoing.map((c) => challengeItem(c, false)),
              t("challenge.noneOutgoing"),
            ),
          ],
        ),
      );
    }
    parts.push(
      section("my-turn", t("my.turn"), games.turn.length, [
        list(
          "turn-list",
          games.turn.map((g) => gameItem(g, "turn")),
          t("my.noTurn"),
        ),
      ]),
      section("my-playing", t("my.playing"), 0, [
        list(
          "playing-list",
          games.playing.map((g) => gameItem(g, "playing")),
          t("my.noPlaying"),
        ),
      ]),
      section("my-finished", t("my.finished"), 0, [
        list(
          "finished-list",
          games.finished.map((g) => gameItem(g, "finished")),
          t("my.noFinished"),
        ),
      ]),
    );
    clear(root).append(...parts);
    if (had) document.getElementById(had)?.focus();
  }

  const ticker = setInterval(() => tick(root), 1000);
  const refocus = () => me() && load();
  window.addEventListener("focus", refocus);
  const stop = onSession(() => {
    if (!me()) {
      games = null;
      draw();
    }
  });
  draw();
  load();
  return {
    render: draw,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      clearInterval(ticker);
      window.removeEventListener("focus", refocus);
      stop();
    },
    session: load,
  };
}
