// Quadropolis: construction site, architects, Urbanist, cities; click architect -> spot -> square.
import { h, s } from "./dom.js";

export const TYPE_COLOURS = {
  tower_block: "#3f6fcf", shop: "#e3b23c", public_service: "#8a63c2", park: "#4caf50",
  factory: "#8d6e63", harbor: "#26a0c2", office_tower: "#d9534f", monument: "#b8b8b8",
};
const ID_TYPES = { TB: "tower_block", SH: "shop", PS: "public_service", PK: "park", FA: "factory", HA: "harbor", OT: "office_tower", MO: "monument" };
const CLASSIC_TINTS = { NW: "#eef3fb", NE: "#fbf1e6", SW: "#eef8ee", SE: "#f8eef6" };
const EXPERT_TINTS = { 1: "#ece4f7", 2: "#e0f1f4", 3: "#f9e3ec", 4: "#ececec", 5: "#fbe9d8" };
const CELL = 64, EDGE = 40, CITY = 54;

const parse = (m) => /^(\d)([LRTB])(\d) (.+)$/.exec(m);

function selectedSquare(side, idx, k) {
  if (side === "L") return [idx, k];
  if (side === "R") return [idx, 6 - k];
  if (side === "T") return [k, idx];
  return [6 - k, idx];
}

export function progress(view, t) {
  if (view.finished) return t("q.finished");
  return t("q.progress", { round: view.round, rounds: view.rounds, turn: view.turn });
}

function tileGroup(tile, x, y, w, t) {
  const g = s("g", { class: `tile ${tile.type}` });
  g.append(s("title", { text: `${t(`q.type.${tile.type}`)}${tile.variant === "playground" ? ` (${t("q.playground")})` : ""}` }));
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
  if (tile.mayor) g.append(s("text", { x: x + 9, y: y + w - 8, class: "mayor-sym", text: "♛" }, s("title", { text: t("q.mayorTile") })));
  return g;
}

function siteSvg(ctx, t) {
  const { view, legal, selection, colours } = ctx;
  const size = 5 * CELL + 2 * EDGE;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "site", id: "site", width: size, height: size });
  svg.append(s("rect", { x: EDGE, y: EDGE, width: 5 * CELL, height: 5 * CELL, fill: "#d9d2c3", rx: 6 }));
  for (const sq of view.site) {
    const [r, c] = sq.square.slice(1).split("c").map(Number);
    const x = EDGE + (c - 1) * CELL, y = EDGE + (r - 1) * CELL;
    const g = s("g", { dataset: { square: sq.square } });
    g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "#efe9dc", stroke: "#b9ae98" }));
    if (sq.state === "face-up") g.append(tileGroup(sq.tile, x, y, CELL, t));
    else if (sq.state === "face-down") {
      g.append(s("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 6, fill: "#5b5246", class: "face-down" }, s("title", { text: t("q.faceDown") })));
      const [num, ...rest] = sq.back.split(" ");
      g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + (rest.length ? 0 : 5), "text-anchor": "middle", class: "back", text: num }));
      if (rest.length) g.append(s("text", { x: x + CELL / 2, y: y + CELL / 2 + 13, "text-anchor": "middle", class: "back small", text: rest.join(" ") }));
    }
    svg.append(g);
  }
  if (view.urbanist) {
    const [r, c] = view.urbanist.slice(1).split("c").map(Number);
    const x = EDGE + (c - 0.5) * CELL, y = EDGE + (r - 0.5) * CELL;
    svg.append(s("g", { id: "urbanist" }, [s("title", { text: t("q.urbanist") }),
      s("circle", { cx: x, cy: y, r: 13, fill: "#222", stroke: "#fff", "stroke-width": 2 }),
      s("text", { x, y: y + 5, "text-anchor": "middle", class: "urbanist", text: "U" })]));
  }
  // spots
  const arch = selection.architect;
  const legalSpots = new Set(arch ? legal.filter((m) => m.startsWith(arch)).map((m) => parse(m)[2] + parse(m)[3]) : []);
  for (const spot of view.spots) {
    const side = spot.spot[0], idx = +spot.spot.slice(1);
    let x, y;
    if (side === "L") [x, y] = [EDGE / 2, EDGE + (idx - 0.5) * CELL];
    else if (side === "R") [x, y] = [EDGE + 5 * CELL + EDGE / 2, EDGE + (idx - 0.5) * CELL];
    else if (side === "T") [x, y] = [EDGE + (idx - 0.5) * CELL, EDGE / 2];
    else [x, y] = [EDGE + (idx - 0.5) * CELL, EDGE + 5 * CELL + EDGE / 2];
    const isLegal = legalSpots.has(spot.spot);
    const chosen = selection.spot === spot.spot;
    const g = s("g", { class: `spot${isLegal ? " legal" : ""}${spot.blocked ? " blocked" : ""}${chosen ? " chosen" : ""}`, dataset: { spot: spot.spot } });
    g.append(s("title", { text: t(`q.spot.${side}`, { n: idx }) + (spot.blocked ? ` — ${t("q.blocked")}` : "") }));
    if (spot.architect) {
      g.append(s("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: 5, fill: colours[spot.player] || "#999", stroke: "#222" }));
      g.append(s("text", { x, y: y + 5, "text-anchor": "middle", class: "arch-num", text: spot.architect }));
    } else {
      g.append(s("circle", { cx: x, cy: y, r: 11, class: "spot-free", fill: spot.blocked ? "#c9c1b4" : "#fff", stroke: "#8a7f6a", "stroke-dasharray": spot.blocked ? "3 2" : null }));
      if (spot.blocked) g.append(s("text", { x, y: y + 4, "text-anchor": "middle", class: "blocked-x", text: "×" }));
    }
    if (isLegal) g.addEventListener("click", () => ctx.select({ ...selection, spot: spot.spot }));
    svg.append(g);
  }
  return svg;
}

function citySvg(ctx, p, t) {
  const { view, board, legal, selection, colours } = ctx;
  const mats = board[view.mode];
  const rows = mats.size.rows, cols = mats.size.cols;
  const svg = s("svg", { viewBox: `0 0 ${cols * CITY + 8} ${rows * CITY + 8}`, class: "city-grid", width: cols * CITY + 8, height: rows * CITY + 8 });
  const report = ctx.result?.players?.[p];
  const alloc = report?.allocation;
  const inactive = new Set(alloc?.inactive || []);
  const targets = new Set();
  if (p === ctx.seat && selection.architect && selection.spot) {
    const prefix = `${selection.architect}${selection.spot} `;
    for (const m of legal) if (m.startsWith(prefix) && m.slice(prefix.length).startsWith("r")) targets.add(m.slice(prefix.length));
  }
  const city = view.cities[p];
  for (const sq of mats.squares) {
    const name = `r${sq.row}c${sq.col}`;
    const x = 4 + (sq.col - 1) * CITY, y = 4 + (sq.row - 1) * CITY;
    const tint = view.mode === "expert" ? EXPERT_TINTS[sq.district] : CLASSIC_TINTS[sq.district];
    const isTarget = targets.has(name);
    const g = s("g", { class: `cell${isTarget ? " legal" : ""}`, dataset: { target: name, player: p } });
    g.append(s("rect", { x, y, width: CITY, height: CITY, fill: tint, stroke: "#bbb" }));
    if (view.mode === "expert") g.append(s("text", { x: x + 4, y: y + 12, class: "sqnum", text: sq.square_number }));
    const b = city.squares[(sq.row - 1) * cols + (sq.col - 1)];
    if (b) {
      const type = ID_TYPES[b.tiles[b.tiles.length - 1].split("-")[1]];
      g.append(s("rect", { x: x + 5, y: y + 5, width: CITY - 10, height: CITY - 10, rx: 5, fill: TYPE_COLOURS[type], stroke: "#333", opacity: inactive.has(name) ? 0.35 : 1 }, s("title", { text: t(`q.type.${type}`) })));
      g.append(s("text", { x: x + CITY / 2, y: y + CITY / 2 + 6, "text-anchor": "middle", class: "tile-code", text: b.code }));
      if (b.floors > 1) g.append(s("text", { x: x + CITY - 8, y: y + 16, "text-anchor": "end", class: "floors", text: `${b.floors}▲` }));
      if (inactive.has(name)) g.append(s("text", { x: x + CITY / 2, y: y + CITY - 8, "text-anchor": "middle", class: "inactive", text: t("q.inactive") }));
      const cust = alloc?.customers?.[name];
      if (cust) g.append(s("text", { x: x + 8, y: y + CITY - 8, class: "alloc", text: `●${cust}` }, s("title", { text: t("q.customers", { n: cust }) })));
      if (alloc?.park_energy?.includes(name)) g.append(s("text", { x: x + 8, y: y + CITY - 8, class: "alloc energy", text: "▮1" }, s("title", { text: t("q.parkEnergy") })));
    }
    if (isTarget) g.addEventListener("click", () => ctx.move(`${selection.architect}${selection.spot} ${name}`));
    svg.append(g);
  }
  return svg;
}

export function render(ctx, t) {
  const { view, colours, names } = ctx;
  const wrap = h("div", { class: "q-wrap" });
  wrap.append(h("div", { class: "site-box" }, [h("h3", { text: t("q.site") }), siteSvg(ctx, t)]));
  const cities = h("div", { class: "cities" });
  for (let p = 0; p < view.players; p++) {
    const report = ctx.result?.players?.[p];
    cities.append(h("div", { class: `city${p === ctx.seat ? " mine" : ""}`, dataset: { player: p } }, [
      h("div", { class: "city-head" }, [
        h("span", { class: "dot", style: `background:${colours[p]}` }), " ", h("strong", { text: names[p] }),
        view.mayor === p ? h("span", { class: "mayor", title: t("q.mayor"), text: " ♛" }) : "",
        h("span", { class: "res-line", text: ` ● ${view.inhabitants[p]}  ▮ ${view.energy[p]}`, title: t("q.resources", { inh: view.inhabitants[p], en: view.energy[p] }) }),
        report ? h("span", { class: "total", text: ` = ${report.total} ${t("score.vp")}` }) : "",
      ]),
      citySvg(ctx, p, t),
      view.architects ? h("div", { class: "arch-left" }, [t("q.architectsLeft"), " ", view.architects[p].map((k) => h("span", { class: "arch-chip", style: `background:${colours[p]}`, text: k }))]) : "",
    ]));
  }
  wrap.append(cities);
  return wrap;
}

export function controls(ctx, t) {
  const { view, legal, selection, colours } = ctx;
  const out = [];
  if (view.pool) {
    out.push(h("p", {}, [t("q.pool"), " ", ...Object.entries(view.pool).map(([k, n]) => h("span", { class: "arch-chip pool", text: `${k}×${n}` }))]));
  }
  if (!legal.length) return out;
  const archs = [...new Set(legal.map((m) => m[0]))].sort();
  out.push(h("p", { class: "step", text: selection.architect ? (selection.spot ? t("q.chooseTarget") : t("q.chooseSpot")) : t("q.chooseArchitect") }));
  out.push(h("div", { class: "architects" }, archs.map((k) => h("button", {
    class: `architect${selection.architect === k ? " chosen" : ""}`, dataset: { architect: k },
    style: view.pool ? null : `border-color:${colours[ctx.seat]}`, text: t("q.architect", { n: k }),
    on: { click: () => ctx.select({ architect: k }) },
  }))));
  if (selection.architect && selection.spot) {
    const prefix = `${selection.architect}${selection.spot} `;
    const options = legal.filter((m) => m.startsWith(prefix)).map((m) => m.slice(prefix.length));
    const bar = h("div", { class: "row" });
    if (options.includes("x")) bar.append(h("button", { id: "discard", text: t("q.discard"), on: { click: () => ctx.move(`${prefix}x`) } }));
    if (options.includes("-")) bar.append(h("button", { id: "take-nothing", class: "primary", text: t("q.takeNothing"), on: { click: () => ctx.move(`${prefix}-`) } }));
    bar.append(h("button", { id: "cancel", text: t("ui.cancel"), on: { click: () => ctx.select({}) } }));
    out.push(bar);
    if (options.some((o) => o.startsWith("r"))) out.push(h("p", { class: "hint", text: t("q.targetHint") }));
  }
  return out;
}

export function describe(move, mover, index, ctx, t) {
  const name = ctx.names[mover] ?? "?";
  const m = parse(move);
  if (!m) return `${name}: ${move}`;
  const [, k, side, idx, target] = m;
  const perRound = 4 * ctx.view.players;
  const round = Math.floor(index / perRound);
  const [r, c] = selectedSquare(side, +idx, +k);
  const id = ctx.view.public_rounds?.[round]?.[(r - 1) * 5 + (c - 1)];
  const tile = id ? t(`q.type.${ID_TYPES[id.split("-")[1]]}`) : "";
  const where = t(`q.spot.${side}`, { n: idx });
  if (target === "-") return t("q.log.nothing", { name, k, where });
  if (target === "x") return t("q.log.discard", { name, k, where, tile });
  return t("q.log.build", { name, k, where, tile, square: target });
}

const CATS = ["tower_blocks", "shops", "public_services", "parks", "factories", "harbors", "office_towers", "monuments", "inhabitants_penalty", "energy_penalty"];

export function scorePad(ctx, t) {
  const { result, names, colours } = ctx;
  const reports = result.players;
  const cats = ctx.view.mode === "expert" ? CATS : CATS.filter((c) => c !== "office_towers" && c !== "monuments");
  const table = h("table", { class: "scorepad", id: "scorepad" });
  table.append(h("tr", {}, [h("th", {}), ...names.map((n, i) => h("th", { style: `border-bottom:3px solid ${colours[i]}`, text: n }))]));
  for (const c of cats) table.append(h("tr", {}, [h("td", { text: t(`q.cat.${c}`) }), ...reports.map((r) => h("td", { text: r.categories[c] }))]));
  table.append(h("tr", { class: "total" }, [h("td", { text: t("score.total") }), ...reports.map((r) => h("td", { text: r.total }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("q.tie.inhabitants") }), ...reports.map((r) => h("td", { text: r.inhabitants_on_buildings }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("q.tie.empty") }), ...reports.map((r) => h("td", { text: r.empty_squares }))]));
  const ranking = h("ol", { class: "ranking" }, result.ranking.map((group) => h("li", { text: group.map((p) => names[p]).join(" = ") })));
  return h("div", {}, [table, ranking]);
}
