// @ts-check
// #/events: the events (tournaments) upcoming, running and finished, and a form to make one;
// #/event/{id}: one event, its entrants, its rounds with their tables (to watch or play), the
// standings with their tie-breaks as they stand, and the final table once it is over.
//
// People join and leave with their session; bots through the bot API with their token. An
// event's tables are bound to its entrants' accounts: they come to "My games" (openGame).
// The event's page asks again every few seconds while the event is open or running.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { api, send, toast } from "./ui.js";
import { me, errorLine } from "./session.js";
import { field, errorLine as errorBox, showError, clearError, pageTitle, when } from "./forms.js";
import { CLOCKS } from "./seatclock.js";
import { openGame, clockName } from "./mygames.js";

const POLL = 3_000;
const FORMATS = ["swiss", "round_robin"];

/**
 * An event as the list shows it (wire/events.py: EventSummaryJSON); times in seconds since
 * the epoch.
 * @typedef {object} EventSummary
 * @property {string} id
 * @property {string} name
 * @property {string} game
 * @property {string} mode
 * @property {number} players  per table
 * @property {"swiss" | "round_robin"} format
 * @property {boolean} rated
 * @property {{clock: import("./mygames.js").ClockRule | null, stand_in: string | null,
 *   away_limit: number | null}} rules  every table's rules (as POST /api/games takes them)
 * @property {"open" | "running" | "finished" | "cancelled"} status
 * @property {number | null} rounds  rounds to play (a round robin's: known once it starts)
 * @property {number} round  the round being played (0 before the start)
 * @property {number | null} starts  when it starts by itself (null: by its creator's hand)
 * @property {number | null} started
 * @property {number | null} ended
 * @property {string | null} creator
 * @property {number} entrants
 */

/**
 * GET /api/events (EventListJSON).
 * @typedef {{upcoming: EventSummary[], running: EventSummary[], finished: EventSummary[]}}
 *   EventList
 */

/**
 * An entrant (EntrantJSON): `withdrawn`, the round after which they play no more (null: in).
 * @typedef {{name: string, bot: boolean, withdrawn: number | null,
 *   why: "left" | "no_show" | "gone" | null}} Entrant
 */

/**
 * One entrant at a table of a round (EventSeatJSON): place, points and score once it is over.
 * @typedef {{name: string, bot: boolean, seat: number, place: number | null,
 *   points: number | null, score: number | null, no_show: boolean}} EventSeat
 */

/**
 * A table of a round (EventTableJSON): its game (null for a moment, while being made).
 * @typedef {{board: number, game_id: string | null, finished: boolean, seats: EventSeat[]}}
 *   EventTable
 */

/** @typedef {{round: number, tables: EventTable[], byes: string[]}} EventRound */

/**
 * A line of the standings (StandingJSON): points, then the tie-breaks.
 * @typedef {{rank: number, name: string, bot: boolean, points: number, buchholz: number,
 *   score: number, wins: number, played: number, byes: number, withdrawn: boolean}} Standing
 */

/**
 * GET /api/events/{id} (EventJSON): the event with its entrants, rounds, standings and, once
 * finished, its final table.
 * @typedef {EventSummary & {roster: Entrant[], schedule: EventRound[], standings: Standing[],
 *   final: Standing[] | null, joined: boolean | null, can_start: boolean}} EventDetail
 */

/**
 * The form that makes an event.
 * @typedef {{name: string, game: string | undefined, mode: string | null, players: number,
 *   format: string, rounds: number, clock: string, rated: boolean, starts: string}} EventForm
 */

/** @typedef {import("./forms.js").PageEnv} PageEnv  #/event/{id}: `name` is the event's id */
/** @typedef {import("./forms.js").Page} Page */

/**
 * @param {number} seconds  since the epoch
 * @returns {string} ISO 8601
 */
function dateOfSeconds(seconds) {
  return new Date(seconds * 1000).toISOString();
}

/**
 * One line about an event: its game, format, rounds, entrants and when it starts or started.
 * @param {EventSummary} e
 * @param {(game: string) => string} gameTitle
 * @param {(game: string, mode: string) => string} modeName
 * @param {boolean} [full]  with when it starts, its round, or when it ended
 * @returns {string}
 */
export function eventLine(e, gameTitle, modeName, full = true) {
  const bits = [
    `${gameTitle(e.game)} · ${modeName(e.game, e.mode)}`,
    t(`event.format.${e.format}`),
    t("event.perTableN", { n: e.players }),
    t("event.entrants", { n: e.entrants }),
  ];
  if (!full) return bits.join(" · ");
  if (e.status === "open")
    bits.push(
      e.starts ? t("event.startsAt", { when: when(dateOfSeconds(e.starts)) }) : t("event.byHand"),
    );
  else if (e.status === "running")
    bits.push(t("event.roundOf", { round: e.round, rounds: e.rounds ?? e.round }));
  else if (e.ended) bits.push(when(dateOfSeconds(e.ended)));
  return bits.join(" · ");
}

/**
 * What POST /api/events receives of the form (wire: EventIn).
 * @param {EventForm} form
 */
export function eventBody(form) {
  return {
    name: form.name.trim(),
    game: form.game,
    mode: form.mode,
    players: form.players,
    format: form.format,
    rated: form.rated,
    clock: CLOCKS.find((c) => c.key === form.clock)?.clock ?? null,
    rounds: form.format === "swiss" ? form.rounds : null,
    starts: form.starts ? new Date(form.starts).toISOString() : null,
  };
}

/**
 * #/events: the list and the form.
 * @param {PageEnv} env
 * @returns {Page}
 */
export function eventsPage(env) {
  const { root, meta, names, gameTitle, modeName } = env;
  /** @type {EventList | null} */
  let listed = null;
  /** @type {string | null} */
  let failed = null;
  let destroyed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {EventForm} */
  const form = {
    name: "",
    game: names[0],
    mode: null,
    players: 2,
    format: "swiss",
    rounds: 3,
    clock: "none",
    rated: false,
    starts: "",
  };

  async function load() {
    clearTimeout(timer);
    try {
      listed = await api("/api/events", { cache: "no-store" });
      failed = null;
    } catch (err) {
      failed = errorLine(err);
    }
    if (destroyed) return;
    draw();
    timer = setTimeout(load, POLL * 5);
  }

  /** @param {EventSummary} e */
  function item(e) {
    return h("li", { class: "my-game event-item", dataset: { event: e.id } }, [
      h("div", { class: "my-game-info" }, [
        h(
          "a",
          { href: `#/event/${encodeURIComponent(e.id)}`, class: "event-link" },
          h("strong", { text: e.name }),
        ),
        e.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
        e.status === "cancelled"
          ? h("span", { class: "badge", text: t("event.status.cancelled") })
          : "",
        h("div", { class: "muted", text: eventLine(e, gameTitle, modeName) }),
      ]),
    ]);
  }

  /**
   * @param {string} id
   * @param {string} heading
   * @param {EventSummary[]} items
   */
  function section(id, heading, items) {
    return h("section", { class: "panel my-section", id, "aria-labelledby": `${id}-title` }, [
      h("h2", { id: `${id}-title`, text: heading }),
      items.length
        ? h("ul", { class: "my-list" }, items.map(item))
        : h("p", { class: "muted", text: t("event.none") }),
    ]);
  }

  function createForm() {
    if (!me()) {
      return h("p", { class: "hint", id: "event-sign-in" }, [
        t("event.needed"),
        " ",
        h("a", {
          href: "#/signin",
          text: t("account.signIn"),
          on: { click: () => sessionStorage.setItem("polis:next", location.hash) },
        }),
      ]);
    }
    const game = form.game;
    if (!names.length || !game) return "";
    const g = meta.games[game];
    if (!form.mode || !g.modes.includes(form.mode)) form.mode = g.modes[0];
    const most = Math.min(4, g.max_players);
    form.players = Math.min(Math.max(form.players, Math.max(2, g.min_players)), most);
    const error = errorBox("event-error");
    /**
     * @param {string} id
     * @param {[string | number, string][]} options  value and label
     * @param {string | number | null} value  the one selected
     * @param {(value: string) => void} set
     */
    const select = (id, options, value, set) =>
      h(
        "select",
        {
          id,
          on: {
            change: (e) => {
              set(e.target.value);
              redraw();
            },
          },
        },
        options.map(([v, text]) =>
          h("option", { value: v, selected: String(v) === String(value), text }),
        ),
      );
    /** @type {[number, string][]} */
    const counts = [];
    for (let n = Math.max(2, g.min_players); n <= most; n++) counts.push([n, String(n)]);
    const submit = h("button", {
      id: "event-submit",
      type: "submit",
      class: "primary",
      text: t("event.create"),
    });
    const el = h(
      "form",
      {
        id: "event-form",
        class: "panel account-form wide",
        "aria-labelledby": "event-form-title",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            if (!form.name.trim()) return showError(error, t("event.needName"));
            clearError(error);
            submit.disabled = true;
            try {
              /** @type {EventDetail} */
              const made = await send("/api/events", eventBody(form));
              toast(t("event.made"), "info");
              location.hash = `#/event/${encodeURIComponent(made.id)}`;
            } catch (err) {
              showError(error, err);
              submit.disabled = false;
            }
          },
        },
      },
      [
        h("h2", { id: "event-form-title", text: t("event.create") }),
        field({
          id: "event-name",
          label: t("event.name"),
          value: form.name,
          maxlength: 60,
          autocomplete: "off",
          required: true,
          on: { input: (e) => (form.name = e.target.value) },
        }),
        h("div", { class: "row" }, [
          h("label", {}, [
            t("lobby.game"),
            " ",
            select(
              "event-game",
              names.map((n) => /** @type {[string, string]} */ ([n, gameTitle(n)])),
              game,
              (v) => (form.game = v),
            ),
          ]),
          h("label", {}, [
            t("lobby.mode"),
            " ",
            select(
              "event-mode",
              g.modes.map((m) => [m, modeName(game, m)]),
              form.mode,
              (v) => (form.mode = v),
            ),
          ]),
          h("label", {}, [
            t("event.perTable"),
            " ",
            select("event-players", counts, form.players, (v) => (form.players = +v)),
          ]),
        ]),
        h("div", { class: "row" }, [
          h("label", {}, [
            t("event.format"),
            " ",
            select(
              "event-format",
              FORMATS.map((f) => /** @type {[string, string]} */ ([f, t(`event.format.${f}`)])),
              form.format,
              (v) => (form.format = v),
            ),
          ]),
          form.format === "swiss"
            ? h("label", {}, [
                t("event.rounds"),
                " ",
                h("input", {
                  id: "event-rounds",
                  type: "number",
                  min: 1,
                  max: 20,
                  value: form.rounds,
                  on: {
                    change: (e) => (form.rounds = Math.max(1, Math.min(20, +e.target.value || 1))),
                  },
                }),
              ])
            : h("p", { class: "hint", id: "event-rounds-hint", text: t("event.roundsDerived") }),
        ]),
        h("div", { class: "row" }, [
          h("label", {}, [
            t("lobby.clock"),
            " ",
            select(
              "event-clock",
              CLOCKS.map(
                (c) => /** @type {[string, string]} */ ([c.key, t(`lobby.clock.${c.key}`)]),
              ),
              form.clock,
              (v) => (form.clock = v),
            ),
          ]),
        ]),
        field({
          id: "event-starts",
          label: t("event.starts"),
          type: "datetime-local",
          value: form.starts,
          hint: t("event.startsHint"),
          on: { change: (e) => (form.starts = e.target.value) },
        }),
        h(
          "div",
          { class: "row" },
          h("label", { class: "inline check" }, [
            h("input", {
              type: "checkbox",
              id: "event-rated",
              checked: form.rated,
              on: { change: (e) => (form.rated = e.target.checked) },
            }),
            t("rated.label"),
          ]),
        ),
        error,
        h("div", { class: "row" }, submit),
      ],
    );
    return el;
  }

  function draw() {
    pageTitle(t("event.title"));
    /** @type {(Node | string)[]} */
    const parts = [
      h(
        "div",
        { class: "page-head" },
        h("h1", { class: "page-title", id: "events-title", text: t("event.title") }),
      ),
      h("p", { class: "hint", text: t("event.intro") }),
    ];
    if (failed) parts.push(h("p", { class: "error", role: "alert", text: failed }));
    if (!listed) parts.push(h("p", { class: "muted", role: "status", text: "…" }));
    else {
      parts.push(
        section("events-running", t("event.status.running"), listed.running),
        section("events-upcoming", t("event.upcoming"), listed.upcoming),
        section("events-finished", t("event.status.finished"), listed.finished),
      );
    }
    parts.push(createForm());
    clear(root).append(...parts);
  }

  function redraw() {
    const had = document.activeElement?.id;
    draw();
    if (had) document.getElementById(had)?.focus();
  }

  load();
  return {
    render: redraw,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
    },
    session: redraw,
  };
}

/**
 * #/event/{id}: one event.
 * @param {PageEnv} env
 * @returns {Page}
 */
export function eventPage(env) {
  const { root, gameTitle, modeName } = env;
  const id = env.name;
  /** @type {EventDetail | null} */
  let data = null;
  /** @type {string | null} */
  let failed = null;
  let destroyed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function load() {
    clearTimeout(timer);
    try {
      data = await api(`/api/events/${encodeURIComponent(id)}`, { cache: "no-store" });
      failed = null;
    } catch (err) {
      failed = errorLine(err);
    }
    if (destroyed) return;
    redraw();
    if (!data || data.status === "open" || data.status === "running")
      timer = setTimeout(load, POLL);
  }

  /** @param {"join" | "leave" | "start"} verb */
  async function act(verb) {
    try {
      await send(`/api/events/${encodeURIComponent(id)}/${verb}`, {});
      toast(t(`event.${verb}Done`), "info");
    } catch (err) {
      toast(errorLine(err));
    }
    load();
  }

  /** @param {EventDetail} data */
  function actions(data) {
    const row = h("div", { class: "row", id: "event-actions" });
    if (!me()) {
      if (data.status === "open")
        row.append(
          h("p", { class: "hint" }, [
            t("event.signInToJoin"),
            " ",
            h("a", {
              href: "#/signin",
              text: t("account.signIn"),
              on: { click: () => sessionStorage.setItem("polis:next", location.hash) },
            }),
          ]),
        );
      return row;
    }
    const mine = data.roster.find((e) => e.name === me());
    if (data.status === "open" && !mine)
      row.append(
        h("button", {
          type: "button",
          class: "primary",
          id: "event-join",
          text: t("event.join"),
          on: { click: () => act("join") },
        }),
      );
    if ((data.status === "open" || data.status === "running") && mine && mine.withdrawn === null) {
      row.append(
        h("button", {
          type: "button",
          id: "event-leave",
          text: t("event.leave"),
          on: { click: () => act("leave") },
        }),
      );
    }
    if (data.can_start)
      row.append(
        h("button", {
          type: "button",
          class: "primary",
          id: "event-start",
          text: t("event.start"),
          on: { click: () => act("start") },
        }),
      );
    if (mine)
      row.append(
        h("span", {
          class: "badge",
          id: "event-entered",
          text: mine.withdrawn === null ? t("event.entered") : t(`event.why.${mine.why ?? "left"}`),
        }),
      );
    return row;
  }

  /** @param {EventSeat} s */
  function seatLine(s) {
    /** @type {(Node | string)[]} */
    const bits = [h("a", { href: `#/player/${encodeURIComponent(s.name)}`, text: s.name })];
    if (s.bot) bits.push(h("span", { class: "badge", text: t("lobby.bot") }));
    if (s.no_show) bits.push(h("span", { class: "badge no-show", text: t("event.why.no_show") }));
    if (s.place !== null)
      bits.push(
        " ",
        h("span", {
          class: "muted",
          text: t("event.placePoints", { place: s.place, points: s.points }),
        }),
      );
    return h("li", {}, bits);
  }

  /**
   * @param {EventTable} table
   * @param {number} round
   */
  function tableItem(table, round) {
    const mine = table.seats.find((s) => s.name === me());
    const buttons = h("div", { class: "my-game-actions" });
    const gameId = table.game_id;
    if (gameId) {
      if (mine && !table.finished) {
        buttons.append(
          h("button", {
            type: "button",
            class: "primary open-game",
            text: t("my.play"),
            on: { click: () => openGame(gameId, [mine.seat]) },
          }),
        );
      }
      buttons.append(
        h("a", {
          class: "button watch-table",
          href: `#/game/${encodeURIComponent(gameId)}`,
          text: table.finished ? t("my.replay") : t("event.watch"),
        }),
      );
    }
    return h(
      "li",
      {
        class: `my-game event-table ${table.finished ? "finished" : "playing"}`,
        dataset: { round: String(round), board: String(table.board) },
      },
      [
        h("div", { class: "my-game-info" }, [
          h("strong", { text: t("event.table", { n: table.board }) }),
          table.finished ? "" : h("span", { class: "badge", text: t("event.playing") }),
          h("ol", { class: "event-seats" }, table.seats.map(seatLine)),
        ]),
        buttons,
      ],
    );
  }

  /** @param {EventDetail} data */
  function rounds(data) {
    if (!data.schedule.length) return "";
    return h(
      "section",
      { class: "panel my-section", id: "event-rounds", "aria-labelledby": "event-rounds-title" },
      [
        h("h2", { id: "event-rounds-title", text: t("event.rounds") }),
        ...[...data.schedule].reverse().map((r) =>
          h("div", { class: "event-round", dataset: { round: String(r.round) } }, [
            h("h3", { text: t("event.round", { n: r.round }) }),
            h(
              "ul",
              { class: "my-list" },
              r.tables.map((table) => tableItem(table, r.round)),
            ),
            r.byes.length
              ? h("p", {
                  class: "muted event-byes",
                  text: t("event.byes", { names: r.byes.join(", ") }),
                })
              : "",
          ]),
        ),
      ],
    );
  }

  /**
   * @param {Standing[]} lines
   * @param {string} tableId
   * @param {string} caption
   */
  function standingsTable(lines, tableId, caption) {
    const who = me();
    /** @type {[string, string][]} key of the heading, class */
    const cols = [
      ["board.rank", "num"],
      ["board.player", ""],
      ["event.points", "num"],
      ["event.buchholz", "num"],
      ["event.score", "num"],
      ["event.wins", "num"],
      ["event.played", "num"],
    ];
    return h(
      "div",
      { class: "scroll-x", tabindex: "0", role: "region", "aria-labelledby": `${tableId}-caption` },
      h("table", { class: "data-table event-standings", id: tableId }, [
        h("caption", { id: `${tableId}-caption`, text: caption }),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            cols.map(([c, cls]) => h("th", { scope: "col", class: cls || null, text: t(c) })),
          ),
        ),
        h(
          "tbody",
          {},
          lines.map((x) =>
            h("tr", { class: x.name === who ? "me" : "", dataset: { name: x.name } }, [
              h("td", { class: "num", text: String(x.rank) }),
              h("th", { scope: "row" }, [
                h("a", { href: `#/player/${encodeURIComponent(x.name)}`, text: x.name }),
                x.bot ? h("span", { class: "badge", text: t("lobby.bot") }) : "",
                x.withdrawn ? h("span", { class: "badge", text: t("event.withdrawn") }) : "",
              ]),
              h("td", { class: "num points", text: String(x.points) }),
              h("td", { class: "num", text: String(x.buchholz) }),
              h("td", { class: "num", text: String(x.score) }),
              h("td", { class: "num", text: String(x.wins) }),
              h("td", { class: "num", text: String(x.played + x.byes) }),
            ]),
          ),
        ),
      ]),
    );
  }

  function draw() {
    if (!data) {
      pageTitle(t("event.title"));
      clear(root).append(
        h("section", { class: "panel page-section" }, [
          h("h1", { class: "page-title", text: t("event.title") }),
          failed
            ? h("p", { class: "error", role: "alert", text: failed })
            : h("p", { class: "muted", role: "status", text: "…" }),
          h("a", { href: "#/events", text: t("event.all") }),
        ]),
      );
      return;
    }
    pageTitle(data.name);
    const status =
      data.status === "running"
        ? t("event.roundOf", { round: data.round, rounds: data.rounds ?? data.round })
        : t(`event.status.${data.status}`);
    const head = h(
      "section",
      { class: "panel my-section", id: "event-head", "aria-labelledby": "event-title" },
      [
        h("div", { class: "page-head" }, [
          h("h1", { class: "page-title", id: "event-title" }, [
            data.name,
            data.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
          ]),
          h("a", { class: "button", href: "#/events", text: t("event.all") }),
        ]),
        h("p", { id: "event-status", dataset: { status: data.status }, text: status }),
        h("p", {
          class: "muted",
          text: eventLine(data, gameTitle, modeName, data.status === "open"),
        }),
        h("p", {
          class: "muted",
          text: `${t("lobby.clock")}: ${clockName(data.rules.clock)}${data.creator ? ` · ${t("event.by", { name: data.creator })}` : ""}`,
        }),
        actions(data),
      ],
    );
    /** @type {(Node | string)[]} */
    const parts = [head];
    if (failed) parts.push(h("p", { class: "error", role: "alert", text: failed }));
    if (data.final) {
      parts.push(
        h(
          "section",
          {
            class: "panel my-section",
            id: "event-final",
            "aria-labelledby": "event-final-caption",
          },
          standingsTable(data.final, "event-final-table", t("event.final")),
        ),
      );
    } else if (data.standings.length && data.status === "running") {
      parts.push(
        h(
          "section",
          {
            class: "panel my-section",
            id: "event-live",
            "aria-labelledby": "event-standings-caption",
          },
          standingsTable(data.standings, "event-standings", t("event.standings")),
        ),
      );
    }
    if (data.standings.length) parts.push(h("p", { class: "hint", text: t("event.tiebreaks") }));
    parts.push(rounds(data));
    parts.push(
      h(
        "section",
        { class: "panel my-section", id: "event-roster", "aria-labelledby": "event-roster-title" },
        [
          h("h2", {
            id: "event-roster-title",
            text: t("event.entrants", { n: data.roster.length }),
          }),
          data.roster.length
            ? h(
                "ul",
                { class: "event-entrants" },
                data.roster.map((e) =>
                  h("li", {}, [
                    h("a", { href: `#/player/${encodeURIComponent(e.name)}`, text: e.name }),
                    e.bot ? h("span", { class: "badge", text: t("lobby.bot") }) : "",
                    e.withdrawn !== null
                      ? h("span", { class: "badge", text: t(`event.why.${e.why ?? "left"}`) })
                      : "",
                  ]),
                ),
              )
            : h("p", { class: "muted", text: t("event.noEntrants") }),
        ],
      ),
    );
    clear(root).append(...parts);
  }

  function redraw() {
    const had = document.activeElement?.id;
    draw();
    if (had) document.getElementById(had)?.focus();
  }

  load();
  return {
    render: redraw,
    destroy() {
      destroyed = true;
      clearTimeout(timer);
    },
    session: load,
  };
}
