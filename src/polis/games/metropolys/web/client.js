// Metropolys in the browser: the board drawn from the game's client data; click a highlighted
// field, choose a value, or pass. Every field, value and the pass button come from the
// server's choices ({fields: [{field, values: [{value, move}]}], pass}), each with the move
// text to send back: this module draws and never works out a rule or writes notation.
import { h, s } from "/static/js/dom.js";

export const PLAYER_COLOURS = ["#2f6fd6", "#d23c3c", "#f4f4f4", "#7d7d7d"];

const FIELD_COLOURS = { gray: "#9a9a9a", orange: "#ef9a2f", green: "#58b05a", red: "#d64f4a", blue: "#4a7bd0" };
const DISTRICT_TINTS = { center: "#f3ead7", north: "#e4efe0", east: "#e2eaf4", south: "#f4e4e4", west: "#efe6f4" };
const TOKEN_SYMBOL = { chic: "★", metro: "M", archaeology: "A" };
const CARD_NAMES = { metro: "metroCard", archaeology: "archaeologyCard" };
const W = 795, H = 553;

export function progress(view, t) {
  if (view.terminal) return t("finished");
  const built = view.built.reduce((a, b) => a + b, 0);
  return t("progress", { built });
}

// The game's client data: fields {id, district, colour, adjacent, x, y}, districts (names),
// statues, lakes and bridges {id, fields, x, y}, in pixels of a 795x553 board.
function pos(board, id) {
  const f = board.fields[id];
  return [f.x, f.y];
}

// The choices of the field clicked (its values), or null.
function chosenField(ctx) {
  return ctx.choices?.fields.find((f) => f.field === ctx.selection.field) ?? null;
}

export function render(ctx, t) {
  const { view, board, selection, colours } = ctx;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "metro-board", id: "metro-board", width: W, height: H });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#cfe3ef", rx: 10 }));
  const unused = new Set(view.unused_districts);
  // districts: soft discs round each field, tinted per district (grey when unused)
  for (const f of board.fields) {
    const [x, y] = pos(board, f.id);
    svg.append(s("circle", { cx: x, cy: y, r: 44, fill: unused.has(f.district) ? "#c8c8c8" : DISTRICT_TINTS[f.district], class: "district-bg" }));
  }
  for (const name of board.districts) {
    const pts = board.fields.filter((f) => f.district === name).map((f) => pos(board, f.id));
    const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length, cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    svg.append(s("text", { x: cx, y: cy, "text-anchor": "middle", class: `district-name${unused.has(name) ? " unused" : ""}`, text: t(`district.${name}`) + (unused.has(name) ? ` (${t("unused")})` : "") }));
  }
  for (const lake of board.lakes) {
    svg.append(s("ellipse", { cx: lake.x, cy: lake.y, rx: 30, ry: 16, fill: "#5aa9d6", opacity: 0.85, class: "lake" }, s("title", { text: t("lake") })));
  }
  // land borders as thin links, bridges as planks
  const bridged = new Set(board.bridges.map((b) => [...b.fields].sort((a, c) => a - c).join(" ")));
  for (const f of board.fields) {
    for (const n of f.adjacent) if (n > f.id && !bridged.has(`${f.id} ${n}`)) {
      const [x1, y1] = pos(board, f.id), [x2, y2] = pos(board, n);
      svg.append(s("line", { x1, y1, x2, y2, stroke: "#b8ab8f", "stroke-width": 2, opacity: 0.7 }));
    }
  }
  for (const b of board.bridges) {
    const [x1, y1] = pos(board, b.fields[0]), [x2, y2] = pos(board, b.fields[1]);
    svg.append(s("line", { x1, y1, x2, y2, stroke: "#7a4e24", "stroke-width": 5, "stroke-dasharray": "2 3", class: "bridge" }, s("title", { text: t("bridge") })));
  }
  for (const st of board.statues) {
    svg.append(s("g", { class: "statue" }, [s("title", { text: t("statue") }),
      s("polygon", { points: `${st.x},${st.y - 8} ${st.x + 7},${st.y + 6} ${st.x - 7},${st.y + 6}`, fill: "#eee", stroke: "#555" })]));
  }
  const offered = new Set((ctx.choices?.fields ?? []).map((f) => f.field));
  const bid = view.bid;
  for (const f of view.fields) {
    const [x, y] = pos(board, f.id);
    const isLegal = offered.has(f.id);
    const g = s("g", { class: `field${isLegal ? " legal" : ""}${f.in_play ? "" : " out"}${selection.field === f.id ? " chosen" : ""}`, dataset: { field: f.id } });
    g.append(s("title", { text: `${t("field", { n: f.id })} · ${t(`colour.${f.colour}`)}` }));
    g.append(s("circle", { cx: x, cy: y, r: 18, fill: FIELD_COLOURS[f.colour], stroke: isLegal ? "#ffd400" : "#333", "stroke-width": isLegal ? 4 : 1, opacity: f.in_play ? 1 : 0.35 }));
    g.append(s("text", { x, y: y + 30, "text-anchor": "middle", class: "field-id", text: f.id }));
    if (f.token) {
      g.append(s("circle", { cx: x + 15, cy: y - 14, r: 8, class: `token ${f.token}` }, s("title", { text: t(`token.${f.token}`) })));
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

function cardsText(area, colour, t) {
  const parts = [`${t("cat.area")}: ${t(`area.${area}`)}`];
  if (colour) parts.push(t("neighbourhood", { colour: t(`colour.${colour}`) }));
  return parts.join(", ");
}

export function controls(ctx, t) {
  const { view, choices, selection, colours, names } = ctx;
  const out = [];
  if (view.area_card) {
    out.push(h("div", { class: "secret", id: "my-cards" }, [h("strong", { text: t("yourCards") }), " ",
      h("span", { class: "card", text: t(`area.${view.area_card}`) }),
      view.neighbourhood_card ? h("span", { class: "card", style: `border-color:${FIELD_COLOURS[view.neighbourhood_card]}`, text: t("neighbourhood", { colour: t(`colour.${view.neighbourhood_card}`) }) }) : ""]));
  }
  if (view.bid) out.push(h("p", { id: "current-bid", text: t("currentBid", { name: names[view.bid.player], value: view.bid.value, field: view.bid.field }) }));
  if (choices) {
    out.push(h("p", { class: "step", text: view.bid ? t("chooseRaise") : t("chooseOpen") }));
    const field = chosenField(ctx);
    if (field) {
      out.push(h("div", { class: "values" }, [t("valueFor", { n: field.field }), " ",
        ...field.values.map((v) => h("button", { class: "value", dataset: { value: v.value }, text: v.value, on: { click: () => ctx.move(v.move) } }))]));
    }
    const bar = h("div", { class: "row" });
    if (choices.pass) bar.append(h("button", { id: "pass", text: t("pass"), on: { click: () => ctx.move(choices.pass) } }));
    if (selection.field !== undefined) bar.append(h("button", { id: "cancel", text: t("ui.cancel"), on: { click: () => ctx.select({}) } }));
    out.push(bar);
  }
  const table = h("table", { class: "supplies" }, [h("tr", {}, [h("th", {}), h("th", { text: t("supply") }), h("th", { text: t("tokens") })])]);
  view.supplies.forEach((sup, p) => {
    const tok = view.tokens_collected[p];
    table.append(h("tr", { class: view.passed.includes(p) ? "passed" : "" }, [
      h("td", {}, [h("span", { class: "dot", style: `background:${colours[p]}` }), " ", names[p], view.passed.includes(p) ? ` (${t("passed")})` : ""]),
      h("td", { class: "supply" }, sup.map((v) => h("span", { class: "chip", text: v }))),
      h("td", {}, [`★${tok.chic} M${tok.metro} A${tok.archaeology}`,
        view.metro_card === p ? h("span", { class: "card small", text: t("metroCard") }) : "",
        view.archaeology_card === p ? h("span", { class: "card small", text: t("archaeologyCard") }) : ""]),
    ]));
  });
  out.push(table);
  return out;
}

// One log line from one engine event.
export function describe(event, ctx, t) {
  const p = event.params;
  const name = ctx.names[p.player] ?? "?";
  switch (event.key) {
    case "game_started":
      return t("event.game_started", { mode: t(`mode.${p.mode}`), players: p.players, name: ctx.names[p.first_player] ?? "?" });
    case "cards_dealt":
      return t("event.cards_dealt", { name, cards: cardsText(p.area_card, p.neighbourhood_card, t) });
    case "bid_raised":
      return t("event.bid_raised", { name, value: p.value, field: p.field, over: p.over_value, overField: p.over_field });
    case "token_collected":
      return t("event.token_collected", { name, token: t(`token.${p.token}`) });
    case "card_changed_hands":
      return t("event.card_changed_hands", { name, card: t(CARD_NAMES[p.card] ?? p.card) });
    case "game_ended":
      return t("event.game_ended", { names: p.ranking[0].map((q) => ctx.names[q]).join(", ") });
    default: // round_started, player_passed, bid_placed, bid_won, round_ended
      return t(`event.${event.key}`, { ...p, name });
  }
}

const CATS = ["chic", "metro", "metro_card", "archaeology", "archaeology_card", "area", "neighbourhood", "highest"];

export function scorePad(ctx, t) {
  const { result, names, colours } = ctx;
  const reports = result.players;
  const cats = ctx.view.mode === "expert" ? CATS : CATS.slice(0, 6);
  const table = h("table", { class: "scorepad", id: "scorepad" });
  table.append(h("tr", {}, [h("th", {}), ...names.map((n, i) => h("th", { style: `border-bottom:3px solid ${colours[i]}`, text: n }))]));
  for (const c of cats) table.append(h("tr", {}, [h("td", { text: t(`cat.${c}`) }), ...reports.map((r) => h("td", { text: r.breakdown[c] }))]));
  table.append(h("tr", { class: "total" }, [h("td", { text: t("score.total") }), ...reports.map((r) => h("td", { text: r.total }))]));
  table.append(h("tr", { class: "tie" }, [h("td", { text: t("tie.built") }), ...reports.map((r) => h("td", { text: r.built }))]));
  const ranking = h("ol", { class: "ranking" }, result.ranking.map((group) => h("li", { text: group.map((q) => names[q]).join(" = ") })));
  return h("div", {}, [table, ranking]);
}
