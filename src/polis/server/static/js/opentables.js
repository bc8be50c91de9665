// @ts-check
// Open tables in the lobby: the listed tables still waiting for people, each with a name field
// and a button that takes a free seat (the server answers with that seat's token, kept here
// like an invite link's); and the lobby form's choices to list a table or keep it invite-only,
// and to let bot accounts (programs on the bot API) take its open seats.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { holdToken } from "./tokens.js";
import { api, ApiError, toast } from "./ui.js";
import { errorLine, me } from "./session.js";

const NAME_KEY = "polis:name";

/**
 * A table's clock rule, in seconds (wire/to_client: TimeControlJSON; a turn clock: `bank` per
 * move, at most `cap`).
 * @typedef {{kind: string, bank: number, increment?: number, cap?: number | null}} TimeControl
 */

/**
 * A listed table waiting for people (GET /api/tables: the store's open_tables, with `bots`;
 * GET /api/games lists the latest games in the same summaries).
 * @typedef {object} OpenTable
 * @property {string} id
 * @property {string} game
 * @property {string} mode
 * @property {number} players
 * @property {string[]} names  every seat's name
 * @property {string[]} [kinds]  every seat's kind (human, bot)
 * @property {number[]} vacant  the seats free to take
 * @property {number} position  entries so far
 * @property {boolean} finished
 * @property {TimeControl | null} [clock]
 * @property {boolean} [bots]  bot accounts may take the open seats
 * @property {boolean} [rated]  (not sent by /api/tables yet: its badge is never drawn)
 */

/**
 * POST /api/games/{id}/seats: the seat taken and its token, as an invite link carries it.
 * @typedef {{id: string, seat: number, token: string, invite: string}} SeatTaken
 */

/**
 * The lobby form, as far as these choices go (lobby.js).
 * @typedef {{listed?: boolean, bots?: boolean, [field: string]: any}} ListForm
 */

function rememberedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

/**
 * A table's clock, in words (see clocks.py).
 * @param {TimeControl | null | undefined} clock
 * @returns {string}
 */
export function clockWords(clock) {
  if (!clock || typeof clock !== "object") return "";
  /** @param {number} s */
  const span = (s) =>
    s >= 86400
      ? `${Math.round(s / 86400)} d`
      : s >= 3600
        ? `${Math.round(s / 3600)} h`
        : s >= 60
          ? `${Math.round(s / 60)} min`
          : `${Math.round(s)} s`;
  if (clock.kind === "turn")
    return `${t("lobby.clock")}: ${span(clock.bank)}${clock.cap ? ` (≤ ${span(clock.cap)})` : ""}`;
  return `${t("lobby.clock")}: ${span(clock.bank)} + ${span(clock.increment ?? 0)}`;
}

// The checkbox of the lobby form: list the table (default) or keep it invite-only.
/**
 * @param {ListForm} form
 * @returns {HTMLDivElement}
 */
export function listedChoice(form) {
  if (form.listed === undefined) form.listed = true;
  return h(
    "div",
    { class: "row" },
    h("label", { class: "inline check" }, [
      h("input", {
        type: "checkbox",
        id: "listed",
        checked: form.listed,
        on: { change: (e) => (form.listed = e.target.checked) },
      }),
      t("lobby.listed"),
    ]),
  );
}

// The checkbox of the lobby form shown while a seat is open: bot accounts may take the open
// seats ("bots": true in POST /api/games).
/**
 * @param {ListForm} form
 * @returns {HTMLDivElement}
 */
export function botsChoice(form) {
  return h("div", { class: "row" }, [
    h("label", { class: "inline check" }, [
      h("input", {
        type: "checkbox",
        id: "allow-bots",
        checked: !!form.bots,
        "aria-describedby": "allow-bots-hint",
        on: { change: (e) => (form.bots = e.target.checked) },
      }),
      t("lobby.allowBots"),
    ]),
    h("p", { class: "hint", id: "allow-bots-hint", text: t("lobby.allowBotsHint") }),
  ]);
}

/**
 * The section listing open tables.
 * @param {{gameTitle: (game: string) => string, modeName: (game: string, mode: string) => string}} env
 * @returns {{element: HTMLElement, refresh: () => Promise<void>}}
 */
export function openTablesBox(env) {
  const box = h(
    "section",
    { class: "panel", id: "open-tables", "aria-labelledby": "open-tables-title" },
    [h("h2", { id: "open-tables-title", text: t("lobby.openTables") })],
  );

  /**
   * @param {OpenTable} table
   * @param {HTMLInputElement} input
   * @param {HTMLButtonElement} button
   */
  async function takeSeat(table, input, button) {
    const name = input.value.trim();
    if (!name) {
      toast(t("lobby.needName"));
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      /** @type {SeatTaken} */
      const data = await api(`/api/games/${encodeURIComponent(table.id)}/seats`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
      });
      try {
        localStorage.setItem(NAME_KEY, name);
      } catch {
        // the name is only a convenience
      }
      holdToken(data.id, data.seat, data.token);
      location.hash = `#/game/${data.id}`;
    } catch (err) {
      toast(err instanceof ApiError && err.status === 409 ? t("lobby.seatTaken") : errorLine(err));
      button.disabled = false;
      refresh().catch(() => {});
    }
  }

  /** @param {OpenTable} table */
  function row(table) {
    const title = `${env.gameTitle(table.game)} · ${env.modeName(table.game, table.mode)}`;
    const people = table.names
      .map((n, i) =>
        table.vacant.includes(i)
          ? `(${t("lobby.openSeat")})`
          : table.kinds?.[i] === "bot"
            ? `${n} (${t("lobby.bot")})`
            : n,
      )
      .join(", ");
    const input = h("input", {
      class: "name",
      maxlength: 40,
      autocomplete: "nickname",
      value: rememberedName() || me() || "",
      "aria-label": t("lobby.yourName"),
      placeholder: t("lobby.yourName"),
    });
    const button = h("button", {
      class: "primary take-seat",
      text: t("lobby.take"),
      "aria-label": t("lobby.takeAt", { game: title }),
      on: { click: () => takeSeat(table, input, button) },
    });
    input.addEventListener("keydown", (e) => e.key === "Enter" && button.click());
    return h("li", { class: "open-table", dataset: { game: table.id } }, [
      h("div", { class: "open-table-info" }, [
        h("strong", { text: title }),
        " ",
        h("span", { class: "badge", text: t("lobby.free", { n: table.vacant.length }) }),
        table.rated ? h("span", { class: "badge rated", text: t("rated.badge") }) : "",
        table.bots ? h("span", { class: "badge bots-welcome", text: t("lobby.botsWelcome") }) : "",
        h("div", { class: "muted", text: people }),
        table.clock ? h("div", { class: "muted clock-words", text: clockWords(table.clock) }) : "",
      ]),
      h("div", { class: "open-table-take" }, [input, button]),
    ]);
  }

  async function refresh() {
    /** @type {{tables: OpenTable[]}} */
    const { tables } = await api("/api/tables");
    clear(box).append(h("h2", { id: "open-tables-title", text: t("lobby.openTables") }));
    if (!tables.length) {
      box.append(h("p", { class: "muted", text: t("lobby.noOpen") }));
      return;
    }
    box.append(h("ul", { class: "open-list" }, tables.map(row)));
  }

  return { element: box, refresh };
}
