// Metropolys: the board drawn from board.json; click a highlighted field, choose a value, or pass.
import { h, s } from "./dom.js";

const FIELD_COLOURS = { gray: "#9a9a9a", orange: "#ef9a2f", green: "#58b05a", red: "#d64f4a", blue: "#4a7bd0" };
const DISTRICT_TINTS = { center: "#f3ead7", north: "#e4efe0", east: "#e2eaf4", south: "#f4e4e4", west: "#efe6f4" };
const TOKEN_SYMBOL = { chic: "★", metro: "M", archaeology: "A" };
const W = 795, H = 553;

export function progress(view, t) {
  if (view.terminal) return t("m.finished");
  const built = view.built.reduce((a, b) => a + b, 0);
  return t("m.progress", { built });
}

function pos(board, id) {
  const p = board.fields[id].pos;
  return [p.x_px, p.y_px];
}

export function render(ctx, t) {
  const { view, board, legal, selection, colours } = ctx;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "metro-board", id: "metro-board", width: W, height: H });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#cfe3ef", rx: 10 }));
  const unused = new Set(view.unused_districts);
  // districts: soft discs round each field, tinted per district (grey when unused)
  for (const f of board.fields) {
    const [x, y] = [f.pos.x_px, f.pos.y_px];
    svg.append(s("circle", { cx: x, cy: y, r: 44, fill: unused.has(f.district) ? "#c8c8c8" : DISTRICT_TINTS[f.district], class: "district-bg" }));
  }
  for (const [name, d] of Object.entries(board.districts)) {
    const pts = d.fields.map((id) => pos(board, id));
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length, cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    svg.append(s("text", { x: cx, y: cy, "text-anchor": "middle", class: `district-name${unused.has(name) ? " unused" : ""}`, text: t(`m.district.${name}`) + (unused.has(name) ? ` (${t("m.unused")})` : "") }));
  }
  for (const lake of board.lakes) {
    svg.append(s("ellipse", { cx: lake.pos_px.x, cy: lake.pos_px.y, rx: 30, ry: 16, fill: "#5aa9d6", opacity: 0.85, class: "lake" }, s("title", { text: t("m.lake") })));
  }
  // land borders as thin links, bridges as planks
  for (const f of board.fields) {
    for (const n of f.neighbors) if (n > f.id) {
      const [x1, y1] = pos(board, f.id), [x2, y2] = pos(board, n);
      svg.append(s("line", { x1, y1, x2, y2, stroke: "#b8ab8f", "stroke-width": 2, opacity: 0.7 }));
    }
  }
  for (const b of board.bridges) {
    const [x1, y1] = pos(board, b.fields[0]), [x2, y2] = pos(board, b.fields[1]);
    svg.append(s("line", { x1, y1, x2, y2, stroke: "#7a4e24", "stroke-width": 5, "stroke-dasharray": "2 3", class: "bridge" }, s("title", { text: t("m.bridge") })));
  }
  for (const st of board.statues) {
    svg.append(s("g", { class: "statue" }, [s("title", { text: t("m.statue") }),
      s("polygon", { points: `${st.pos_px.x},${st.pos_px.y - 8} ${st.pos_px.x + 7},${st.pos_px.y + 6} ${st.pos_px.x - 7},${st.pos_px.y + 6}`, fill: "#eee", stroke: "#555" })]));
  }
  const legalFields = new Set(legal.filter((m) => m.includes("@")).map((m) => +m.split("@")[1]));
  const bid = view.bid;
  for (const f of view.fields) {
    const [x, y] = pos(board, f.id);
    const isLegal = legalFields.has(f.id);
    const g = s("g", { class: `field${isLegal ? " legal" : ""}${f.in_play ? "" : " out"}${selection.field === f.id ? " chosen" : ""}`, dataset: { field: f.id } });
    g.append(s("title", { text: `${t("m.field", { n: f.id })} · ${t(`m.colour.${f.colour}`)}` }));
    g.append(s("circle", { cx: x, cy: y, r: 18, fill: FIELD_COLOURS[f.colour], stroke: isLegal ? "#ffd400" : "#333", "stroke-width": isLegal ? 4 : 1, opacity: f.in_play ? 1 : 0.35 }));
    g.append(s("text", { x, y: y + 30, "text-anchor": "middle", class: "field-id", text: f.id }));
    if (f.token) {
      g.append(s("circle", { cx: x + 15, cy: y - 14, r: 8, class: `token ${f.token}` }, s("title", { text: t(`m.token.${f.token}`) })));
      g.append(s("text", { x: x + 15, y: y - 10.5, "text-anchor": "middle", class: "token-sym", text: TOKEN_SYMBOL[f.token] }));
    }
    if (f.building) {
      const b = f.building;
      const last = bid && bid.field === f.id;
      g.append(s("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: b.built ? 2 : 12, fill: colours[b.player], stroke: last ? "#ffd400" : "#111", "stroke-width": last ? 4 : 1.5, "stroke-dasharray": b.built ? null : "3 2", class: b.built ? "built" : "bid" }));
      g.append(s("text", { x, y: y + 5, "text-anchor": "middle", class: `building-value p${b.player}`, text: b.value }));
    }
    if (isLegal) g.addEventListener("click", () => ctx.select({ field: f.id }));
    svg.append(g);
  }
  return h("div", { class: "m-wrap" }, svg);
}

export function controls(ctx, t) {
  const { view, legal, selection, colours, names } = ctx;
  const out = [];
  if (view.area_card) {
    out.push(h("div", { class: "secret", id: "my-cards" }, [h("strong", { text: t("m.yourCards") }), " ",
      h("span", { class: "card", text: t(`m.area.${view.area_card}`) }),
      view.neighbourhood_card ? h("span", { class: "card", style: `border-color:${FIELD_COLOURS[view.neighbourhood_card]}`, text: t("m.neighbourhood", { colour: t(`m.colour.${view.neighbourhood_card}`) }) }) : ""]));
  }
  if (view.bid) out.push(h("p", { id: "current-bid", text: t("m.currentBid", { name: names[view.bid.player], value: view.bid.value, field: view.bid.field }) }));
  if (legal.length) {
    out.push(h("p", { class: "step", text: view.bid ? t("m.chooseRaise") : t("m.chooseOpen") }));
    if (selection.field !== undefined) {
      const values = legal.filter((m) => m.endsWith(`@${selection.field}`)).map((m) => +m.split("@")[0]);
      out.push(h("div", { class: "values" }, [t("m.valueFor", { n: selection.field }), " ",
        ...values.map((v) => h("button", { class: "value", dataset: { value: v }, text: v, on: { click: () => ctx.move(`${v}@${selection.field}`) } }))]));
    }
    const bar = h("div", { class: "row" });
    if (legal.includes("pass")) bar.append(h("button", { id: "pass", text: t("m.pass"), on: { click: () => ctx.move("pass") } }));
    if (selection.field !== undefined) bar.append(h("button", { id: "cancel", text: t("ui.cancel"), on: { click: () => ctx.select({}) } }));
    out.push(bar);
  }
  const table = h("table", { class: "supplies" }, [h("tr", {}, [h("th", {}), h("th", { text: t("m.supply") }), h("th", { text: t("m.tokens") })])]);
  view.supplies.forEach((sup, p) => {
    const tok = view.tokens_collected[p];
    table.append(h("tr", { class: view.passed.includes(p) ? "passed" : "" }, [
      h("td", {}, [h("span", { class: "dot", style: `background:${colours[p]}` }), " ", names[p], view.passed.includes(p) ? ` (${t("m.passed")})` : ""]),
      h("td", { class: "supply" }, sup.map((v) => h("span", { class: "chip", text: v }))),
      h("td", {}, [`★${tok.chic} M${tok.metro} A${tok.archaeology}`,
        view.metro_card === p ? h("span", { class: "card small", text: t("m.metroCard") }) : "",
        view.archaeology_card === p ? h("span", { class: "card small", text: t("m.archaeologyCard") }) : ""]),
    ]));
  });
  out.push(table);
  return out;
}

export function describe(move, mover, index, ctx, t) {
  const name = ctx.names[mover] ?? "?";
  if (move === "pass") return t("m.log.pass", { name });
  const [v, f] = move.split("@");
  return t("m.log.bid", { name, value: v, field: f });
}

const CATS = ["chic", "metro", "metro_card", "archaeology", "archaeology_card", "area", "neighbourhood", "highest"];

export function scorePad(ctx, t) {
  const { result, names, colours } = ctx;
  const reports = result.players;
  const cats = ctx.view.mode === "expert" ? CATS : CATS.slice(0, 6);
  const table = h("table", { class: "scorepad", id: "scorepad" });
  table.append(h("tr", {}, [h("th", {}), ...names.map((n, i) => h("th", { style: `border-bottom:3px solid ${colours[i]}`, text: n }))]));
  for (const c of cats) table.append(h("tr", {}, [h("td", { text: t(`m.cat.${c}`) }), ...reports.map((r) => h("td", { text: r.breakdown[c] }))]));
  table.append(h("tr", { class: "total" }, [h("td", { text: t("score.total") }), ...reports.map((r) => h("td", { text: r.total }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("m.tie.built") }), ...reports.map((r) => h("td", { text: r.built }))]));
  const ranking = h("ol", { class: "ranking" }, result.ranking.map((group) => h("li", { text: group.map((p) => names[p]).join(" = ") })));
  return h("div", {}, [table, ranking]);
}
