// @ts-check
// The page: a lobby to start games and a table fed by one WebSocket per held seat.
//
// Nothing here knows a game. /api/meta lists the games; each game's client module (served
// from the game's own package) is imported from there and draws everything about its game:
//
//   PLAYER_COLOURS            a colour per seat (each seat also has a shape: players.js)
//   PRIVATE_VIEWS             optional, true when seats hold secrets (hot-seat hand-over)
//   progress(view, t)         a short progress line ("round 2 of 4")
//   render(ctx, t)            the board (keyboard: players' pieces take focus, see roving.js)
//   prompt(ctx, t)            the step of the move being built, for the prompt bar at the top
//                             (promptbar.js), called while the seat may move: {step: what to do
//                             now, note: an optional line under it, actions: its buttons}
//   notes(ctx, t)             optional: what the seat needs to know about the move beside the
//                             board (the bid to beat)
//   controls(ctx, t)          the move in one column: the notes, what to do now, its buttons
//                             (screens without the prompt bar; the table uses it when the
//                             client has no prompt(), all of it in the bar)
//   info(ctx, t)              optional: what the seat needs to know beside (its secret cards,
//                             the players' supplies), in the side panel
//   describe(event, ctx, t)   one log line, worded from an engine event {move, key, params}
//   eventKind(event)          optional: "round" / "win" for log lines that stand out
//   scorePad(ctx, t)          the score pad of a finished game
//   rules(ctx, t)             optional: a rules summary, shown in a dialog from the table
//   legend(ctx, t)            optional: what each piece is, shown in a dialog from the table
//   layoutKey(size)           optional: the board is drawn again when this changes with size
//
// `t` is the game's translator (its catalogue, then the generic one). `ctx.choices` is the
// server's structured list of legal choices (null unless this seat is to move); every leaf
// carries the move text that ctx.move(text, label) sends back, so no client works out a rule.
// `ctx.hint` is the move suggested to the seat to move ({move, choice: the same structure as
// ctx.choices, holding only that move}, see hint.js), or null: a client may highlight it.
import { h, clear } from "./dom.js";
import { t, translator, addCatalogue, setLanguage, initialLanguage, onLanguage } from "./i18n.js";
import { holdUnknownSeat, heldTokens } from "./tokens.js";
import { api, ApiError } from "./ui.js";
import { drawSettings } from "./settings.js";
import { installTooltips } from "./tooltip.js";
import { lobby } from "./lobby.js";
import { tableScreen } from "./table.js";
import { reviewPage } from "./review.js";
import { messagePage } from "./pages.js";
import { refreshSession, onSession } from "./session.js";
import { drawAccountMenu } from "./accountmenu.js";
import { signInPage } from "./signin.js";
import { accountPage } from "./accountpage.js";
import { myGamesPage } from "./mygames.js";
import { profilePage } from "./profile.js";
import { leaderboardPage } from "./leaderboard.js";
import { challengePage } from "./challenge.js";
import { eventsPage, eventPage } from "./events.js";
import { learnPage } from "./learn.js";

/** @typedef {import("./ui.js").Meta} Meta */
/** @typedef {import("./ui.js").GameClient} GameClient */

/** @typedef {import("./forms.js").Page} Page  a screen: drawn again, left, told who signed in */

// index.html's elements
const main = () => /** @type {HTMLElement} */ (document.getElementById("main"));
/** @type {Page | null} */
let page = null; // the current screen
/** @type {Meta} */
let meta = { games: {}, levels: [], languages: [] }; // /api/meta, once loaded
/** @type {Record<string, GameClient>} */
const clients = {}; // game name -> its client module
/** @type {Record<string, unknown>} */
const boards = {};

/**
 * A game's board data (GET /api/boards/{name}), asked once.
 * @param {string} game
 */
async function boardData(game) {
  if (!boards[game]) boards[game] = await api(`/api/boards/${encodeURIComponent(game)}`);
  return boards[game];
}

// Import the client module, style sheet and catalogues of every game that has a browser client.
async function loadGames() {
  meta = await api("/api/meta");
  await Promise.all(
    Object.entries(meta.games).map(async ([name, info]) => {
      if (!info.client) return;
      try {
        clients[name] = await import(info.client.script);
      } catch (err) {
        console.error(`the client of ${name} did not load`, err); // the other games still play
        return;
      }
      addCatalogue(name, info.client.i18n);
      if (info.client.style)
        document.head.append(h("link", { rel: "stylesheet", href: info.client.style }));
    }),
  );
}

function playable() {
  return Object.keys(meta.games).filter((name) => clients[name]);
}

/** @param {string} name */
function gameTitle(name) {
  const text = translator(name)("title");
  return text === "title" ? (meta.games[name]?.title ?? name) : text;
}

/**
 * @param {string} name
 * @param {string} mode
 */
function modeName(name, mode) {
  return translator(name)(`mode.${mode}`);
}

// at: a finished game opened at that position of its replay (#/replay/{id}/{n}, a review's row)
/**
 * @param {string} gameId
 * @param {number | null} [at]
 * @returns {Promise<Page | null>}
 */
async function gameScreen(gameId, at = null) {
  /** @type {import("./ui.js").GameSummary} */
  let summary;
  try {
    summary = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      const held = Object.values(heldTokens(gameId));
      messagePage(main(), {
        title: t("page.noGame"),
        text: t("page.noGameText"),
        gameId,
        token: held[0] ?? null,
        watch: false,
      });
      return null;
    }
    throw err;
  }
  const mod = clients[summary.game];
  if (!mod) throw new Error(t("error.noClient"));
  const board = await boardData(summary.game);
  return tableScreen(gameId, { root: main(), mod, summary, board, gameTitle, modeName, at });
}

/** @type {Record<string, (env: import("./forms.js").PageEnv) => Page>} */
const ACCOUNT_PAGES = {
  signin: signInPage,
  account: accountPage,
  my: myGamesPage,
  player: profilePage,
  leaderboard: leaderboardPage,
  challenge: challengePage,
  // events (tournaments): the list and form, and one event (events.js)
  events: eventsPage,
  event: eventPage,
};

async function route() {
  page?.destroy();
  page = null;
  document.querySelectorAll("dialog").forEach((d) => d.remove());
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "game" && parts[1]) {
      const gameId = decodeURIComponent(parts[1]);
      if (parts[2]) {
        // an invite link: keep the token in this browser, then drop it from the address bar
        // (the table's "links" box gives the seat's link again, to play on another device)
        holdUnknownSeat(gameId, decodeURIComponent(parts[2]));
        history.replaceState(null, "", `#/game/${parts[1]}`);
      }
      page = await gameScreen(gameId);
    } else if (parts[0] === "replay" && parts[1]) {
      // a finished game at one position of its replay (the start without one)
      const at = Number.parseInt(parts[2] ?? "0", 10);
      page = await gameScreen(decodeURIComponent(parts[1]), Number.isNaN(at) ? 0 : at);
    } else if (parts[0] === "review" && parts[1]) {
      // the review of a finished game (review.js)
      page = reviewPage({
        root: main(),
        gameId: decodeURIComponent(parts[1]),
        clients,
        gameTitle,
        modeName,
      });
    } else if (parts[0] === "learn") {
      // a game's tutorial (learn.js); without a game, the games that have one
      const arg = (/** @type {number} */ i) => (parts[i] ? decodeURIComponent(parts[i]) : "");
      page = learnPage({
        root: main(),
        game: arg(1),
        chapter: arg(2),
        clients,
        names: playable(),
        gameTitle,
      });
    } else if (ACCOUNT_PAGES[parts[0]]) {
      // accounts (optional): signing in, the account, My games, profiles, leaderboards, challenges
      const arg = (/** @type {number} */ i) => (parts[i] ? decodeURIComponent(parts[i]) : "");
      page = ACCOUNT_PAGES[parts[0]]({
        root: main(),
        meta,
        clients,
        names: playable(),
        gameTitle,
        modeName,
        name: arg(1),
        to: arg(1),
        game: arg(1),
        mode: arg(2),
      });
    } else {
      page = lobby({ root: main(), meta, clients, names: playable(), gameTitle, modeName });
      document.title = "polis";
    }
  } catch (err) {
    clear(main()).append(
      h("p", {
        class: "error",
        role: "alert",
        text: err instanceof Error ? err.message : String(err),
      }),
      h("a", { href: "#/", text: t("app.back") }),
    );
  }
}

async function start() {
  installTooltips();
  // the reader may pick a language while the page starts (the list is in the page before
  // this script runs): that choice is kept, and one made later is heard
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
  const picked = sel.selectedIndex > 0 ? sel.value : null; // the first is the page's default
  sel.value = picked ?? initialLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
  await loadGames();
  await setLanguage(sel.value);
  const subtitle = () => {
    const el = /** @type {HTMLElement} */ (document.getElementById("subtitle"));
    el.textContent = playable().map(gameTitle).join(" · ");
  };
  subtitle();
  drawSettings();
  let who = (await refreshSession()).account?.name ?? null;
  drawAccountMenu();
  // signed in or out (here, or the session ended elsewhere): the header, and the page if it
  // depends on who is signed in
  onSession((state) => {
    drawAccountMenu();
    const name = state.account?.name ?? null;
    if (name !== who) {
      who = name;
      page?.session?.();
    }
  });
  onLanguage(() => {
    subtitle();
    drawSettings();
    drawAccountMenu();
    page?.render();
  });
  window.addEventListener("hashchange", () => {
    const menu = /** @type {HTMLDetailsElement | null} */ (document.getElementById("account-menu"));
    if (menu) menu.open = false;
  });
  // the settings panel closes on Escape and on a click elsewhere
  const settings = /** @type {HTMLDetailsElement} */ (document.getElementById("settings"));
  document.addEventListener("click", (e) => {
    if (settings.open && !settings.contains(/** @type {Node} */ (e.target))) settings.open = false;
  });
  settings.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      settings.open = false;
      settings.querySelector("summary")?.focus();
    }
  });
  window.addEventListener("hashchange", route);
  await route();
}

start();
