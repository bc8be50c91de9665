// The page: a lobby to start games and a game screen fed by one WebSocket per held seat.
//
// Nothing here knows a game. /api/meta lists the games; each game's client module (served
// from the game's own package) is imported from there and draws everything about its game:
//
//   PLAYER_COLOURS            a colour per seat
//   progress(view, t)         a short progress line ("round 2 of 4")
//   render(ctx, t)            the board
//   controls(ctx, t)          the side panel: what the seat to move may click
//   describe(event, ctx, t)   one log line, worded from an engine event {move, key, params}
//   scorePad(ctx, t)          the score pad of a finished game
//
// `t` is the game's translator (its catalogue, then the generic one). `ctx.choices` is the
// server's structured list of legal choices (null unless this seat is to move); every leaf
// carries the move text that ctx.move(text) sends back, so no client works out a rule.
import { h, clear } from "./dom.js";
import { t, translator, addCatalogue, setLanguage, initialLanguage, onLanguage } from "./i18n.js";
import { SeatConnection } from "./conn.js";

const main = () => document.getElementById("main");
let page = null; // the current screen: {render(), destroy()}
let meta = null; // /api/meta
const clients = {}; // game name -> its client module
const boards = {};

// -- tokens held by this browser ------------------------------------------------------------------
function heldTokens(gameId) {
  try {
    return JSON.parse(localStorage.getItem(`polis:tokens:${gameId}`) || "{}");
  } catch {
    return {};
  }
}
function holdToken(gameId, seat, token) {
  const held = heldTokens(gameId);
  held[seat] = token;
  localStorage.setItem(`polis:tokens:${gameId}`, JSON.stringify(held));
}
function holdUnknownSeat(gameId, token) {
  const held = heldTokens(gameId);
  if (!Object.values(held).includes(token)) held[`?${Object.keys(held).length}`] = token;
  localStorage.setItem(`polis:tokens:${gameId}`, JSON.stringify(held));
}

export function toast(text, kind = "error") {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = kind;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), 6000);
}

async function api(path, options) {
  const resp = await fetch(path, options);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data?.error?.message || (data.detail ? JSON.stringify(data.detail) : resp.statusText));
  return data;
}

async function boardData(game) {
  if (!boards[game]) boards[game] = await api(`/api/boards/${encodeURIComponent(game)}`);
  return boards[game];
}

// -- games ------------------------------------------------------------------------------------------
// Import the client module, style sheet and catalogues of every game that has a browser client.
async function loadGames() {
  meta = await api("/api/meta");
  await Promise.all(Object.entries(meta.games).map(async ([name, info]) => {
    if (!info.client) return;
    try {
      clients[name] = await import(info.client.script);
    } catch (err) {
      console.error(`the client of ${name} did not load`, err); // the other games still play
      return;
    }
    addCatalogue(name, info.client.i18n);
    if (info.client.style) document.head.append(h("link", { rel: "stylesheet", href: info.client.style }));
  }));
}

function playable() {
  return Object.keys(meta.games).filter((name) => clients[name]);
}

function gameTitle(name) {
  const text = translator(name)("title");
  return text === "title" ? meta.games[name]?.title ?? name : text;
}

function modeName(name, mode) {
  return translator(name)(`mode.${mode}`);
}

// -- lobby ------------------------------------------------------------------------------------------
async function lobby() {
  const root = clear(main());
  const names = playable();
  const form = { game: names[0], mode: null, players: 2, seats: [] };
  const defaults = (i) => ({ kind: i === 0 ? "human" : "bot", level: "easy", name: "", here: true });
  for (let i = 0; i < 4; i++) form.seats.push(defaults(i));
  const panel = h("section", { class: "panel", id: "new-game" });
  const recentBox = h("section", { class: "panel", id: "recent" });
  root.append(panel, recentBox);

  function draw() {
    clear(panel);
    panel.append(h("h2", { text: t("lobby.new") }));
    if (!form.game) {
      panel.append(h("p", { class: "error", text: t("error.noClient") }));
      return;
    }
    const g = meta.games[form.game];
    if (!g.modes.includes(form.mode)) form.mode = g.modes[0];
    form.players = Math.min(Math.max(form.players, g.min_players), g.max_players);
    const gameSel = h("select", { id: "game", on: { change: (e) => { form.game = e.target.value; draw(); } } },
      names.map((n) => h("option", { value: n, selected: n === form.game, text: gameTitle(n) })));
    const modeSel = h("select", { id: "mode", on: { change: (e) => { form.mode = e.target.value; } } },
      g.modes.map((m) => h("option", { value: m, selected: m === form.mode, text: modeName(form.game, m) })));
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const countSel = h("select", { id: "players", on: { change: (e) => { form.players = +e.target.value; draw(); } } },
      counts.map((n) => h("option", { value: n, selected: n === form.players, text: String(n) })));
    panel.append(h("div", { class: "row" }, [
      h("label", {}, [t("lobby.game"), " ", gameSel]),
      h("label", {}, [t("lobby.mode"), " ", modeSel]),
      h("label", {}, [t("lobby.players"), " ", countSel]),
    ]));
    const table = h("table", { class: "seats" }, [h("tr", {}, [
      h("th", { text: "#" }), h("th", { text: t("lobby.name") }), h("th", { text: t("lobby.kind") }),
      h("th", { text: t("lobby.level") }), h("th", { text: t("lobby.here") })])]);
    for (let i = 0; i < form.players; i++) {
      while (form.seats.length <= i) form.seats.push(defaults(i));
      const seat = form.seats[i];
      const colour = clients[form.game].PLAYER_COLOURS[i];
      table.append(h("tr", { class: "seat-row", dataset: { seat: i } }, [
        h("td", {}, h("span", { class: "dot", style: `background:${colour}` })),
        h("td", {}, h("input", { class: "name", value: seat.name, placeholder: seat.kind === "bot" ? t("lobby.botName", { n: i + 1 }) : t("lobby.playerName", { n: i + 1 }),
          maxlength: 40, on: { input: (e) => (seat.name = e.target.value) } })),
        h("td", {}, h("select", { class: "kind", on: { change: (e) => { seat.kind = e.target.value; draw(); } } }, [
          h("option", { value: "human", selected: seat.kind === "human", text: t("lobby.human") }),
          h("option", { value: "bot", selected: seat.kind === "bot", text: t("lobby.bot") })])),
        h("td", {}, seat.kind === "bot" ? h("select", { class: "level", on: { change: (e) => (seat.level = e.target.value) } },
          meta.levels.map((l) => h("option", { value: l, selected: l === seat.level, text: t(`level.${l}`) }))) : ""),
        h("td", {}, seat.kind === "human" ? h("input", { type: "checkbox", class: "here", checked: seat.here,
          title: t("lobby.hereHelp"), on: { change: (e) => (seat.here = e.target.checked) } }) : ""),
      ]));
    }
    panel.append(table, h("p", { class: "hint", text: t("lobby.hint") }));
    panel.append(h("button", { id: "create", class: "primary", text: t("lobby.create"), on: { click: create } }));
  }

  async function create() {
    const seats = form.seats.slice(0, form.players).map((s, i) => ({
      name: s.name.trim() || (s.kind === "bot" ? t("lobby.botName", { n: i + 1 }) : t("lobby.playerName", { n: i + 1 })),
      kind: s.kind,
      level: s.kind === "bot" ? s.level : null,
    }));
    let data;
    try {
      data = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: form.game, mode: form.mode, seats }) });
    } catch (err) {
      toast(err.message);
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
    clear(panel);
    panel.append(h("h2", { text: t("lobby.invites") }), h("p", { text: t("lobby.invitesHelp") }));
    for (const seat of invites) {
      panel.append(h("div", { class: "invite" }, [
        h("strong", { text: seat.name }), " ",
        h("input", { class: "invite-link", readonly: true, value: seat.invite, dataset: { seat: seat.seat }, size: 60,
          on: { focus: (e) => e.target.select() } }),
        h("button", { text: t("lobby.copy"), on: { click: () => navigator.clipboard?.writeText(seat.invite) } }),
      ]));
    }
    panel.append(h("p", {}, h("button", { id: "enter", class: "primary", text: t("lobby.enter"),
      on: { click: () => (location.hash = `#/game/${data.id}`) } })));
  }

  async function drawRecent() {
    const { games } = await api("/api/games");
    clear(recentBox).append(h("h2", { text: t("lobby.recent") }));
    const list = h("ul", {});
    for (const g of games) {
      const mine = Object.keys(heldTokens(g.id)).length > 0;
      list.append(h("li", {}, [
        h("a", { href: `#/game/${g.id}`, text: `${gameTitle(g.game)} · ${modeName(g.game, g.mode)} · ${g.names.join(", ")}` }),
        " ", h("span", { class: "muted", text: g.finished ? t("lobby.finished") : t("lobby.moves", { n: g.position }) }),
        mine ? h("span", { class: "badge", text: t("lobby.yours") }) : "",
      ]));
    }
    recentBox.append(list);
  }

  draw();
  drawRecent().catch(() => {});
  return { render: () => { draw(); drawRecent().catch(() => {}); }, destroy() {} };
}

// -- game screen ------------------------------------------------------------------------------------
async function gameScreen(gameId) {
  const summary = await api(`/api/games/${encodeURIComponent(gameId)}`);
  const mod = clients[summary.game];
  if (!mod) throw new Error(t("error.noClient"));
  const tg = translator(summary.game);
  const board = await boardData(summary.game);
  const held = heldTokens(gameId);
  const conns = [];
  const ui = { selection: {}, replay: null, lastError: null, shownPosition: -1 };
  const root = clear(main());
  const head = h("div", { class: "game-head" });
  const boardBox = h("div", { id: "board", class: `board ${summary.game}` });
  const side = h("aside", { class: "side" });
  root.append(h("div", { class: "game" }, [head, h("div", { class: "game-body" }, [boardBox, side])]));

  // The connection whose messages are shown: the seat to move if this browser holds it.
  function display() {
    const live = conns.filter((c) => c.state);
    if (!live.length) return null;
    const cur = live[0].state.current_player;
    return live.find((c) => c.state.seat !== null && c.state.seat === cur) || live.find((c) => c.state.seat !== null) || live[0];
  }

  function onMessage(conn, msg) {
    if (msg.type === "state") {
      if (msg.position !== ui.shownPosition) ui.selection = {};
      render();
    } else if (msg.type === "seats") {
      if (conn.state) conn.state.seats = msg.seats;
      render();
    } else if (msg.type === "error") {
      ui.lastError = msg.message;
      toast(`${t("error.prefix")}: ${msg.message}`);
      ui.selection = {};
      render();
    } else if (msg.type === "rematch") {
      for (const c of conns) if (c.state) c.state.rematch_id = msg.game_id;
      render();
    }
  }

  if (Object.keys(held).length) {
    for (const token of new Set(Object.values(held))) conns.push(new SeatConnection(gameId, token, { message: onMessage, status: () => render() }));
  } else {
    conns.push(new SeatConnection(gameId, null, { message: onMessage, status: () => render() }));
  }

  function names(msg) {
    return msg.seats.map((s) => (s.kind === "bot" ? `${s.name} (${t(`level.${s.level}`)})` : s.name));
  }

  function render() {
    const conn = display();
    if (!conn) return;
    const msg = conn.state;
    ui.shownPosition = msg.position;
    const colours = mod.PLAYER_COLOURS;
    const heldSeats = conns.filter((c) => c.state && c.state.seat !== null).map((c) => c.state.seat);
    const replaying = ui.replay !== null;
    const view = replaying ? ui.replay.view : msg.view;
    const position = replaying ? ui.replay.position : msg.position;
    const myTurn = !replaying && msg.seat !== null && !msg.finished && msg.current_player === msg.seat;
    const ctx = {
      view, msg, board, colours, names: names(msg), seat: msg.seat, heldSeats,
      choices: myTurn ? msg.choices : null, selection: ui.selection, log: msg.log,
      result: replaying ? ui.replay.result : msg.result,
      select: (sel) => { ui.selection = sel; render(); },
      move: (text) => { ui.selection = {}; if (!conn.move(text)) toast(t("error.offline")); render(); },
    };
    // heading: players, whose turn
    clear(head);
    head.append(h("h2", {}, [gameTitle(msg.game), " · ", modeName(msg.game, msg.mode), " ",
      h("span", { class: "muted", text: mod.progress(view, tg) })]));
    const seatList = h("ul", { class: "seat-list" });
    msg.seats.forEach((s, i) => {
      seatList.append(h("li", { class: `${view.current_player === i ? "current" : ""} ${heldSeats.includes(i) ? "mine" : ""}`, dataset: { seat: i } }, [
        h("span", { class: "dot", style: `background:${colours[i]}` }), " ", ctx.names[i],
        h("span", { class: `conn ${s.connected ? "on" : "off"}`, title: s.connected ? t("seat.online") : t("seat.offline") }),
        heldSeats.includes(i) ? h("span", { class: "badge", text: t("seat.you") }) : "",
      ]));
    });
    head.append(seatList);
    let status;
    if (msg.finished && !replaying) status = t("status.over");
    else if (replaying) status = t("replay.at", { n: ui.replay.position, total: ui.replay.total });
    else if (myTurn) status = heldSeats.length > 1 ? t("status.yourTurnAs", { name: ctx.names[msg.seat] }) : t("status.yourTurn");
    else status = t("status.waiting", { name: ctx.names[msg.current_player] ?? "" });
    head.append(h("p", { id: "status", class: myTurn ? "your-turn" : "", text: status }));
    if (!conns.some((c) => c.ws && c.ws.readyState === WebSocket.OPEN)) head.append(h("p", { class: "offline", text: t("status.reconnecting") }));

    clear(boardBox).append(mod.render(ctx, tg));
    clear(side);
    side.append(h("div", { id: "controls" }, mod.controls(ctx, tg)));
    if (ui.lastError && myTurn) side.append(h("p", { id: "error", class: "error", text: `${t("error.prefix")}: ${ui.lastError}` }));
    if (msg.finished) side.append(endPanel(msg, ctx));
    side.append(h("h3", { text: t("log.title") }), logList(ctx, position));
  }

  // The log: the engine events this seat may see, up to the position shown, one line each.
  function logList(ctx, position) {
    const box = h("ol", { id: "log", class: "log", dataset: { position } });
    let previous;
    for (const event of ctx.log) {
      if (event.move !== null && event.move >= position) break;
      const first = event.move !== previous;
      previous = event.move;
      box.append(h("li", { class: first ? "move-start" : "", dataset: { move: event.move ?? "setup", key: event.key } },
        mod.describe(event, ctx, tg)));
    }
    requestAnimationFrame(() => (box.scrollTop = box.scrollHeight));
    return box;
  }

  function endPanel(msg, ctx) {
    const box = h("div", { id: "end" });
    if (ctx.result) box.append(h("h3", { text: t("score.title") }), mod.scorePad(ctx, tg));
    const bar = h("div", { class: "row" });
    bar.append(h("a", { id: "download", class: "button", href: `/api/games/${gameId}/record`, download: `${msg.game}-${gameId}.json`, text: t("end.download") }));
    const total = msg.position;
    const goto = async (n) => {
      n = Math.max(0, Math.min(total, n));
      try {
        ui.replay = await api(`/api/games/${gameId}/replay/${n}`);
      } catch (err) {
        toast(err.message);
      }
      render();
    };
    bar.append(h("span", { class: "replay" }, [
      h("button", { id: "replay-start", text: "|◀", title: t("replay.start"), on: { click: () => goto(0) } }),
      h("button", { id: "replay-prev", text: "◀", title: t("replay.prev"), on: { click: () => goto((ui.replay ? ui.replay.position : total) - 1) } }),
      h("button", { id: "replay-next", text: "▶", title: t("replay.next"), on: { click: () => goto((ui.replay ? ui.replay.position : total) + 1) } }),
      h("button", { id: "replay-end", text: "▶|", title: t("replay.end"), on: { click: () => { ui.replay = null; render(); } } }),
    ]));
    const tokens = Object.values(heldTokens(gameId));
    if (tokens.length) {
      bar.append(h("button", { id: "rematch", class: "primary", text: msg.rematch_id ? t("end.joinRematch") : t("end.rematch"), on: { click: async () => {
        try {
          const data = await api(`/api/games/${gameId}/rematch`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ tokens }) });
          for (const [seat, token] of Object.entries(data.tokens)) holdToken(data.id, seat, token);
          location.hash = `#/game/${data.id}`;
        } catch (err) {
          toast(err.message);
        }
      } } }));
    }
    box.append(bar);
    return box;
  }

  return {
    render,
    destroy() {
      for (const c of conns) c.close();
    },
  };
}

// -- routing ----------------------------------------------------------------------------------------
async function route() {
  page?.destroy();
  page = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "game" && parts[1]) {
      if (parts[2]) {
        // an invite link: keep the token in this browser, then drop it from the address bar
        holdUnknownSeat(parts[1], decodeURIComponent(parts[2]));
        history.replaceState(null, "", `#/game/${parts[1]}`);
      }
      page = await gameScreen(decodeURIComponent(parts[1]));
    } else {
      page = await lobby();
    }
  } catch (err) {
    clear(main()).append(h("p", { class: "error", text: err.message }), h("a", { href: "#/", text: t("app.back") }));
  }
}

async function start() {
  await loadGames();
  const sel = document.getElementById("lang");
  const code = initialLanguage();
  await setLanguage(code);
  sel.value = code;
  const subtitle = () => (document.getElementById("subtitle").textContent = playable().map(gameTitle).join(" · "));
  subtitle();
  sel.addEventListener("change", () => setLanguage(sel.value));
  onLanguage(() => { subtitle(); page?.render(); });
  window.addEventListener("hashchange", route);
  await route();
}

start();
