// @ts-check
// Learn to play (#/learn/<game>[/<chapter>]): a game's tutorial, played on the real engine.
//
// The tutorial is the game's data (polis/games/<game>/tutorial.py, served by GET
// /api/learn/<game>): chapters of steps, each a text of the game's catalogue and, unless it
// only explains, the move the learner makes. The position comes from the server (POST
// /api/learn/<game>/<chapter> with the learner's moves so far: the scripted start, their
// moves and the scripted replies, replayed on the engine); it is shaped like a table's state
// message, so the game's own client draws the board, and the learner plays on the table's
// prompt bar (promptbar.js: what to do now and its buttons, from the client's prompt()). The
// step's move is marked as a hint is (ctx.hint), the step's `mark` selectors are outlined, and
// a move the step does not ask for is refused here, with its rule in words.
import { h, clear } from "./dom.js";
import { t, translator, language } from "./i18n.js";
import { api } from "./ui.js";
import { markerHtml, markerSvg } from "./players.js";
import { hideTip } from "./tooltip.js";
import { promptBar } from "./promptbar.js";

/** @typedef {import("./sdk.js").TableContext} TableContext */
/** @typedef {import("./sdk.js").GameEvent} GameEvent */
/**
 * A step of a chapter (GET /api/learn/<game>): its words and, where the learner moves, the
 * move it asks for, the moves it accepts, the words refusing another; what it outlines.
 * @typedef {{text: string, move?: string, accept?: string[], refuse?: string, mark?: string[]}} Step
 */
/** @typedef {{id: string, title: string, mode: string, players: number, steps: Step[]}} Chapter */
/** @typedef {{game: string, chapters: Chapter[]}} Script */
/**
 * The position reached (POST /api/learn/<game>/<chapter>), as a table's state message has it.
 * @typedef {object} Position
 * @property {number} seat  the learner's
 * @property {number} players
 * @property {number} position
 * @property {boolean} finished
 * @property {any} view
 * @property {any} choices
 * @property {any} result
 * @property {GameEvent[]} log
 * @property {{move: string, choice: any} | null} hint  the step's move, as `choices` holds it
 */
/** @typedef {{render: () => void, destroy: () => void}} Page */
/**
 * What app.js hands the page.
 * @typedef {object} LearnEnv
 * @property {HTMLElement} root
 * @property {string} game
 * @property {string} chapter  a chapter's id ("": the first)
 * @property {Record<string, any>} clients  the games' client modules
 * @property {string[]} names  the games with a client
 * @property {(name: string) => string} gameTitle
 */

// Which input the learner used last: focus follows a choice made by keyboard, not by pointer.
let keyboard = false;
document.addEventListener("keydown", (e) => {
  if (e.key === "Tab" || e.key === "Enter" || e.key === " " || e.key.startsWith("Arrow"))
    keyboard = true;
});
document.addEventListener("pointerdown", () => (keyboard = false), true);

const RETURN = "polis-learn-return"; // sessionStorage: the table the learner came from

/**
 * The link to a game's tutorial, for a table's Rules dialog (the table is kept to go back to).
 * @param {string} game
 */
export function learnLink(game) {
  return h("p", { class: "learn-link" }, [
    h("a", {
      href: `#/learn/${encodeURIComponent(game)}`,
      id: "learn-link",
      class: "button",
      text: t("learn.title"),
      on: { click: () => sessionStorage.setItem(RETURN, location.hash) },
    }),
  ]);
}

/**
 * The tutorial's page.
 * @param {LearnEnv} env
 * @returns {Page}
 */
export function learnPage(env) {
  const { root, game, clients } = env;
  const mod = clients[game];
  if (!mod) return pickPage(env);
  const tg = translator(game);
  /**
   * @type {{script: Script | null, board: any, chapter: number, step: number, moves: string[],
   *   msg: Position | null, selection: Record<string, any>,
   *   feedback: {kind: "done" | "refused", text: string} | null, busy: boolean,
   *   error: string | null, focusNext: string | null, destroyed: boolean}}
   */
  const ui = {
    script: null,
    board: null,
    chapter: 0,
    step: 0,
    moves: [],
    msg: null,
    selection: {},
    feedback: null,
    busy: false,
    error: null,
    focusNext: null,
    destroyed: false,
  };

  // (both known once loaded: nothing is drawn or played before)
  const script = () => /** @type {Script} */ (ui.script);
  const position = () => /** @type {Position} */ (ui.msg);
  /** @returns {Chapter} */
  const chapter = () => script().chapters[ui.chapter];
  /** @returns {Step | undefined} past the last step: the tutorial is over */
  const step = () => chapter().steps[ui.step];
  /** @param {unknown} err */
  const message = (err) => (err instanceof Error ? err.message : String(err));

  async function load() {
    try {
      [ui.script, ui.board] = await Promise.all([
        api(`/api/learn/${encodeURIComponent(game)}`),
        api(`/api/boards/${encodeURIComponent(game)}`),
      ]);
      const wanted = script().chapters.findIndex((c) => c.id === env.chapter);
      await openChapter(Math.max(0, wanted), false);
    } catch (err) {
      ui.error = message(err);
      draw();
    }
  }

  /** @param {number} index @param {boolean} [focus] */
  async function openChapter(index, focus = true) {
    ui.chapter = index;
    ui.step = 0;
    ui.moves = [];
    ui.selection = {};
    ui.feedback = null;
    const target = `#/learn/${encodeURIComponent(game)}/${encodeURIComponent(chapter().id)}`;
    if (location.hash !== target) history.replaceState(null, "", target);
    await fetchPosition([]);
    ui.focusNext = focus ? "#learn-text" : null;
    draw();
  }

  /** @param {string[]} moves */
  async function fetchPosition(moves) {
    ui.busy = true;
    try {
      ui.msg = await api(
        `/api/learn/${encodeURIComponent(game)}/${encodeURIComponent(chapter().id)}`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ moves }),
        },
      );
      ui.moves = moves;
      ui.error = null;
      return true;
    } catch (err) {
      ui.error = message(err);
      return false;
    } finally {
      ui.busy = false;
    }
  }

  // A move chosen on the board: the step's move (or one it accepts) is played, any other is
  // refused with the rule it breaks.
  /** @param {string} text */
  async function move(text) {
    const current = step();
    if (ui.busy || !current?.move) return;
    ui.selection = {};
    if (!current.accept?.includes(text)) {
      ui.feedback = { kind: "refused", text: tg(current.refuse ?? "") };
      ui.focusNext = "#learn-feedback";
      draw();
      return;
    }
    if (await fetchPosition([...ui.moves, text])) {
      ui.step += 1;
      ui.feedback = { kind: "done", text: t("learn.done") };
      ui.focusNext = "#learn-text";
    }
    draw();
  }

  function next() {
    if (ui.step < chapter().steps.length - 1) {
      ui.step += 1;
      ui.feedback = null;
      ui.focusNext = "#learn-text";
      draw();
    } else if (ui.chapter < script().chapters.length - 1) {
      openChapter(ui.chapter + 1);
    } else {
      ui.step = chapter().steps.length; // the end of the tutorial
      ui.feedback = null;
      ui.focusNext = "#learn-text";
      draw();
    }
  }

  /** @param {Position} msg */
  function names(msg) {
    return Array.from({ length: msg.players }, (_, i) =>
      t(i === msg.seat ? "learn.you" : "learn.rival", { n: i + 1 }),
    );
  }

  /** @returns {TableContext & {conn: null, msg: any}} */
  function context() {
    const msg = position();
    const moving = !!step()?.move && !msg.finished;
    const colours = mod.PLAYER_COLOURS;
    const seatNames = names(msg);
    const seats = seatNames.map((name, i) => ({
      name,
      kind: i === msg.seat ? "human" : "bot",
      level: "easy",
      connected: true,
    }));
    const lastMove = msg.position > 0 ? msg.position - 1 : null;
    const full = { ...msg, seats, rules: {}, authors: [] };
    return {
      conn: null,
      view: msg.view,
      msg: full,
      board: ui.board,
      colours,
      names: seatNames,
      seat: msg.seat,
      heldSeats: [msg.seat],
      myTurn: moving,
      choices: moving ? msg.choices : null,
      selection: ui.selection,
      hint: moving ? msg.hint : null,
      log: msg.log,
      position: msg.position,
      lastMove,
      lastEvents: msg.log.filter((e) => e.move === lastMove && lastMove !== null),
      result: msg.result,
      finished: msg.finished,
      replaying: false,
      pending: null,
      lang: language(),
      size: { w: dom.board.clientWidth || innerWidth, h: innerHeight },
      marker: (seat, x, y, r, attrs) => markerSvg(seat, x, y, r, colours[seat], attrs ?? {}),
      markerHtml: (seat) => markerHtml(seat, colours[seat]),
      seatHead: (seat) => [
        markerHtml(seat, colours[seat]),
        h("span", { class: "seat-head-name", text: seatNames[seat] }),
      ],
      select: (sel, focus) => {
        ui.selection = sel;
        ui.focusNext = focus ?? null;
        draw();
      },
      move: (text) => move(text),
    };
  }

  const parts = {
    head: h("div", { class: "table-head learn-head" }),
    // the step: beside the board on a wide screen, above it on a narrow one (style.css)
    panel: h("div", { class: "learn-slot", id: "learn-slot" }),
    board: h("section", { id: "board", class: `board ${game}` }),
    // the game's notes on the move, atop the side column (the prompt and its buttons are in
    // the bar)
    notes: h("div", { id: "move-notes", class: "box move-notes", hidden: true }),
    end: h("div", { id: "end-slot" }),
    side: h("aside", { class: "side" }),
  };
  // the prompt bar: in the column beside the board under the step; on a phone under the
  // board, stuck to the screen's foot as the step's buttons were (style.css)
  const bar = promptBar();
  const dom = {
    ...parts,
    table: h("div", { class: "table learn", id: "learn" }, [
      parts.head,
      parts.panel,
      parts.end,
      parts.board,
      h("div", { class: "actions" }, bar.element),
      parts.side,
    ]),
  };

  function chapterNav() {
    return h(
      "nav",
      { class: "learn-chapters", "aria-label": t("learn.chapters") },
      h(
        "ol",
        {},
        script().chapters.map((c, i) =>
          h("li", {}, [
            h("button", {
              class: `learn-chapter${i === ui.chapter ? " current" : ""}`,
              dataset: { chapter: c.id },
              "aria-current": i === ui.chapter ? "step" : null,
              text: tg(c.title),
              on: { click: () => openChapter(i) },
            }),
          ]),
        ),
      ),
    );
  }

  /** @param {string} text */
  function paragraphs(text) {
    return text.split("\n").map((line) => h("p", { text: line }));
  }

  function panel() {
    const steps = chapter().steps;
    const over = ui.step >= steps.length;
    const current = over ? null : step();
    const box = h("section", {
      class: "box learn-panel",
      id: "learn-panel",
      "aria-labelledby": "learn-step",
    });
    box.append(
      h("p", {
        class: "muted learn-progress",
        id: "learn-step",
        text: over
          ? t("learn.finished", { game: env.gameTitle(game) })
          : `${tg(chapter().title)} · ${t("learn.step", { n: ui.step + 1, total: steps.length })}`,
      }),
    );
    if (ui.feedback)
      box.append(
        h("p", {
          class: `learn-feedback ${ui.feedback.kind}`,
          id: "learn-feedback",
          role: ui.feedback.kind === "refused" ? "alert" : "status",
          tabindex: "-1",
          text: ui.feedback.text,
        }),
      );
    const text = h("div", {
      class: "learn-text",
      id: "learn-text",
      tabindex: "-1",
      "aria-live": "polite",
    });
    if (!current) {
      text.append(...paragraphs(t("learn.finishedText")));
    } else {
      text.append(...paragraphs(tg(current.text)));
      if (current.move && !position().finished)
        text.append(h("p", { class: "learn-task", text: tg("tutorial.task") }));
    }
    box.append(text);
    const row = h("div", { class: "row learn-buttons" });
    if (!current) {
      row.append(
        h("a", { class: "button primary", href: "#/", id: "learn-play", text: t("learn.play") }),
      );
    } else if (!current.move || position().finished) {
      const last = ui.step === steps.length - 1;
      const following = script().chapters[ui.chapter + 1];
      row.append(
        h("button", {
          class: "primary",
          id: "learn-next",
          disabled: ui.busy,
          text:
            last && following
              ? t("learn.nextChapter", { chapter: tg(following.title) })
              : last
                ? t("learn.finish")
                : t("learn.next"),
          on: { click: next },
        }),
      );
    }
    row.append(
      h("button", {
        id: "learn-restart",
        text: t("learn.restart"),
        on: { click: () => openChapter(ui.chapter) },
      }),
    );
    box.append(row);
    return box;
  }

  /** @param {TableContext} ctx */
  function logBox(ctx) {
    const list = h("ol", {
      id: "log",
      class: "log",
      tabindex: "0",
      "aria-labelledby": "log-title",
    });
    for (const event of ctx.log)
      list.append(
        h(
          "li",
          { class: mod.eventKind?.(event) ?? "", dataset: { move: event.move ?? "setup" } },
          mod.describe(event, ctx, tg),
        ),
      );
    requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
    return h("section", { class: "box", id: "log-box" }, [
      h("h3", { id: "log-title", text: t("log.title") }),
      list,
    ]);
  }

  function draw() {
    if (ui.destroyed) return;
    if (!root.contains(dom.table)) clear(root).append(dom.table);
    const back = sessionStorage.getItem(RETURN);
    const links = h("div", { class: "row learn-links" }, [
      back ? h("a", { href: back, id: "learn-back-table", text: t("learn.backTable") }) : null,
      h("a", { href: "#/", id: "learn-lobby", text: t("app.back") }),
    ]);
    clear(dom.head).append(
      h("div", { class: "title-line" }, [
        h("h2", { id: "title", text: t("learn.titleGame", { game: env.gameTitle(game) }) }),
        ui.msg
          ? h("span", { class: "muted", id: "progress", text: mod.progress(ui.msg.view, tg) })
          : null,
      ]),
      links,
    );
    document.title = `${t("learn.title")} · ${env.gameTitle(game)}`;
    if (ui.error) dom.head.append(h("p", { class: "error", role: "alert", text: ui.error }));
    if (!ui.script || !ui.msg) return clear(dom.panel);
    dom.head.append(chapterNav());
    clear(dom.panel).append(panel());
    const ctx = context();
    hideTip();
    dom.board.setAttribute("aria-label", t("table.board"));
    clear(dom.board).append(mod.render(ctx, tg));
    drawBar(ctx);
    const info = mod.info ? [mod.info(ctx, tg)].flat().filter(Boolean) : [];
    clear(dom.side).append(
      dom.notes,
      ...(info.length
        ? [h("section", { id: "info", class: "box info", "aria-label": t("table.info") }, info)]
        : []),
      logBox(ctx),
    );
    dom.table.classList.toggle("ended", !!ctx.finished);
    clear(dom.end);
    if (ctx.finished && ctx.result)
      dom.end.append(h("section", { class: "box end learn-end" }, mod.scorePad(ctx, tg)));
    const current = step();
    for (const selector of current?.mark ?? [])
      for (const el of dom.table.querySelectorAll(selector)) el.classList.add("learn-mark");
    restoreFocus();
  }

  // The bar: "Your turn" and the step of the move while the learner moves, "The game is over"
  // at the end, else nothing (the tutorial's step says what to read); the game's notes atop the
  // side column (a client without prompt() puts all in the bar).
  /** @param {TableContext} ctx */
  function drawBar(ctx) {
    const status = ctx.myTurn ? t("status.yourTurn") : ctx.finished ? t("status.over") : "";
    /** @type {{step: string | null, note?: Node | null, actions: Node[]}} */
    const step = mod.prompt
      ? (ctx.choices && mod.prompt(ctx, tg)) || { step: null, actions: [] }
      : { step: null, actions: [mod.controls(ctx, tg)].flat().filter(Boolean) };
    bar.setStatus({ text: status, mine: ctx.myTurn, clock: null });
    bar.setStep({
      step: step.step,
      note: step.note,
      actions: step.actions,
      label: ctx.myTurn ? t("table.yourMove") : t("table.info"),
    });
    bar.element.hidden = !status && !step.step && !step.actions.length;
    /** @type {Node[]} */
    const notes = mod.prompt ? [mod.notes?.(ctx, tg) ?? []].flat().filter(Boolean) : [];
    clear(dom.notes).append(...notes);
    dom.notes.hidden = !notes.length;
    dom.notes.setAttribute("aria-label", t("table.info"));
  }

  // After a redraw: focus where the keyboard learner goes next (the step's text after a step,
  // the piece to choose now during a move).
  function restoreFocus() {
    const wanted = ui.focusNext;
    ui.focusNext = null;
    if (!wanted) return;
    const el = /** @type {HTMLElement | SVGElement | null} */ (document.querySelector(wanted));
    // the step's words are brought into view for every learner (on a phone they lie above
    // the board); a piece on the board is focused for a keyboard learner only
    if (!el || (!keyboard && !wanted.startsWith("#learn"))) return;
    if (el.matches("svg *")) {
      for (const other of el.closest("svg")?.querySelectorAll('[tabindex="0"]') ?? [])
        other.setAttribute("tabindex", "-1");
      el.setAttribute("tabindex", "0");
    }
    el.focus();
  }

  draw();
  load();
  return {
    render: draw,
    destroy() {
      ui.destroyed = true;
      bar.destroy();
      sessionStorage.removeItem(RETURN);
    },
  };
}

/**
 * #/learn without a game (or a game without a client): the games that have a tutorial.
 * @param {LearnEnv} env
 * @returns {Page}
 */
function pickPage(env) {
  const { root, names, gameTitle } = env;
  function draw() {
    clear(root).append(
      h("section", { class: "panel learn-pick", id: "learn-pick" }, [
        h("h2", { text: t("learn.title") }),
        h(
          "ul",
          {},
          names.map((name) =>
            h(
              "li",
              {},
              h("a", {
                href: `#/learn/${encodeURIComponent(name)}`,
                class: "button",
                text: t("learn.titleGame", { game: gameTitle(name) }),
              }),
            ),
          ),
        ),
        h("a", { href: "#/", text: t("app.back") }),
      ]),
    );
  }
  draw();
  return { render: draw, destroy() {} };
}
