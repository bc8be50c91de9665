// @ts-check
// #/challenge/{name}: challenge a named player to a table (game, mode, how many players, rated
// or not, the clock). The challenged player accepts or declines from their "My games"; a table
// with more than two players keeps its other seats open for anyone signed in.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { send, toast } from "./ui.js";
import { me } from "./session.js";
import { field, errorLine, showError, clearError, signInFirst, pageTitle } from "./forms.js";
import { CLOCKS } from "./seatclock.js";

/**
 * The challenge as chosen so far: whom, the game, its mode ("": the game's first), how many
 * play, rated or not, and the key of one of the lobby's clocks (seatclock.js's CLOCKS).
 * @typedef {{
 *   to: string,
 *   game: string,
 *   mode: string,
 *   players: number,
 *   rated: boolean,
 *   clock: string,
 * }} ChallengeForm
 */

/**
 * @param {import("./forms.js").PageEnv} env `to`: the address's name, or ""
 * @returns {import("./forms.js").Page}
 */
export function challengePage(env) {
  const { root, meta, names, gameTitle, modeName } = env;
  /** @type {ChallengeForm} */
  const form = {
    to: env.to ?? "",
    game: names[0],
    mode: "",
    players: 2,
    rated: true,
    clock: "none",
  };

  function draw() {
    pageTitle(t("challenge.title"));
    if (!me()) {
      signInFirst(root, t("challenge.title"), t("challenge.needed"));
      return;
    }
    const g = meta.games[form.game];
    if (!g.modes.includes(form.mode)) form.mode = g.modes[0];
    form.players = Math.min(Math.max(form.players, g.min_players), g.max_players);
    const error = errorLine("challenge-error");
    const gameSel = h(
      "select",
      {
        id: "challenge-game",
        on: {
          change: (e) => {
            form.game = e.target.value;
            redraw();
          },
        },
      },
      names.map((n) => h("option", { value: n, selected: n === form.game, text: gameTitle(n) })),
    );
    const modeSel = h(
      "select",
      { id: "challenge-mode", on: { change: (e) => (form.mode = e.target.value) } },
      g.modes.map((m) =>
        h("option", { value: m, selected: m === form.mode, text: modeName(form.game, m) }),
      ),
    );
    /** @type {number[]} */
    const counts = [];
    for (let n = Math.max(2, g.min_players); n <= g.max_players; n++) counts.push(n);
    const countSel = h(
      "select",
      {
        id: "challenge-players",
        on: {
          change: (e) => {
            form.players = +e.target.value;
            redraw();
          },
        },
      },
      counts.map((n) => h("option", { value: n, selected: n === form.players, text: String(n) })),
    );
    const clockSel = h(
      "select",
      { id: "challenge-clock", on: { change: (e) => (form.clock = e.target.value) } },
      CLOCKS.map((c) =>
        h("option", {
          value: c.key,
          selected: c.key === form.clock,
          text: t(`lobby.clock.${c.key}`),
        }),
      ),
    );
    const submit = h("button", {
      id: "challenge-submit",
      type: "submit",
      class: "primary",
      text: t("challenge.send"),
    });
    const el = h(
      "form",
      {
        id: "challenge-form",
        class: "panel account-form wide",
        "aria-labelledby": "challenge-title",
        novalidate: true,
        on: {
          submit: async (e) => {
            e.preventDefault();
            const input = /** @type {HTMLInputElement} */ (el.querySelector("#challenge-to"));
            const to = input.value.trim();
            if (!to) return showError(error, t("challenge.needName"));
            if (to.toLocaleLowerCase() === (me() ?? "").toLocaleLowerCase())
              return showError(error, t("challenge.notYourself"));
            clearError(error);
            submit.disabled = true;
            try {
              await send("/api/challenges", {
                to,
                game: form.game,
                mode: form.mode,
                players: form.players,
                rated: form.rated,
                clock: CLOCKS.find((c) => c.key === form.clock)?.clock ?? null,
              });
              toast(t("challenge.sent", { name: to }), "info");
              location.hash = "#/my";
            } catch (err) {
              showError(error, err, {
                not_found: t("challenge.noSuchPlayer", { name: to }),
                forbidden: t("challenge.refused", { name: to }),
              });
              submit.disabled = false;
            }
          },
        },
      },
      [
        h("h1", { id: "challenge-title", class: "page-title", text: t("challenge.title") }),
        h("p", { class: "hint", text: t("challenge.intro") }),
        field({
          id: "challenge-to",
          label: t("challenge.who"),
          value: form.to,
          maxlength: 40,
          autocomplete: "off",
          required: true,
          on: { input: (e) => (form.to = e.target.value) },
        }),
        h("div", { class: "row" }, [
          h("label", {}, [t("lobby.game"), " ", gameSel]),
          h("label", {}, [t("lobby.mode"), " ", modeSel]),
          h("label", {}, [t("lobby.players"), " ", countSel]),
        ]),
        form.players > 2
          ? h("p", {
              class: "hint",
              id: "challenge-open-seats",
              text: t("challenge.openSeats", { n: form.players - 2 }),
            })
          : "",
        h("div", { class: "row" }, h("label", {}, [t("lobby.clock"), " ", clockSel])),
        h(
          "div",
          { class: "row" },
          h("label", { class: "inline check" }, [
            h("input", {
              type: "checkbox",
              id: "challenge-rated",
              checked: form.rated,
              on: {
                change: (e) => {
                  form.rated = e.target.checked;
                  redraw();
                },
              },
            }),
            t("rated.label"),
          ]),
        ),
        h("p", {
          class: "hint",
          id: "challenge-rated-hint",
          text: form.rated ? t("rated.why") : t("rated.unrated"),
        }),
        error,
        h("div", { class: "row" }, [
          submit,
          h("a", { class: "button", href: "#/my", text: t("ui.cancel") }),
        ]),
      ],
    );
    clear(root).append(el);
  }

  function redraw() {
    const had = document.activeElement?.id;
    draw();
    if (had) document.getElementById(had)?.focus();
  }

  draw();
  return { render: redraw, destroy() {}, session: draw };
}
