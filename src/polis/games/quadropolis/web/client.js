// Quadropolis in the browser: construction site, architects, Urbanist, cities.
// A move is three clicks (architect, spot, square of the city), all offered by the server's
// choices ({architects: [{architect, spots: [{spot, square, targets: {square: move},
// discard, nothing}]}]}): this module draws and never works out a rule or writes notation.
import { h, s } from "/static/js/dom.js";

export const PLAYER_COLOURS = ["#2f6fd6", "#d23c3c", "#2e9d4a", "#e0a21b"];

export const TYPE_COLOURS = {
  tower_block: "#3f6fcf", shop: "#e3b23c", public_service: "#8a63c2", park: "#4caf50",
  factory: "#8d6e63", harbor: "#26a0c2", office_tower: "#d9534f", monument: "#b8b8b8",
};
const CLASSIC_TINTS = { NW: "#eef3fb", NE: "#fbf1e6", SW: "#eef8ee", SE: "#f8eef6" };
const EXPERT_TINTS = { 1: "#ece4f7", 2: "#e0f1f4", 3: "#f9e3ec", 4: "#ececec", 5: "#fbe9d8" };
const CELL = 64, EDGE = 40, CITY = 54, SITE = 5;
// view.spots lists the spots side by side (left ends of the rows, right ends, tops of the
// columns, bottoms), five per side: a spot's index says where it is drawn.
const SIDES = ["L", "R", "T", "B"];

// The label of a city square (view docs: "r<row>c<col>"), the key the choices name targets by.
const squareLabel = (row, col) => `r${row}c${col}`;

function spotPlace(index) {
  return { side: SIDES[Math.floor(index / SITE)], n: (index % SITE) + 1 };
}

// "left of line 3": where a spot (by name, as events and choices give it) is.
function spotWhere(view, name, t) {
  const index = view.spots.findIndex((sp) => sp.spot === name);
  if (index < 0) return name;
  const { side, n } = spotPlace(index);
  return t(`spot.${side}`, { n });
}

// Tile id -> kind of every building built so far (the log tells each one).
function builtKinds(log) {
  const kinds = {};
  for (const e of log) if (e.key === "building_built") kinds[e.params.tile] = e.params.kind;
  return kinds;
}

// The choices of the chosen architect, and of the chosen spot.
function chosen(ctx) {
  const { choices, selection } = ctx;
  const architect = choices?.architects.find((a) => a.architect === selection.architect) ?? null;
  const spot = architect?.spots.find((sp) => sp.spot === selection.spot) ?? null;
  return { architect, spot };
}

export function progress(view, t) {
  if (view.finished) return t("finished");
  return t("progress", { round: view.round, rounds: view.rounds, turn: view.turn });
}

function tileGroup(tile, x, y, w, t) {
  const g = s("g", { class: `tile ${tile.type}` });
  g.append(s("title", { text: `${t(`type.${tile.type}`)}${tile.variant === "playground" ? ` (${t("playground")})` : ""}` }));
  g.append(s("rect", { x: x + 3, y: y + 3, width: w - 6, height: w - 6, rx: 6, fill: TYPE_COLOURS[tile.type], stroke: "#333", "stroke-width": 1 }));
  g.append(s("text", { x: x + w / 2, y: y + w / 2 + 6, "text-anchor": "middle", class: "tile-code", text: tile.variant === "playground" ? "p" : tile.code }));
  let gx = x + 8;
  if (tile.gives?.inhabitants) {
    g.append(s("circle", { cx: gx + 5, cy: y + 13, r: 7, fill: "#1f4e9c" }), s("text", { x: gx + 5, y: y + 17, class: "res", "text-anchor": "middle", text: tile.gives.inhabitants }));
    gx += 16;
  }
  if (tile.gives?.energy) {
    g.append(s("rect", { x: gx, y: y + 6, width: 11, height: 14, rx: 2, fill: "#c62828" }), s("text", { x: gx + 5.5, y: y + 17, class: "res", "text-anchor": "middle", text: tile.gives.energy }));
  }
  if (tile.vp) g.append(s("text", { x: x + w - 8, y: y + w - 9, "text-anchor": "end", class: "vp", text: `★${tile.vp}` }));
  if (tile.marking) g.append(s("text", { x: x + w - 7, y: y + 15, "text-anchor": "end", class: "marking", text: tile.marking }));
  if (tile.mayor) g.append(s("text", { x: x + 9, y: y + w - 8, class: "mayor-sym", text: "♛" }, s("title", { text: t("mayorTile") })));
  return g;
}

function siteSvg(ctx, t) {
  const { view, selection, colours } = ctx;
  const size = SITE * CELL + 2 * EDGE;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "site", id: "site", width: size, height: size });
  svg.append(s("rect", { x: EDGE, y: EDGE, width: SITE * CELL, height: SITE * CELL, fill: "#d9d2c3", rx: 6 }));
  view.site.forEach((sq, q) => {
    const x = EDGE + (q % SITE) * CELL, y = EDGE + Math.floor(q / SITE) * CELL;
    const g = s("g", { dataset: { square: sq.square } });
    g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "#efe9dc", stroke: "#b9ae98" }));
    if (sq.state === "face-up") g.append(tileGroup(sq.tile, x, y, CELL, t));
    else if (sq.state === "face-down") {
      g.append(s("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 6, fill: "#5b5246", class: "face-down" }, s("title", { text: t("faceDown") })));
      const [num, ...rest] = sq.back.split(" ");
      g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + (rest.length ? 0 : 5), "text-anchor": "middle", class: "back", text: num }));
      if (rest.length) g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + 13, "text-anchor": "middle", class: "back small", text: rest.join(" ") }));
    }
    svg.append(g);
  });
  const at = view.site.findIndex((sq) => sq.square === view.urbanist);
  if (at >= 0) {
    const x = EDGE + ((at % SITE) + 0.5) * CELL, y = EDGE + (Math.floor(at / SITE) + 0.5) * CELL;
    svg.append(s("g", { id: "urbanist" }, [s("title", { text: t("urbanist") }),
      s("circle", { cx: x, cy: y, r: 13, fill: "#222", stroke: "#fff", "stroke-width": 2 }),
      s("text", { x, y: y + 5, "text-anchor": "middle", class: "urbanist", text: "U" })]));
  }
  // spots: those the chosen architect may use are highlighted
  const offered = new Set((chosen(ctx).architect?.spots ?? []).map((sp) => sp.spot));
  view.spots.forEach((spot, index) => {
    const { side, n } = spotPlace(index);
    const along = EDGE + (n - 0.5) * CELL, far = EDGE + SITE * CELL + EDGE / 2;
    const [x, y] = { L: [EDGE / 2, along], R: [far, along], T: [along, EDGE / 2], B: [along, far] }[side];
    const isLegal = offered.has(spot.spot);
    const picked = selection.spot === spot.spot;
    const g = s("g", { class: `spot${isLegal ? " legal" : ""}${spot.blocked ? " blocked" : ""}${picked ? " chosen" : ""}`, dataset: { spot: spot.spot } });
    g.append(s("title", { text: t(`spot.${side}`, { n }) + (spot.blocked ? ` — ${t("blocked")}` : "") }));
    if (spot.architect) {
      g.append(s("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: 5, fill: colours[spot.player] || "#999", stroke: "#222" }));
      g.append(s("text", { x, y: y + 5, "text-anchor": "middle", class: "arch-num", text: spot.architect }));
    } else {
      g.append(s("circle", { cx: x, cy: y, r: 11, class: "spot-free", fill: spot.blocked ? "#c9c1b4" : "#fff", stroke: "#8a7f6a", "stroke-dasharray": spot.blocked ? "3 2" : null }));
      if (spot.blocked) g.append(s("text", { x, y: y + 4, "text-anchor": "middle", class: "blocked-x", text: "×" }));
    }
    if (isLegal) g.addEventListener("click", () => ctx.select({ ...selection, spot: spot.spot }));
    svg.append(g);
  });
  return svg;
}

function citySvg(ctx, p, kinds, t) {
  const { view, board } = ctx;
  const mats = board[view.mode];
  const rows = mats.size.rows, cols = mats.size.cols;
  const svg = s("svg", { viewBox: `0 0 ${cols * CITY + 8} ${rows * CITY + 8}`, class: "city-grid", width: cols * CITY + 8, height: rows * CITY + 8 });
  const alloc = ctx.result?.players?.[p]?.allocation;
  const inactive = new Set(alloc?.inactive || []);
  const targets = new Map();
  const spot = chosen(ctx).spot;
  if (p === ctx.seat && spot) for (const [square, move] of Object.entries(spot.targets)) targets.set(square, move);
  const city = view.cities[p];
  const tints = view.mode === "expert" ? EXPERT_TINTS : CLASSIC_TINTS;
  for (const sq of mats.squares) {
    const name = squareLabel(sq.row, sq.col);
    const x = 4 + (sq.col - 1) * CITY, y = 4 + (sq.row - 1) * CITY;
    const move = targets.get(name);
    const g = s("g", { class: `cell${move ? " legal" : ""}`, dataset: { target: name, player: p } });
    g.append(s("rect", { x, y, width: CITY, height: CITY, fill: tints[sq.district], stroke: "#bbb" }));
    if (view.mode === "expert") g.append(s("text", { x: x + 4, y: y + 12, class: "sqnum", text: sq.square_number }));
    const b = city.squares[(sq.row - 1) * cols + (sq.col - 1)];
    if (b) {
      const type = kinds[b.tiles[b.tiles.length - 1]];
      g.append(s("rect", { x: x + 5, y: y + 5, width: CITY - 10, height: CITY - 10, rx: 5, fill: TYPE_COLOURS[type] ?? "#999", stroke: "#333", opacity: inactive.has(name) ? 0.35 : 1 }, type ? s("title", { text: t(`type.${type}`) }) : null));
      g.append(s("text", { x: x + CITY / 2, y: y + CITY / 2 + 6, "text-anchor": "middle", class: "tile-code", text: b.code }));
      if (b.floors > 1) g.append(s("text", { x: x + CITY - 8, y: y + 16, "text-anchor": "end", class: "floors", text: `${b.floors}▲` }));
      if (inactive.has(name)) g.append(s("text", { x: x + CITY / 2, y: y + CITY - 8, "text-anchor": "middle", class: "inactive", text: t("inactive") }));
      const cust = alloc?.customers?.[name];
      if (cust) g.append(s("text", { x: x + 8, y: y + CITY - 8, class: "alloc", text: `●${cust}` }, s("title", { text: t("customers", { n: cust }) })));
      if (alloc?.park_energy?.includes(name)) g.append(s("text", { x: x + 8, y: y + CITY - 8, class: "alloc energy", text: "▮1" }, s("title", { text: t("parkEnergy") })));
    }
    if (move) g.addEventListener("click", () => ctx.move(move));
    svg.append(g);
  }
  return svg;
}

export function render(ctx, t) {
  const { view, colours, names } = ctx;
  const kinds = builtKinds(ctx.log);
  const wrap = h("div", { class: "q-wrap" });
  wrap.append(h("div", { class: "site-box" }, [h("h3", { text: t("site") }), siteSvg(ctx, t)]));
  const cities = h("div", { class: "cities" });
  for (let p = 0; p < view.players; p++) {
    const report = ctx.result?.players?.[p];
    cities.append(h("div", { class: `city${p === ctx.seat ? " mine" : ""}`, dataset: { player: p } }, [
      h("div", { class: "city-head" }, [
        h("span", { class: "dot", style: `background:${colours[p]}` }), " ", h("strong", { text: names[p] }),
        view.mayor === p ? h("span", { class: "mayor", title: t("mayor"), text: " ♛" }) : "",
        h("span", { class: "res-line", text: ` ● ${view.inhabitants[p]}  ▮ ${view.energy[p]}`, title: t("resources", { inh: view.inhabitants[p], en: view.energy[p] }) }),
        report ? h("span", { class: "total", text: ` = ${report.total} ${t("score.vp")}` }) : "",
      ]),
      citySvg(ctx, p, kinds, t),
      view.architects ? h("div", { class: "arch-left" }, [t("architectsLeft"), " ", view.architects[p].map((k) => h("span", { class: "arch-chip", style: `background:${colours[p]}`, text: k }))]) : "",
    ]));
  }
  wrap.append(cities);
  return wrap;
}

export function controls(ctx, t) {
  const { view, choices, selection, colours } = ctx;
  const out = [];
  if (view.pool) {
    out.push(h("p", {}, [t("pool"), " ", ...Object.entries(view.pool).map(([k, n]) => h("span", { class: "arch-chip pool", text: `${k}×${n}` }))]));
  }
  if (!choices) return out;
  out.push(h("p", { class: "step", text: selection.architect ? (selection.spot ? t("chooseTarget") : t("chooseSpot")) : t("chooseArchitect") }));
  out.push(h("div", { class: "architects" }, choices.architects.map(({ architect: k }) => h("button", {
    class: `architect${selection.architect === k ? " chosen" : ""}`, dataset: { architect: k },
    style: view.pool ? null : `border-color:${colours[ctx.seat]}`, text: t("architect", { n: k }),
    on: { click: () => ctx.select({ architect: k }) },
  }))));
  const spot = chosen(ctx).spot;
  if (spot) {
    const bar = h("div", { class: "row" });
    if (spot.discard) bar.append(h("button", { id: "discard", text: t("discard"), on: { click: () => ctx.move(spot.discard) } }));
    if (spot.nothing) bar.append(h("button", { id: "take-nothing", class: "primary", text: t("takeNothing"), on: { click: () => ctx.move(spot.nothing) } }));
    bar.append(h("button", { id: "cancel", text: t("ui.cancel"), on: { click: () => ctx.select({}) } }));
    out.push(bar);
    if (Object.keys(spot.targets).length) out.push(h("p", { class: "hint", text: t("targetHint") }));
  }
  return out;
}

// One log line from one engine event.
export function describe(event, ctx, t) {
  const p = event.params;
  const name = ctx.names[p.player] ?? "?";
  const tile = p.kind ? t(`type.${p.kind}`) : "";
  switch (event.key) {
    case "game_started":
      return t("event.game_started", { mode: t(`mode.${p.mode}`), players: p.players, name: ctx.names[p.first_player] ?? "?" });
    case "round_started":
      return t("event.round_started", { round: p.round, name: ctx.names[p.first_player] ?? "?" });
    case "site_revealed":
      return t("event.site_revealed", { round: p.round, n: p.layout.filter((id) => id !== null).length });
    case "architect_placed":
      return t("event.architect_placed", { name, k: p.architect, where: spotWhere(ctx.view, p.spot, t) });
    case "nothing_taken":
      return t("event.nothing_taken", { name, reason: t(`reason.${p.reason}`) });
    case "building_built":
      return t("event.building_built", { name, tile, square: p.city_square, floors: p.floors });
    case "tile_discarded":
      return t("event.tile_discarded", { name, tile });
    case "game_ended":
      return t("event.game_ended", { names: p.ranking[0].map((q) => ctx.names[q]).join(", ") });
    default: // urbanist_moved, mayor_moved, round_ended: the parameters speak for themselves
      return t(`event.${event.key}`, { ...p, name });
  }
}

const CATS = ["tower_blocks", "shops", "public_services", "parks", "factories", "harbors", "office_towers", "monuments", "inhabitants_penalty", "energy_penalty"];

export function scorePad(ctx, t) {
  const { result, names, colours } = ctx;
  const reports = result.players;
  const cats = ctx.view.mode === "expert" ? CATS : CATS.filter((c) => c !== "office_towers" && c !== "monuments");
  const table = h("table", { class: "scorepad", id: "scorepad" });
  table.append(h("tr", {}, [h("th", {}), ...names.map((n, i) => h("th", { style: `border-bottom:3px solid ${colours[i]}`, text: n }))]));
  for (const c of cats) table.append(h("tr", {}, [h("td", { text: t(`cat.${c}`) }), ...reports.map((r) => h("td", { text: r.categories[c] }))]));
  table.append(h("tr", { class: "total" }, [h("td", { text: t("score.total") }), ...reports.map((r) => h("td", { text: r.total }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("tie.inhabitants") }), ...reports.map((r) => h("td", { text: r.inhabitants_on_buildings }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("tie.empty") }), ...reports.map((r) => h("td", { text: r.empty_squares }))]));
  const ranking = h("ol", { class: "ranking" }, result.ranking.map((group) => h("li", { text: group.map((q) => names[q]).join(" = ") })));
  return h("div", {}, [table, ranking]);
}
