// @ts-check
// Clocks and bots standing in for people: the lobby's choices, each seat's time counting down
// at the table, the banners that say a bot plays for someone, and leaving (resigning).
//
// The server sends each seat's bank at the start of the turn, the seat whose time runs and
// when its turn started (server time, seconds); the welcome message carries the server's
// time, so the countdown here follows the server's clock whatever this device's says.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { secondsLeftAt, serverOffset, formatClock, isLow, awaySecondsLeft } from "./clockmath.js";

/** @typedef {import("./clockmath.js").Clock} Clock */

/**
 * A seat as the state message lists it (wire/to_client: SeatJSON).
 * @typedef {{kind: string, name?: string, stand_in?: string | null, stand_in_why?: string | null,
 *   vacant?: boolean, connected?: boolean, [field: string]: any}} Seat
 */

/**
 * A log entry: an engine event of a move (move null: the set-up).
 * @typedef {{move: number | null, key: string, params?: Record<string, any>}} LogEvent
 */

/**
 * The lobby's form, as far as the table's rules go (lobby.js).
 * @typedef {{clock: string, standIn: string, away: number | null, [field: string]: any}} RulesForm
 */

// The lobby's clock choices: a key for the label and what POST /api/games receives.
/** @type {{key: string, clock: null | Record<string, string | number>}[]} */
export const CLOCKS = [
  { key: "none", clock: null },
  { key: "rt5", clock: { kind: "realtime", bank: 300, increment: 10 } },
  { key: "rt15", clock: { kind: "realtime", bank: 900, increment: 20 } },
  { key: "rt30", clock: { kind: "realtime", bank: 1800, increment: 30 } },
  { key: "day1", clock: { kind: "turn", per_move: 86400, max_bank: 3 * 86400 } },
  { key: "day3", clock: { kind: "turn", per_move: 3 * 86400, max_bank: 7 * 86400 } },
];
// Away limits for tables without a clock, in seconds (null: never).
/** @type {(number | null)[]} */
export const AWAY = [null, 30, 60, 300, 900, 3600];

let offset = 0; // server time minus this device's time, in seconds

/** @param {unknown} now  the server's time (seconds), as a message says it */
export function serverTime(now) {
  offset = serverOffset(now, Date.now()) ?? offset;
}

const nowOnServer = () => Date.now() / 1000 + offset;

// Seconds left on `seat`'s clock now (null: no clock).
/**
 * @param {Clock | null | undefined} clock
 * @param {number} seat
 * @returns {number | null}
 */
export function secondsLeft(clock, seat) {
  return secondsLeftAt(clock, seat, nowOnServer());
}

// 4:05, 1:02:03, or 2 d 03 h for turn-based banks.
/**
 * @param {number | null} seconds
 * @returns {string}
 */
export function formatTime(seconds) {
  return formatClock(seconds ?? 0, (d, h) => t("clock.days", { d, h }));
}

/**
 * @param {Clock} clock
 * @param {number} seat
 */
function clockLabel(clock, seat) {
  return formatTime(secondsLeft(clock, seat));
}

/** @typedef {HTMLSpanElement & {clock?: Clock}} ClockChip */

// The clock chip of one seat in the seat list (null without a clock); `tick()` keeps the
// running one counting.
/**
 * @param {{clock?: Clock | null, finished?: boolean, seats: Seat[]}} msg
 * @param {number} seat
 * @param {string} name
 * @returns {ClockChip | null}
 */
export function seatClock(msg, seat, name) {
  const clock = msg.clock;
  if (!clock || msg.finished || msg.seats[seat]?.kind === "bot") return null; // a bot's time never runs
  const running = clock.running === seat;
  /** @type {ClockChip} */
  const el = h("span", {
    class: `clock${running ? " running" : ""}`,
    dataset: { clockSeat: seat, name },
    role: "timer",
    "aria-label": t("clock.left", { name, time: clockLabel(clock, seat) }),
    text: clockLabel(clock, seat),
  });
  el.clock = clock;
  return el;
}

// Refresh every running clock chip on the page (once a second).
/** @param {ParentNode} root */
export function tick(root) {
  for (const el of /** @type {NodeListOf<ClockChip>} */ (root.querySelectorAll(".clock.running"))) {
    const seat = Number(el.dataset.clockSeat);
    const left = secondsLeft(el.clock, seat);
    el.textContent = formatTime(left);
    el.setAttribute("aria-label", t("clock.left", { name: el.dataset.name, time: el.textContent }));
    el.classList.toggle("low", isLow(left));
  }
}

// The seat's marker in the seat list when a bot plays it for its person.
/**
 * @param {Seat} seat
 * @returns {HTMLSpanElement | null}
 */
export function standInBadge(seat) {
  if (!seat.stand_in) return null;
  return h("span", {
    class: "badge stand-in",
    text: t("standin.badge", { level: t(`level.${seat.stand_in}`) }),
  });
}

// Banners: a bot plays for someone (with "take my seat back" for this browser's seats).
/**
 * @param {{finished?: boolean, seats: Seat[], rules?: {leave_final?: boolean} | null}} msg
 * @param {string[]} names
 * @param {number[]} held  the seats this browser holds
 * @param {(seat: number) => void} reclaim
 * @returns {HTMLElement[]}
 */
export function standInBanners(msg, names, held, reclaim) {
  /** @type {HTMLElement[]} */
  const out = [];
  if (msg.finished) return out;
  msg.seats.forEach((seat, i) => {
    if (!seat.stand_in) return;
    const level = t(`level.${seat.stand_in}`);
    const why = seat.stand_in_why || "left";
    if (held.includes(i) && why === "left" && msg.rules?.leave_final) {
      // left for good (takeover.py: leave_final): nothing to take back
      out.push(
        h("p", {
          class: "banner warn stand-in",
          id: `stand-in-${i}`,
          role: "status",
          text: t("standin.you.leftFinal", { level, name: names[i] }),
        }),
      );
    } else if (held.includes(i)) {
      out.push(
        h("div", { class: "banner warn stand-in", id: `stand-in-${i}`, role: "status" }, [
          h("span", { text: t(`standin.you.${why}`, { level, name: names[i] }) }),
          " ",
          h("button", {
            class: "primary reclaim",
            dataset: { seat: i },
            text: t("standin.reclaim"),
            on: { click: () => reclaim(i) },
          }),
        ]),
      );
    } else {
      out.push(
        h("p", {
          class: "banner stand-in",
          id: `stand-in-${i}`,
          role: "status",
          text: t(`standin.other.${why}`, { level, name: names[i] }),
        }),
      );
    }
  });
  return out;
}

// The "leave the game" button and its confirmation: `leave()` resigns this browser's seats;
// `final`: the seat is not handed back (the table's rules.leave_final), and the dialog says so.
/**
 * @param {string} level
 * @param {() => void} leave
 * @param {boolean} [final]
 * @returns {HTMLButtonElement}
 */
export function resignButton(level, leave, final = false) {
  const open = () => {
    const dialog = h("dialog", { id: "dialog-resign", "aria-labelledby": "dialog-resign-title" }, [
      h("h2", { id: "dialog-resign-title", text: t("resign.title") }),
      h("p", {
        id: "resign-ask",
        text: t(final ? "resign.askFinal" : "resign.ask", { level: t(`level.${level}`) }),
      }),
      h("div", { class: "row" }, [
        h("button", {
          id: "resign-ok",
          class: "primary danger",
          text: t(final ? "resign.okFinal" : "resign.ok"),
          on: {
            click: () => {
              dialog.close();
              leave();
            },
          },
        }),
        h("button", {
          id: "resign-cancel",
          text: t("ui.cancel"),
          on: { click: () => dialog.close() },
        }),
      ]),
    ]);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  };
  return h("button", {
    id: "resign-button",
    class: "resign",
    text: t("resign.button"),
    on: { click: open },
  });
}

// Who made a move, for the log: null for a person, "bot (easy)" for a bot.
/**
 * @param {string | null | undefined} author
 * @returns {HTMLSpanElement | null}
 */
export function authorNote(author) {
  if (!author || !author.startsWith("bot:")) return null;
  return h("span", {
    class: "author",
    text: ` · ${t("log.byBot", { level: t(`level.${author.slice(4)}`) })}`,
  });
}

// The lobby's part of the form: a clock, the bot level that replaces leavers, an away limit.
/**
 * @param {RulesForm} form
 * @param {() => void} redraw
 * @returns {HTMLElement[]}
 */
export function tableRules(form, redraw) {
  const clockSel = h(
    "select",
    {
      id: "clock",
      on: {
        change: (e) => {
          form.clock = e.target.value;
          redraw();
        },
      },
    },
    CLOCKS.map((c) =>
      h("option", {
        value: c.key,
        selected: c.key === form.clock,
        text: t(`lobby.clock.${c.key}`),
      }),
    ),
  );
  const levelSel = h(
    "select",
    { id: "stand-in", on: { change: (e) => (form.standIn = e.target.value) } },
    ["easy", "medium", "hard"].map((l) =>
      h("option", { value: l, selected: l === form.standIn, text: t(`level.${l}`) }),
    ),
  );
  const parts = [
    h("label", {}, [t("lobby.clock"), " ", clockSel]),
    h("label", {}, [t("lobby.standIn"), " ", levelSel]),
  ];
  if (form.clock === "none") {
    const awaySel = h(
      "select",
      {
        id: "away-limit",
        on: { change: (e) => (form.away = e.target.value === "" ? null : +e.target.value) },
      },
      AWAY.map((s) =>
        h("option", {
          value: s === null ? "" : s,
          selected: s === form.away,
          text: t(`lobby.away.${s === null ? "never" : s}`),
        }),
      ),
    );
    parts.push(h("label", {}, [t("lobby.away"), " ", awaySel]));
  }
  return [
    h("div", { class: "row table-rules" }, parts),
    h("p", { class: "hint", text: t("lobby.rulesHint") }),
  ];
}

// What POST /api/games receives of the form's rules.
/**
 * @param {RulesForm} form
 * @returns {{clock: Record<string, string | number> | null, stand_in: string, away_limit: number | null}}
 */
export function rulesBody(form) {
  const clock = CLOCKS.find((c) => c.key === form.clock)?.clock ?? null;
  return { clock, stand_in: form.standIn, away_limit: clock ? null : form.away };
}

// -- stand-ins told: who moved, the countdown before the away limit, the log's notes ----------
/**
 * @param {unknown} author
 * @returns {author is string}
 */
const byBot = (author) => typeof author === "string" && author.startsWith("bot:");

// Who made each move (entry index -> seat): the player of the move's first event (every
// game's first event of a move names who moved).
/**
 * @param {LogEvent[]} log
 * @returns {Map<number, number>}
 */
export function movers(log) {
  /** @type {Map<number, number>} */
  const out = new Map();
  for (const e of log)
    if (e.move !== null && e.move !== undefined && !out.has(e.move))
      out.set(e.move, e.params?.player);
  return out;
}

// Where bots stood in for people, from the authors of the moves: per move, the note that goes
// before it ({kind: "standIn" | "back", seat, level, prev: the seat's move before}); per
// person's seat, the author of its last move, its moves since it last moved itself (a bot's,
// trailing), and where its latest bot run began; per move, the index of its first event.
/**
 * A note of the log: a bot stands in for a seat from this move, or its person is back.
 * @typedef {{kind: "standIn", seat: number, level: string, prev: number | undefined}
 *   | {kind: "back", seat: number, prev: number | undefined}} StandInNote
 */

/**
 * @param {LogEvent[]} log
 * @param {(string | null)[]} authors  per move: "bot:<level>" for a bot's, else a person's
 * @param {Seat[]} seats
 */
export function standInRuns(log, authors, seats) {
  const who = movers(log);
  /** @type {Map<number, number>} */
  const first = new Map();
  log.forEach(
    (e, i) => e.move !== null && e.move !== undefined && !first.has(e.move) && first.set(e.move, i),
  );
  /** @type {Map<number, StandInNote>} */
  const notes = new Map();
  /** @type {Record<number, string | null | undefined>} seat -> author of its last move */
  const last = {};
  /** @type {Record<number, number>} seat -> its last move */
  const lastMove = {};
  /** @type {Record<number, {count: number, level: string, move: number} | null>} bot moves since its person last moved */
  const trailing = {};
  /** @type {Record<number, number>} seat -> the move where its latest bot run began */
  const runStart = {};
  for (const [move, seat] of [...who.entries()].sort((a, b) => a[0] - b[0])) {
    if (seats[seat]?.kind !== "human") continue;
    const author = authors[move];
    if (byBot(author) && !byBot(last[seat])) {
      notes.set(move, { kind: "standIn", seat, level: author.slice(4), prev: lastMove[seat] });
      runStart[seat] = move;
    } else if (!byBot(author) && byBot(last[seat])) {
      notes.set(move, { kind: "back", seat, prev: lastMove[seat] });
    }
    trailing[seat] = byBot(author)
      ? { count: (trailing[seat]?.count ?? 0) + 1, level: author.slice(4), move }
      : null;
    last[seat] = author;
    lastMove[seat] = move;
  }
  return { notes, last, trailing, runStart, first };
}

// The note of the log for a bot standing in for a seat from here (`why`: "left", "time",
// "away", or null when not known), or for its person being back.
/**
 * @param {StandInNote} note
 * @param {string[]} names
 * @param {string | null} [why]
 * @returns {HTMLLIElement}
 */
export function standInNote(note, names, why) {
  const text =
    note.kind === "back"
      ? t("log.back", { name: names[note.seat] ?? "" })
      : t("log.standIn", {
          name: names[note.seat] ?? "",
          level: t(`level.${note.level}`),
          why: why ?? "unknown",
        });
  return h("li", {
    class: `stand-in-note ${note.kind === "back" ? "note-back" : "note-stand-in"}`,
    dataset: { key: note.kind === "back" ? "seat_back" : "stand_in", seat: note.seat },
    text,
  });
}

export { byBot };

// A person away on their turn at a table with an away limit: how long until a bot plays for
// them (counted from when this page saw them go: at most that long).
/**
 * @param {number} seat
 * @param {string} name
 * @param {string} level
 * @param {number} deadline  this device's time, milliseconds
 * @returns {HTMLParagraphElement}
 */
export function awayBanner(seat, name, level, deadline) {
  const el = h("p", {
    class: "banner warn away",
    id: `away-${seat}`,
    dataset: { deadline, name, level },
  });
  drawAway(el);
  return el;
}

/** @param {HTMLElement} el */
function drawAway(el) {
  const left = awaySecondsLeft(Number(el.dataset.deadline), Date.now());
  const mark = "\u0000";
  const [before, after] = t("standin.awayCountdown", {
    name: el.dataset.name,
    level: t(`level.${el.dataset.level}`),
    time: mark,
  }).split(mark);
  el.replaceChildren(
    before ?? "",
    h("span", { class: "away-time", role: "timer", text: formatTime(left) }),
    after ?? "",
  );
}

// Count every away banner down (once a second).
/** @param {ParentNode} root */
export function tickAway(root) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".banner.away")))
    drawAway(el);
}

// A person back at their seat after a bot played for them: what happened meanwhile, until they
// say they have seen it (`seen()`) or move themselves.
/**
 * @param {number} seat
 * @param {string} name
 * @param {{count: number, level: string}} run
 * @param {() => void} seen
 * @returns {HTMLDivElement}
 */
export function whileAwayBanner(seat, name, run, seen) {
  return h(
    "div",
    { class: "banner stand-in while-away", id: `while-away-${seat}`, role: "status" },
    [
      h("span", {
        text: t("standin.while", { name, level: t(`level.${run.level}`), n: run.count }),
      }),
      " ",
      h("button", { class: "seen", text: t("standin.seen"), on: { click: seen } }),
    ],
  );
}
