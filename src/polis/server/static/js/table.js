// @ts-check
// The table: one WebSocket per seat this browser holds (or one to watch), and a screen drawn
// in parts (heading, seats, board, action bar, end, log) that are each redrawn only when what
// they show has changed: a player coming online redraws the seat list, never the board under
// a finger. The game's client module draws the board and the action bar (see app.js).
//
// This module is the composition: it owns the state (the server's messages, the page's own),
// derives each component's props from it and calls its render; each component (table/*.js)
// draws again only when its props changed (table/changed.js).
import { h, clear } from "./dom.js";
import { t, translator, language } from "./i18n.js";
import { SeatConnection } from "./conn.js";
import { markerHtml, markerSvg } from "./players.js";
import { heldTokens, holdToken } from "./tokens.js";
import { api, toast } from "./ui.js";
import { announce, setTitle, yourTurn } from "./notify.js";
import { prefs, onPrefs } from "./settings.js";
import { messagePage } from "./pages.js";
import { promptBar } from "./promptbar.js";
import { motionStage } from "./motion.js";
import { serverTime, tick, standInRuns, tickAway, byBot } from "./seatclock.js";
import { chatPanel } from "./chat.js";
import { pushBox } from "./turnpush.js";
import { me, onSession, errorLine } from "./session.js";
import { learnLink } from "./learn.js";
import { seatsStrip, seatsProps, seatNames } from "./table/seats.js";
import { titleLine, titleProps } from "./table/titlebar.js";
import { claimBanner, looseSeats } from "./table/claim.js";
import { linksBox } from "./table/links.js";
import { takeBackPanel } from "./table/takebackpanel.js";
import { hintPanel } from "./table/hintpanel.js";
import { component } from "./table/changed.js";
import { bannersStrip, bannersProps } from "./table/banners.js";
import { statusLine, statusProps, statusText, stepProps, drawStep } from "./table/status.js";
import { coverProps } from "./table/handover.js";
import { boardHost, boardProps } from "./table/board.js";
import { logPanel, logProps } from "./table/log.js";
import { endHost, endProps } from "./table/end.js";

// Which input the player used last: focus follows a move made by keyboard, not by pointer.
let keyboard = false;
document.addEventListener(
  "keydown",
  (e) => {
    if (
      [
        "Tab",
        "Enter",
        " ",
        "ArrowLeft",
        "ArrowRight",
        "ArrowUp",
        "ArrowDown",
        "Home",
        "End",
      ].includes(e.key)
    )
      keyboard = true;
  },
  true,
);
document.addEventListener("pointerdown", () => (keyboard = false), true);

/** @typedef {import("./sdk.js").TableContext} TableContext */
/** @typedef {import("./sdk.js").GameEvent} GameEvent */
/** @typedef {import("./seatclock.js").Seat} Seat */
/**
 * A state message (wire/to_client: the seat's view, the seats, the log, the clock...).
 * @typedef {{type: string, seats: Seat[], log: GameEvent[], [field: string]: any}} StateMessage
 */

/**
 * What app.js hands the table: where to draw, the game's client module, the game's summary
 * and board data, its words for titles, and `at`: a replay position to open once finished.
 * @typedef {{root: HTMLElement, mod: any, game?: string, summary: any, board: any,
 *   gameTitle: (name: string) => string, modeName: (name: string, mode: string) => string,
 *   reroute?: () => void, at?: number | null}} TableEnv
 */

/**
 * The table's local state, kept between the server's messages.
 * @typedef {{
 *   selection: Record<string, any>,
 *   replay: any,
 *   lastError: string | null,
 *   pending: {text: string, label: string} | null,
 *   focusNext: string | null,
 *   revealed: number | null,
 *   drawn: {position?: number},
 *   announcedPosition: number | null,
 *   wasMyTurn: boolean,
 *   refused: boolean,
 *   takeBack: {confirming: number | null},
 *   hint: {answers: Record<string, any>, asking: string | null},
 *   awaySince: Record<number, number>,
 *   why: Record<number, string>,
 *   seenWhileAway: Record<number, number>,
 *   liveNotes: LiveNote[],
 *   standIn: Record<number, string | null>,
 *   sentAt?: number | null,
 *   movedAt?: number,
 *   waitedEnough?: boolean,
 *   openedAt?: boolean,
 *   destroyed?: boolean,
 *   saidLang?: string,
 * }} TableUi
 */

/** @typedef {import("./table/log.js").LiveNote} LiveNote */

/** @typedef {SeatConnection & {state: StateMessage}} Live  a connection that has its state */
/** @typedef {TableContext & {conn: Live, msg: StateMessage}} Ctx  the context, and the message shown */

/**
 * @param {string} gameId
 * @param {TableEnv} env
 */
export function tableScreen(gameId, env) {
  const { root, mod, summary, board } = env;
  const tg = translator(summary.game);
  /** @type {SeatConnection[]} */
  const conns = [];
  /** @type {TableUi} */
  const ui = {
    selection: {},
    replay: null,
    lastError: null,
    pending: null,
    focusNext: null,
    revealed: null,
    drawn: {},
    announcedPosition: null,
    wasMyTurn: false,
    refused: false,
    takeBack: { confirming: null },
    hint: { answers: {}, asking: null },
    // stand-ins: since when (this device's ms) each person has been seen away, why a bot stood
    // in for each seat (as last told), the bot moves a person has said they saw
    awaySince: {},
    why: {},
    seenWhileAway: {},
    // the log's notes of changes of hands this page saw happen ({at: the log's length then,
    // note}), and each person's seat's stand-in as last seen (null: played by its person)
    liveNotes: [],
    standIn: {},
  };
  /** @type {Record<string, HTMLElement>} */
  const dom = {
    title: h("h2", { id: "title" }),
    progress: h("span", { class: "muted", id: "progress" }),
    tools: h("div", { class: "tools" }),
    seats: h("ul", { class: "seat-list", id: "seats", "aria-label": t("seat.list") }),
    banners: h("div", { id: "banners" }),
    takeBack: h("div", { id: "takeback-slot" }),
    claim: h("div", { id: "claim-slot" }),
    hint: h("div", { id: "hint-slot" }),
    board: h("section", { id: "board", class: `board ${summary.game}` }),
    // the game's notes on the move beside the board (the prompt and its buttons are in the bar)
    notes: h("div", { id: "move-notes", class: "box move-notes", hidden: true }),
    side: h("aside", { class: "side" }),
    end: h("div", { id: "end-slot" }),
    links: h("div", { id: "links-slot" }),
    info: h("section", { id: "info", class: "box info", hidden: true }),
    logBox: h("section", { class: "box", id: "log-box" }),
    log: h("ol", { id: "log", class: "log", tabindex: "0" }),
  };
  // the prompt bar: the status, what to do now and its buttons, at the top (promptbar.js)
  const bar = promptBar();
  const seatsPart = seatsStrip(dom.seats);
  dom.status = bar.status;
  dom.controls = bar.actions;
  // a line for the chat goes through a held seat's connection (spectators only read, if allowed)
  /**
   * @param {string} text
   */
  function chatSend(text) {
    const shown = display();
    const conn =
      shown && shown.state.seat !== null
        ? shown
        : conns.find((c) => c.state && c.state.seat !== null);
    return conn ? conn.send({ type: "chat", text }) : false;
  }
  // the account a seat is bound to (null: a guest's or a bot's), for the chat's Mute and Report
  const accountOf = (/** @type {number} */ seat) => display()?.state.seats[seat]?.account ?? null;
  const chat = chatPanel({
    send: chatSend,
    marker: (/** @type {number} */ seat) => markerHtml(seat, mod.PLAYER_COLOURS[seat]),
    accountOf,
    gameId,
  });
  /** @returns {string[]} */
  const heldSeatTokens = () => [
    ...new Set(
      conns
        .filter((c) => c.state && c.state.seat !== null && c.token)
        .map((c) => /** @type {string} */ (c.token)),
    ),
  ];
  const pushShown = () =>
    !!display() && !display()?.state.finished && display()?.state.clock?.kind !== "realtime";
  const push = pushBox({ gameId, tokens: heldSeatTokens, shown: pushShown });
  dom.side.append(dom.info, dom.logBox, chat.element, push.element, dom.links);
  // the components: each draws again only when its props changed; forget() draws all anew
  const titlePart = titleLine(
    { title: dom.title, progress: dom.progress, tools: dom.tools },
    {
      rules: () => {
        const ctx = context();
        if (ctx)
          openDialog("rules", t("table.rules"), [mod.rules(ctx, tg), learnLink(summary.game)]);
      },
      legend: () => {
        const ctx = context();
        if (ctx) openDialog("legend", t("table.legend"), mod.legend(ctx, tg));
      },
      resign: (seats) => resign(seats),
    },
  );
  const claimPart = claimBanner(dom.claim, errorLine);
  const linksPart = linksBox(dom.links);
  const takeBackPart = takeBackPanel(dom.takeBack, {
    conns,
    redraw: ({ confirming, focus }) => {
      ui.takeBack.confirming = confirming;
      ui.focusNext = focus ?? null;
      update();
    },
  });
  const hintPart = hintPanel(dom.hint, {
    gameId,
    conn: () => display(),
    ui: ui.hint,
    redraw: (focus) => {
      ui.focusNext = focus ?? null;
      hintPart.reset();
      update();
    },
  });
  const pushPart = component(() => push.render());
  const bannersPart = bannersStrip(dom.banners, {
    reclaim,
    seen: (seat, move) => {
      ui.seenWhileAway[seat] = move;
      ui.focusNext = "#status";
      drawBanners();
      restoreFocus(null);
    },
  });
  const statusPart = statusLine(bar);
  const logPart = logPanel({ box: dom.logBox, list: dom.log }, { mod, tg });
  // the end of the game (winner, score pad, replay, rematch) spans the table's width under its
  // head: a 4-player score pad needs more room than the side column has
  dom.table = h("div", { class: "table", id: "table" }, [
    h("div", { class: "table-head" }, [
      // the tools and the chat's button wrap as one group (style.css)
      h("div", { class: "title-line" }, [
        dom.title,
        dom.progress,
        h("div", { class: "title-tools" }, [dom.tools, chat.jump]),
      ]),
    ]),
    bar.element,
    h("div", { class: "table-sub" }, [dom.seats, dom.banners, dom.claim, dom.takeBack, dom.hint]),
    dom.end,
    dom.board,
    h("div", { class: "actions" }, dom.notes),
    dom.side,
  ]);
  clear(root).append(dom.table);
  // moves that move: what a new position moved slides from where it was (motion.js)
  const motion = motionStage(dom.table);
  /** @type {import("./table/changed.js").Component<import("./table/board.js").BoardProps, [Ctx]>} */
  const boardPart = boardHost(
    { board: dom.board, notes: dom.notes, info: dom.info },
    {
      mod,
      tg,
      motion,
      step: drawPrompt,
      reveal: (seat) => {
        ui.revealed = seat;
        ui.focusNext = "#controls button, #board [tabindex='0']";
        forget();
        update();
      },
    },
  );
  /** @type {import("./table/changed.js").Component<import("./table/end.js").EndProps, [Ctx]>} */
  const endPart = endHost(
    { end: dom.end, table: dom.table },
    {
      gameId,
      mod,
      tg,
      replay: () => ui.replay,
      goto,
      leaveReplay,
      rematch: (tokens) => rematch(tokens),
    },
  );
  const parts = [
    seatsPart,
    titlePart,
    bannersPart,
    statusPart,
    claimPart,
    linksPart,
    takeBackPart,
    hintPart,
    pushPart,
    boardPart,
    endPart,
  ];
  function forget() {
    ui.drawn = {};
    for (const part of parts) part.reset();
  }

  // -- connections ---------------------------------------------------------------------------
  // Who is away, and changes of hands: a bot standing in for a person, or the person back, is
  // a note of the log where this page saw it (where it first sees a table, a change its moves
  // do not show yet: a bot standing in that has not moved, a person back who has not).
  /**
   * @param {SeatConnection} conn
   * @param {Seat[]} seats
   */
  function noteSeats(conn, seats) {
    const now = Date.now();
    const state = conn.state;
    let runs = null;
    seats.forEach((s, i) => {
      if (s.stand_in) ui.why[i] = s.stand_in_why || "left";
      if (s.kind === "human" && !s.vacant && !s.connected && !s.stand_in) ui.awaySince[i] ??= now;
      else delete ui.awaySince[i];
      if (s.kind !== "human" || !state) return;
      const was = ui.standIn[i],
        is = s.stand_in ?? null;
      ui.standIn[i] = is;
      let changed = was !== undefined && (was === null) !== (is === null);
      if (was === undefined) {
        runs ??= standInRuns(state.log, state.authors ?? [], seats);
        changed = (is !== null) !== byBot(runs.last[i]);
      }
      if (!changed || state.finished) return;
      /** @type {import("./seatclock.js").StandInNote} */
      const note = is
        ? { kind: "standIn", seat: i, level: is, prev: undefined }
        : { kind: "back", seat: i, prev: undefined };
      ui.liveNotes.push({ at: state.log.length, note, why: is ? ui.why[i] : null });
    });
  }

  /**
   * @param {SeatConnection} conn
   * @param {import("./conn.js").ServerMessage} msg
   */
  function onMessage(conn, msg) {
    if (msg.type === "state" || msg.type === "seats") noteSeats(conn, msg.seats);
    if (msg.type === "state") {
      if (msg.position !== ui.drawn.position) {
        ui.selection = {};
        ui.pending = null;
        ui.lastError = null;
        ui.sentAt = null;
      }
      update();
    } else if (msg.type === "welcome") {
      serverTime(msg.now); // the clocks count down in the server's time
      conn.storeDown = false; // a socket that joins while the store is down is told so next
      if (conn.token && msg.seat !== null && msg.seat !== undefined)
        holdToken(gameId, msg.seat, conn.token);
      chat.welcome(msg.chat);
    } else if (msg.type === "store") {
      conn.storeDown = msg.status === "unavailable"; // the server's store went away, or is back
      drawBanners();
    } else if (msg.type === "chat") {
      chat.line(/** @type {any} */ (msg)); // (a chat message is a line with its type)
    } else if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
      chat.refused(/** @type {any} */ (msg)); // said in the chat panel; the board is left as it is
    } else if (msg.type === "seats") {
      if (conn.state) conn.state.seats = msg.seats;
      drawSeats();
      const ctx = context();
      if (ctx) {
        drawClaim(ctx);
        drawBanners(); // someone away on their turn, or back
        drawLog(ctx, !!cover(ctx));
      }
      chat.people();
    } else if (msg.type === "error") {
      if (!conn.state) return; // a refused hello: see refused()
      ui.lastError = msg.message;
      toast(`${t("error.prefix")}: ${msg.message}`);
      ui.sentAt = null;
      ui.selection = {};
      ui.pending = null;
      boardPart.reset();
      update();
    } else if (msg.type === "rematch") {
      for (const c of conns) if (c.state) c.state.rematch_id = msg.game_id;
      update();
    } else if (msg.type === "takeback_done" || msg.type === "takeback_declined") {
      const shown = display()?.state;
      const who = shown ? names(shown)[msg.type === "takeback_done" ? msg.seat : msg.by] : "";
      toast(
        t(msg.type === "takeback_done" ? "takeback.done" : "takeback.declined", {
          name: who ?? "",
        }),
        "info",
      );
    }
  }

  /**
   * @param {SeatConnection} conn
   * @param {number} code
   * @param {import("./conn.js").ServerMessage | null} why
   */
  function refused(conn, code, why) {
    if (ui.refused) return;
    ui.refused = true;
    for (const c of conns) c.close();
    const token = conn.token;
    if (code === 4404) {
      messagePage(root, { title: t("page.noGame"), text: t("page.noGameText"), gameId, token });
    } else if (code === 4403 && token) {
      messagePage(root, {
        title: t("page.badLink"),
        text: t("page.badLinkText"),
        gameId,
        token,
        watch: true,
        detail: why?.message,
      });
    } else {
      messagePage(root, {
        title: t("page.refused"),
        text: why?.message ?? "",
        gameId,
        token,
        watch: false,
      });
    }
  }

  const handlers = { message: onMessage, status: () => drawBanners(), refused };
  setTimeout(() => {
    ui.waitedEnough = true;
    update();
  }, 3000);
  const held = heldTokens(gameId);
  if (Object.keys(held).length) {
    for (const token of new Set(Object.values(held)))
      conns.push(new SeatConnection(gameId, token, handlers));
  } else {
    conns.push(new SeatConnection(gameId, null, handlers));
  }

  /** @returns {Live[]} the connections that have their state */
  const liveConns = () => /** @type {Live[]} */ (conns.filter((c) => c.state));

  // The connection whose messages are shown: the seat to move if this browser holds it, else
  // the seat shown last (a hot-seat table keeps showing who just played), else any held seat.
  /**
   * @returns {Live | null}
   */
  function display() {
    const live = liveConns();
    // several seats held: wait (a moment at most) for all of them, so the seat shown first is
    // the one to move
    const waiting =
      conns.length > 1 && !ui.waitedEnough && live.length < conns.filter((c) => !c.closed).length;
    if (!live.length || waiting) return null;
    const cur = live[0].state.current_player;
    return (
      live.find((c) => c.state.seat !== null && c.state.seat === cur) ||
      live.find((c) => c.state.seat !== null && c.state.seat === ui.revealed) ||
      live.find((c) => c.state.seat !== null) ||
      live[0]
    );
  }

  function heldSeats() {
    return liveConns()
      .filter((c) => c.state.seat !== null)
      .map((c) => c.state.seat);
  }

  const names = (/** @type {StateMessage} */ msg) => seatNames(msg.seats);

  // -- the parts of the screen -----------------------------------------------------------------
  /**
   * @returns {Ctx | null}
   */
  function context() {
    const conn = display();
    if (!conn) return null;
    const msg = conn.state;
    const replaying = ui.replay !== null;
    const view = replaying ? ui.replay.view : msg.view;
    const position = replaying ? ui.replay.position : msg.position;
    const mine = heldSeats();
    const myTurn =
      !replaying &&
      msg.seat !== null &&
      !msg.finished &&
      msg.current_player === msg.seat &&
      !msg.seats.some((s) => s.vacant) /* an open table waits for its players */ &&
      !msg.seats[msg.seat]?.stand_in; // a bot plays the seat meanwhile
    /** @type {GameEvent[]} */
    const log = replaying ? ui.replay.log : msg.log;
    const shown = log.filter((e) => e.move === null || e.move < position);
    const lastMove = position > 0 ? position - 1 : null;
    const colours = mod.PLAYER_COLOURS;
    /** @type {Ctx} */
    const ctx = {
      conn,
      view,
      msg,
      board,
      colours,
      names: names(msg),
      seat: replaying ? null : msg.seat,
      heldSeats: mine,
      myTurn,
      choices: myTurn ? msg.choices : null,
      selection: ui.selection,
      hint: myTurn ? (ui.hint.answers[`${msg.position}:${msg.seat}`] ?? null) : null,
      log: shown,
      position,
      lastMove,
      lastEvents: shown.filter((e) => e.move === lastMove && lastMove !== null),
      result: replaying ? ui.replay.result : msg.result,
      finished: replaying ? !!ui.replay.result : msg.finished,
      replaying,
      pending: ui.pending,
      lang: language(),
      size: { w: dom.board.clientWidth || innerWidth, h: innerHeight },
      marker: (seat, x, y, r, attrs) => markerSvg(seat, x, y, r, colours[seat], attrs),
      markerHtml: (seat) => markerHtml(seat, colours[seat]),
      // a seat as a narrow column's head (score pads): the marker, the name, a bot's level
      // on a line of its own
      seatHead: (seat) => {
        const s = msg.seats[seat];
        const bot = s?.kind === "bot" && s.level;
        return [
          markerHtml(seat, colours[seat]),
          h("span", { class: "seat-head-name", text: bot ? s.name : names(msg)[seat] }),
          bot ? " " : null,
          bot ? h("span", { class: "seat-head-level", text: `(${t(`level.${s.level}`)})` }) : null,
        ];
      },
      select: (sel, focus) => {
        ui.selection = sel;
        ui.pending = null;
        ui.focusNext = focus ?? null;
        update();
      },
      move: (text, label) => {
        if (prefs.confirm) {
          ui.pending = { text, label: label ?? text };
          ui.focusNext = "#confirm-move";
          update();
        } else send(conn, text);
      },
    };
    return ctx;
  }

  /**
   * @param {Live} conn
   * @param {string} text
   */
  function send(conn, text) {
    motion.keep(); // the move travels from where it was picked
    ui.selection = {};
    ui.pending = null;
    ui.focusNext = "#status";
    if (mod.PRIVATE_VIEWS && heldSeats().length > 1) {
      // a hot-seat move: its player's secrets leave the screen now, not when the next
      // person's turn comes
      ui.revealed = null;
      ui.movedAt = conn.state.position;
      forget();
    }
    // the bar offers nothing more until the server answers (a new position, or a refusal)
    ui.sentAt = conn.move(text) ? conn.state.position : null;
    if (ui.sentAt === null) toast(t("error.offline"));
    boardPart.reset();
    update();
  }

  /**
   * @param {Ctx} ctx
   */
  function drawTitle(ctx) {
    titlePart.render(
      titleProps({
        lang: ctx.lang,
        title: `${env.gameTitle(summary.game)} · ${env.modeName(summary.game, ctx.msg.mode)}`,
        progress: mod.progress(ctx.view, tg),
        rated: !!summary.rated,
        rules: !!mod.rules,
        legend: !!mod.legend,
        held: ctx.heldSeats,
        seats: ctx.msg.seats,
        finished: ctx.finished,
        replaying: ctx.replaying,
        tableRules: ctx.msg.rules,
      }),
    );
  }

  function drawSeats() {
    const ctx = context();
    if (!ctx) return;
    seatsPart.render(
      seatsProps(ctx.msg, ctx.view, {
        held: ctx.heldSeats,
        replaying: ctx.replaying,
        lang: ctx.lang,
        colours: ctx.colours,
      }),
    );
  }

  // The bar's status (table/status.js); the page's title says whose turn it is, and a turn
  // starting is told (notify.js)
  /**
   * @param {Ctx} ctx
   */
  function drawStatus(ctx) {
    const props = statusProps({
      lang: ctx.lang,
      replay: ctx.replaying ? { position: ui.replay.position, total: ui.replay.total } : null,
      msg: ctx.msg,
      myTurn: ctx.myTurn,
      held: ctx.heldSeats,
      names: ctx.names,
    });
    statusPart.render(props);
    const title = `${env.gameTitle(summary.game)} – polis`;
    setTitle(ctx.myTurn ? `${t("status.titleTurn")} · ${title}` : title);
    if (ctx.myTurn && !ui.wasMyTurn)
      yourTurn(t("status.titleTurn"), `${env.gameTitle(summary.game)}: ${statusText(props.say)}`);
    ui.wasMyTurn = ctx.myTurn;
  }

  // The banners (table/banners.js): also drawn before the table is shown (the connection)
  function drawBanners() {
    const ctx = context();
    bannersPart.render(
      bannersProps({
        lang: language(),
        online: conns.some((c) => c.ws && c.ws.readyState === WebSocket.OPEN),
        refused: ui.refused,
        storeDown: conns.some((c) => c.storeDown && !c.closed),
        shown: ctx
          ? { msg: ctx.msg, names: ctx.names, held: ctx.heldSeats, replaying: ctx.replaying }
          : null,
        awaySince: ui.awaySince,
        seenWhileAway: ui.seenWhileAway,
      }),
    );
  }

  // "Keep in My games" (table/claim.js)
  /**
   * @param {Ctx} ctx
   */
  function drawClaim(ctx) {
    const held = liveConns()
      .filter((c) => c.state.seat !== null)
      .map((c) => ({ seat: c.state.seat, token: c.token ?? null }));
    const account = me();
    claimPart.render({
      lang: ctx.lang,
      account,
      gameId,
      tokens: looseSeats(held, ctx.msg.seats, { account, replaying: ctx.replaying }),
    });
  }

  // Taking back a move (table/takebackpanel.js) and hints (table/hintpanel.js)
  /**
   * @param {Ctx} ctx
   */
  function drawTakeBack(ctx) {
    takeBackPart.render({
      lang: ctx.lang,
      position: ctx.msg.position,
      takeBack: ctx.msg.take_back ?? null,
      finished: !!ctx.msg.finished,
      seats: ctx.msg.seats,
      names: ctx.names,
      held: ctx.heldSeats,
      confirming: ui.takeBack.confirming,
      replaying: ctx.replaying,
    });
  }

  /**
   * @param {Ctx} ctx
   * @param {boolean} covered
   */
  function drawHint(ctx, covered) {
    hintPart.render({
      covered,
      lang: ctx.lang,
      position: ctx.msg.position,
      seat: ctx.msg.seat,
      hints: ctx.msg.hints,
      myTurn: ctx.myTurn,
      replaying: ctx.replaying,
      finished: !!ctx.msg.finished,
      asking: ui.hint.asking,
      answers: Object.keys(ui.hint.answers).length,
    });
  }

  // Leaving: a bot of the table's level plays on for these seats (their links take them back).
  /**
   * @param {number[]} seats
   */
  async function resign(seats) {
    for (const c of conns) {
      if (!c.state || !seats.includes(c.state.seat) || !c.token) continue;
      try {
        await api(`/api/games/${encodeURIComponent(gameId)}/resign`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ token: c.token }),
        });
      } catch (err) {
        toast(/** @type {Error} */ (err).message);
      }
    }
  }

  // Taking a seat back: connecting again with the seat's token hands it back to its person.
  /**
   * @param {number} seat
   */
  function reclaim(seat) {
    const conn = conns.find((c) => c.state && c.state.seat === seat);
    conn?.ws?.close(); // the connection opens again at once and says hello with the token
  }

  // Hot-seat games with secrets: the device passed on before a seat's secrets are shown
  // (table/handover.js)
  /**
   * @param {Ctx} ctx
   */
  function cover(ctx) {
    return coverProps({
      privateViews: !!mod.PRIVATE_VIEWS,
      replaying: ctx.replaying,
      finished: !!ctx.msg.finished,
      held: ctx.heldSeats,
      seat: ctx.msg.seat,
      current: ctx.msg.current_player,
      position: ctx.msg.position,
      movedAt: ui.movedAt,
      revealed: ui.revealed,
      names: ctx.names,
    });
  }

  // The board, its notes and the bar's step (table/board.js), drawn when what they show changed
  /**
   * @param {Ctx} ctx
   * @param {import("./table/handover.js").CoverProps | null} covered
   */
  function drawBoard(ctx, covered) {
    const layout = mod.layoutKey ? mod.layoutKey(ctx.size, ctx) : 0;
    return boardPart.render(boardProps(ctx, { layout, cover: covered, sentAt: ui.sentAt }), ctx);
  }

  // The bar's step: the game's instruction and buttons, or the move to confirm.
  /**
   * @param {Ctx} ctx
   * @param {import("./table/board.js").GameStep} step
   */
  function drawPrompt(ctx, step) {
    drawStep(
      bar,
      stepProps({ myTurn: ctx.myTurn, lastError: ui.lastError, pending: ctx.pending }),
      step,
      { ok: (text) => send(ctx.conn, text), change: () => ctx.select(ui.selection) },
    );
  }

  /**
   * @param {Ctx} ctx
   */
  function drawEnd(ctx) {
    endPart.render(
      endProps({
        lang: ctx.lang,
        finished: !!ctx.msg.finished,
        replayAt: ctx.replaying ? ui.replay.position : null,
        rematch: ctx.msg.rematch_id,
      }),
      ctx,
    );
  }

  /**
   * @param {Ctx} ctx
   */
  function drawLinks(ctx) {
    linksPart.render({
      lang: ctx.lang,
      gameId,
      seats: liveConns()
        .filter((c) => c.state.seat !== null && c.token)
        .map((c) => ({ name: ctx.names[c.state.seat], token: /** @type {string} */ (c.token) })),
    });
  }

  /**
   * @param {Ctx} ctx
   */
  function drawPush(ctx) {
    pushPart.render({ lang: ctx.lang, held: ctx.heldSeats, shown: pushShown() });
  }

  // The log (table/log.js): appended to as moves come; drawn again on a language switch or a
  // replay.
  /**
   * @param {Ctx} ctx
   * @param {boolean} covered
   * @returns {GameEvent[]} the events appended
   */
  function drawLog(ctx, covered) {
    const props = logProps({
      lang: ctx.lang,
      seat: ctx.msg.seat,
      replayAt: ctx.replaying ? ui.replay.position : null,
      covered,
      names: ctx.names,
    });
    return logPart.render(props, ctx, {
      authors: (ctx.replaying ? ui.replay.authors : ctx.msg.authors) ?? [],
      seats: ctx.msg.seats,
      why: ui.why,
      live: ctx.replaying ? [] : ui.liveNotes,
    });
  }

  // After a redraw: focus where the keyboard player goes next (the piece to choose now), else
  // the piece that had focus, drawn anew.
  /**
   * @param {string | null | undefined} had
   */
  function restoreFocus(had) {
    const wanted = ui.focusNext;
    ui.focusNext = null;
    /** @type {HTMLElement | null} */
    let el = null;
    if (wanted && keyboard) el = document.querySelector(wanted);
    if (!el && had && document.activeElement === document.body)
      el = document.querySelector(`[data-focus-key="${CSS.escape(had)}"]`);
    if (!el) return;
    if (el.matches("svg *")) {
      // the board's Tab stop moves to the piece focused (see roving.js)
      for (const other of /** @type {Element} */ (el.closest("svg")).querySelectorAll(
        '[tabindex="0"]',
      ))
        other.setAttribute("tabindex", "-1");
      el.setAttribute("tabindex", "0");
    }
    el.focus();
  }

  function update() {
    if (ui.refused || ui.destroyed) return;
    const ctx = context();
    if (!ctx) return;
    // opened at a position of the replay (env.at: a review's row): go there once, when over
    if (env.at != null && ctx.msg.finished && !ui.openedAt) {
      ui.openedAt = true;
      goto(env.at);
    }
    const had = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.focusKey;
    const focusWasHere =
      dom.board.contains(document.activeElement) || bar.element.contains(document.activeElement);
    const turnStarts = ctx.myTurn && !ui.wasMyTurn;
    ui.drawn.position = ctx.msg.position;
    drawTitle(ctx);
    drawSeats();
    drawStatus(ctx);
    drawBanners();
    drawClaim(ctx);
    drawTakeBack(ctx);
    const covered = cover(ctx);
    drawHint(ctx, !!covered);
    drawBoard(ctx, covered);
    const fresh = drawLog(ctx, !!covered);
    drawEnd(ctx);
    drawLinks(ctx);
    drawPush(ctx);
    restoreFocus(had);
    // a keyboard player never loses focus to the page: it goes to the bar's buttons on their
    // turn, else to the status line
    const lost = document.activeElement === document.body || document.activeElement === null;
    if (
      keyboard &&
      ((lost && focusWasHere) || (turnStarts && (lost || document.activeElement === dom.status)))
    ) {
      const target = ctx.myTurn ? dom.controls.querySelector("button") : null;
      (target ?? dom.status).focus();
    }
    // what happened since the last update, read out (not on the first draw, nor in a replay),
    // then the bar's new status and instruction, once (promptbar.js: not what the focus read)
    const lines =
      !ctx.replaying &&
      ui.announcedPosition !== null &&
      ctx.msg.position !== ui.announcedPosition &&
      !covered
        ? fresh.slice(-6).map((e) => mod.describe(e, ctx, tg))
        : [];
    const quiet = ui.announcedPosition === null || ui.saidLang !== ctx.lang;
    ui.saidLang = ctx.lang;
    announce([...lines, ...bar.said(quiet)]);
    if (!ctx.replaying) ui.announcedPosition = ctx.msg.position;
  }

  /**
   * @param {string} id
   * @param {string} title
   * @param {import("./dom.js").Children} body
   */
  function openDialog(id, title, body) {
    document.getElementById(`dialog-${id}`)?.remove();
    const dialog = h("dialog", { id: `dialog-${id}`, "aria-labelledby": `dialog-${id}-title` }, [
      h("button", {
        class: "close",
        text: "✕",
        "aria-label": t("ui.close"),
        on: { click: () => dialog.close() },
      }),
      h("h2", { id: `dialog-${id}-title`, text: title }),
      body,
    ]);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
  }

  /**
   * @param {number} n
   */
  async function goto(n) {
    const shown = display()?.state;
    const total = shown?.played ?? shown?.position ?? 0; // moves standing (take-backs applied)
    n = Math.max(0, Math.min(total, n));
    try {
      ui.replay = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${n}`);
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
    forget();
    update();
  }

  function leaveReplay() {
    ui.replay = null;
    forget();
    update();
  }

  /**
   * @param {string[]} tokens
   */
  async function rematch(tokens) {
    try {
      const data = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ tokens }),
      });
      for (const [seat, token] of Object.entries(data.tokens)) holdToken(data.id, seat, token);
      location.hash = `#/game/${data.id}`;
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  }

  // the board fits its box: a game that lays out by size is drawn again when that changes
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let resizeTimer = undefined;
  const observer = new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => mod.layoutKey && update(), 120);
  });
  observer.observe(dom.board);
  const ticker = setInterval(() => {
    // the running clock and the time before an away limit count down
    tick(dom.seats);
    tick(bar.element);
    tickAway(dom.banners);
  }, 1000);
  const unsubscribe = onPrefs(() => {
    boardPart.reset();
    update();
  });
  // signed in or out meanwhile: the claim and the chat's actions
  const unsession = onSession(() => {
    update();
    chat.people();
  });

  return {
    render() {
      forget();
      logPart.reset();
      chat.render();
      update();
    },
    destroy() {
      ui.destroyed = true;
      clearInterval(ticker);
      observer.disconnect();
      bar.destroy();
      unsubscribe();
      unsession();
      for (const c of conns) c.close();
    },
  };
}
