// @ts-check
// Metropolys in the browser: the board drawn from the game's client data; choose a highlighted
// neighbourhood, then one of the values offered, or pass. Every field, value and the pass come
// from the server's choices ({fields: [{field, values: [{value, move}]}], pass}), each with the
// move text to send back: this module draws and never works out a rule or writes notation.
// The board is cropped to the districts in play and turned upright on a narrow screen, so its
// neighbourhoods stay large enough to read and to tap.
import { h, s, roving, inkOn, scoreTable } from "/static/js/sdk.js";

// -- types -------------------------------------------------------------------------------------
/** @typedef {import("/static/js/sdk.js").TableContext} TableContext */
/** @typedef {import("/static/js/sdk.js").NarrationContext} NarrationContext */
/** @typedef {import("/static/js/sdk.js").GameEvent} GameEvent */
/** @typedef {import("/static/js/sdk.js").Translator} Translator */
/** @typedef {import("/static/js/sdk.js").Children} Children */

// The view JSON, as polis.games.metropolys.view_json types it (MetropolysViewJSON): the parts
// this client reads.
/** @typedef {"chic" | "metro" | "archaeology"} Token */
/** @typedef {{player: number, value: number, built: boolean}} Building  built false: a bid */
/**
 * One of the 55 fields, as the view has it.
 * @typedef {object} Field
 * @property {number} id
 * @property {string} district
 * @property {string} colour
 * @property {boolean} in_play
 * @property {Token | null} token  the token still lying there
 * @property {Building | null} building
 */
/** @typedef {{field: number, value: number, player: number}} Bid  a bid of this round */
/** @typedef {Record<Token, number>} TokensCollected */
/** @typedef {{area_card: string, neighbourhood_card: string | null}} Cards  null in Family */
/**
 * A player's score as far as everyone may know it (all of it once the game is over).
 * @typedef {{total: number, categories: Record<string, number>}} RunningScore
 */
/**
 * What this seat (or a spectator) sees of the game.
 * @typedef {object} View
 * @property {string} mode  family or expert
 * @property {number} players
 * @property {number | null} player  whose view (null: a spectator)
 * @property {number} current_player  -1 once the game is over
 * @property {boolean} terminal
 * @property {string[]} unused_districts
 * @property {Field[]} fields
 * @property {Bid | null} bid  the bid to beat
 * @property {Bid[]} bids  this round's, in order
 * @property {number[]} passed  the players out of this round
 * @property {number[][]} supplies  each player's building values left, ascending
 * @property {number[]} built  buildings built, per player
 * @property {TokensCollected[]} tokens_collected
 * @property {number | null} metro_card  its holder
 * @property {number | null} archaeology_card  its holder
 * @property {RunningScore[]} running_score
 * @property {string | null} area_card  this seat's own secret cards
 * @property {string | null} neighbourhood_card
 * @property {Cards[]} [cards]  every player's, once the game is over
 */

// The legal choices (MetropolysChoicesJSON): every leaf the move text to send.
/** @typedef {{field: number, values: {value: number, move: string}[]}} ChoiceField */
/** @typedef {{fields: ChoiceField[], pass: string | null}} Choices */

// The finished game's result (polis.games.metropolys.scoring.game_result).
/** @typedef {{total: number, built: number, breakdown: Record<string, number>}} PlayerReport */
/** @typedef {{players: PlayerReport[], ranking: number[][]}} Result */

// The board's geometry (/api/boards/metropolys: polis.games.metropolys.board.board_json): the
// parts this client reads.
/**
 * @typedef {object} BoardField
 * @property {number} id
 * @property {string} district
 * @property {number[]} adjacent
 * @property {number} x
 * @property {number} y
 */
/**
 * A statue, lake or bridge: the fields it touches, where it is drawn.
 * @typedef {{id: string, fields: number[], x: number, y: number}} Feature
 */
/**
 * @typedef {{districts: string[], fields: BoardField[], statues: Feature[], lakes: Feature[],
 *   bridges: Feature[]}} Board
 */

/**
 * The table's context with this game's view, board, choices and result; the selection is the
 * field chosen, if any, and a hint's choice the move suggested as the choices hold it.
 * @typedef {Omit<TableContext, "view" | "board" | "choices" | "selection" | "hint" | "result">
 *   & {view: View, board: Board, choices: Choices | null, selection: {field?: number},
 *   hint: {move: string, choice: Choices | null} | null, result: Result | null}} Ctx
 */
/** @typedef {(seat: number, x: number, y: number, r: number) => Children} Marker */
/**
 * The prompt bar's step: what to do now, and its buttons.
 * @typedef {{step: string, note?: Node | null, actions: HTMLElement[]}} Step
 */

// Blue, vermillion, white, grey (the box's colours, made safe for colour-blind players; every
// seat also has a shape of its own).
export const PLAYER_COLOURS = ["#0072B2", "#D55E00", "#FFFFFF", "#7A7A7A"];
// Each seat's secret cards stay on its own screen: a hot-seat table hands the device over.
export const PRIVATE_VIEWS = true;

// Field colours: a strong ring and a pale fill, and an icon per type, so no field is told by
// its colour alone and the players' pieces stand out against every field.
/** @type {Record<string, string>} */
const FIELD_RING = {
  gray: "#6f6f6f",
  orange: "#d97a00",
  green: "#2f8f3a",
  red: "#c0392b",
  blue: "#2f5fb3",
};
/** @type {Record<string, string>} */
const FIELD_FILL = {
  gray: "#e6e6e6",
  orange: "#fde3c0",
  green: "#d6f0d2",
  red: "#f8d7d3",
  blue: "#d7e3f7",
};
/** @type {Record<string, string>} */
const DISTRICT_TINTS = {
  center: "#f3ead7",
  north: "#e4efe0",
  east: "#e2eaf4",
  south: "#f4e4e4",
  west: "#efe6f4",
};
/** @type {Record<Token, string>} */
const TOKEN_FILL = { chic: "#f2c200", metro: "#1b3b8a", archaeology: "#8a5a2b" };
/** @type {Token[]} */
const TOKENS = ["chic", "metro", "archaeology"];
/** @type {Record<string, string>} */
const CARD_NAMES = { metro: "metroCard", archaeology: "archaeologyCard" };
const R = 19; // a neighbourhood's radius, in board pixels (the closest two are 41 apart)
const MARGIN = 46;

/**
 * @param {View} view
 * @param {Translator} t
 */
export function progress(view, t) {
  if (view.terminal) return t("finished");
  const built = view.built.reduce((a, b) => a + b, 0);
  return t("progress", { built });
}

// Marks for the table's moves that move (static/js/motion.js): a new bid comes from the value
// button it was chosen with, else it grows out of the bid it raised, else it rises onto its
// field; a bid that becomes a building rises too.
/**
 * @param {Ctx} ctx
 * @param {SVGElement} piece
 * @param {number} id  its field
 * @param {Building} b
 */
function moving(ctx, piece, id, b) {
  const chain = ctx.view.bids.findIndex((bid) => bid.field === id);
  const from = [];
  if (b.player === ctx.seat) from.push(`value-${b.value}`);
  if (chain > 0) from.push(`piece@${ctx.view.bids[chain - 1].field}`);
  Object.assign(piece.dataset, {
    motion: `piece@${id}`,
    motionState: b.built ? "built" : "bid",
    motionEnter: "rise",
    motionFrom: from.join(" "),
  });
  return piece;
}

// -- geometry: crop to what is in play, turn upright on a narrow screen --------------------------
// A field's target is its hit circle, R + 6 across each way: on a narrow screen the board is
// drawn at least large enough for that to be TOUCH px (44, WCAG's enhanced target size), and
// pans sideways in its box when the screen is narrower than that.
const HIT = R + 6;
const TOUCH = 44;

/**
 * Where the board's fields are drawn: P turns a board point into a drawn one.
 * @typedef {object} Frame
 * @property {(x: number, y: number) => [number, number]} P
 * @property {boolean} turn  upright
 * @property {number} width
 * @property {number} height
 * @property {Set<number>} inPlay  the fields in play
 * @property {number | null} pan  the fixed scale of a board that pans, or null
 */

/**
 * @param {Pick<Ctx, "board" | "view" | "size">} ctx
 * @returns {Frame}
 */
function frame(ctx) {
  const { board, view } = ctx;
  const inPlay = new Set(view.fields.filter((f) => f.in_play).map((f) => f.id));
  const pts = board.fields.filter((f) => inPlay.has(f.id));
  const x0 = Math.min(...pts.map((f) => f.x)) - MARGIN,
    x1 = Math.max(...pts.map((f) => f.x)) + MARGIN;
  const y0 = Math.min(...pts.map((f) => f.y)) - MARGIN,
    y1 = Math.max(...pts.map((f) => f.y)) + MARGIN;
  const bw = x1 - x0,
    bh = y1 - y0;
  const w = ctx.size?.w ?? 800,
    maxH = (ctx.size?.h ?? 800) * 0.7;
  const flat = Math.min(w / bw, maxH / bh),
    upright = Math.min(w / bh, maxH / bw);
  const turn = w < 700 && upright > flat * 1.08;
  /** @type {Frame["P"]} */
  const P = turn ? (x, y) => [y1 - y, x - x0] : (x, y) => [x - x0, y - y0];
  const width = turn ? bh : bw,
    height = turn ? bw : bh;
  // the scale the board gets in its box; below the touch size, a fixed scale and a pan
  const fits = Math.min(w / width, turn ? Infinity : maxH / height);
  const least = TOUCH / (2 * HIT);
  const pan = w < 700 && fits < least ? least : null;
  return { P, turn, width, height, inPlay, pan };
}

/**
 * @param {Ctx["size"]} size
 * @param {Ctx} [ctx]
 */
export function layoutKey(size, ctx) {
  if (!ctx) return "";
  const fr = frame({ ...ctx, size });
  return `${fr.turn}|${fr.pan}`;
}

// -- labels where nothing covers them ------------------------------------------------------------
// District names and field numbers are placed where no field (with its token and type badges),
// lake or statue lies under them, nor another label, inside the board's edges. Text is measured
// with the page's font.
/** @type {CanvasRenderingContext2D | null} */
let measurer = null;
/**
 * @param {string | number} text
 * @param {number} size
 * @param {number} weight
 * @param {number} [spacing]  letter spacing, in ems
 */
function textBox(text, size, weight, spacing = 0) {
  measurer ??= /** @type {CanvasRenderingContext2D} */ (
    document.createElement("canvas").getContext("2d")
  );
  measurer.font = `${weight} ${size}px ${getComputedStyle(document.body).fontFamily || "sans-serif"}`;
  const m = measurer.measureText(String(text));
  const ascent = m.fontBoundingBoxAscent ?? size * 0.95,
    descent = m.fontBoundingBoxDescent ?? size * 0.25;
  return { w: m.width + spacing * size * String(text).length, ascent, descent };
}

/** @type {(v: number, lo: number, hi: number) => number} */
const near = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** @typedef {{x0: number, y0: number, x1: number, y1: number}} Box */
/**
 * What a label must not lie on: a circle (r; `field`: a field's disc), an ellipse (rx, ry) or
 * a box.
 * @typedef {{kind?: undefined, x: number, y: number, r?: number, rx?: number, ry?: number,
 *   field?: number} | Box & {kind: "box", field?: undefined}} Obstacle
 */
/**
 * A label's place: its text's middle and baseline, its box, and a line from a field's disc to
 * a number set farther off.
 * @typedef {{x: number, y: number, box: Box, leader?: [number, number, number, number]}} Label
 */
/** @typedef {{ids: Map<number, Label>, names: Map<string, Label>}} Labels */

// Does the box {x0, y0, x1, y1} touch the obstacle (a circle, an ellipse, a box)?
/**
 * @param {Box} box
 * @param {Obstacle} o
 */
function hits(box, o) {
  if (o.kind === "box") return box.x0 < o.x1 && box.x1 > o.x0 && box.y0 < o.y1 && box.y1 > o.y0;
  // a circle has r, an ellipse rx and ry
  const rx = /** @type {number} */ (o.rx ?? o.r),
    ry = /** @type {number} */ (o.ry ?? o.r);
  const dx = (near(o.x, box.x0, box.x1) - o.x) / rx,
    dy = (near(o.y, box.y0, box.y1) - o.y) / ry;
  return dx * dx + dy * dy < 1;
}

// Offsets from a district's middle, nearest first (every 4 board pixels up to 160 away).
/** @type {[number, number][]} */
const OFFSETS = [];
for (let dx = -160; dx <= 160; dx += 4)
  for (let dy = -160; dy <= 160; dy += 4) OFFSETS.push([dx, dy]);
OFFSETS.sort((a, b) => a[0] * a[0] + a[1] * a[1] - (b[0] * b[0] + b[1] * b[1]));

// The labels of one layout in one language (the same on every move: worked out once).
/** @type {Map<string, Labels>} */
const placed = new Map();
/**
 * @param {Ctx} ctx
 * @param {Frame} fr
 * @param {Translator} t
 * @returns {Labels}
 */
function labelsOf(ctx, fr, t) {
  const key = `${ctx.lang}|${fr.turn}|${[...fr.inPlay].join(",")}`;
  let labels = placed.get(key);
  if (!labels) placed.set(key, (labels = placeLabels(ctx, fr, t)));
  return labels;
}

/**
 * @param {Ctx} ctx
 * @param {Frame} fr
 * @param {Translator} t
 * @returns {Labels}
 */
function placeLabels(ctx, fr, t) {
  const pad = 2;
  /** @type {Obstacle[]} */
  const obstacles = [];
  const fields = ctx.board.fields.filter((f) => fr.inPlay.has(f.id));
  for (const f of fields) {
    const [x, y] = fr.P(f.x, f.y);
    obstacles.push(
      { x, y, r: R + 5 + pad, field: f.id }, // the disc and its rings
      { x: x + R - 3, y: y - R + 3, r: 8.5 + pad },
      { x: x + R - 4, y: y + R - 4, r: 8 + pad }, // token, type
      { x: x - 15.5, y: y - 15.5, r: 7 + pad },
    ); // the marker on a large building's corner
  }
  for (const lake of ctx.board.lakes) {
    if (!lake.fields.some((id) => fr.inPlay.has(id))) continue;
    const [x, y] = fr.P(lake.x, lake.y);
    obstacles.push({ x, y, rx: (fr.turn ? 16 : 30) + pad, ry: (fr.turn ? 30 : 16) + pad });
  }
  for (const st of ctx.board.statues) {
    if (!st.fields.some((id) => fr.inPlay.has(id))) continue;
    const [x, y] = fr.P(st.x, st.y);
    obstacles.push({
      kind: "box",
      x0: x - 8 - pad,
      y0: y - 9 - pad,
      x1: x + 8 + pad,
      y1: y + 7 + pad,
    });
  }
  /** @param {Box} b */
  const inside = (b) => b.x0 >= 1 && b.y0 >= 1 && b.x1 <= fr.width - 1 && b.y1 <= fr.height - 1;
  // (`except`: a field whose disc may lie under the box, its own number's)
  /** @type {(b: Box, except?: number) => boolean} */
  const free = (b, except) =>
    inside(b) &&
    !obstacles.some((o) => (o.field === undefined || o.field !== except) && hits(b, o));
  /** @type {(m: ReturnType<typeof textBox>, cx: number, base: number) => Box} */
  const boxAt = (m, cx, base) => ({
    x0: cx - m.w / 2,
    x1: cx + m.w / 2,
    y0: base - m.ascent,
    y1: base + m.descent,
  });
  // each field's number: below its disc, else above, beside or at a corner
  /** @type {Labels["ids"]} */
  const ids = new Map();
  for (const f of fields) {
    const [x, y] = fr.P(f.x, f.y);
    const m = textBox(f.id, 13, 800);
    const mid = (m.ascent - m.descent) / 2;
    const spots = [R + 5, R + 11, R + 17].flatMap((gap) =>
      [
        [0, gap + m.ascent],
        [0, -gap - m.descent],
        [gap + m.w / 2, mid],
        [-gap - m.w / 2, mid],
        [gap * 0.8 + m.w / 2, gap * 0.8 + m.ascent],
        [-gap * 0.8 - m.w / 2, gap * 0.8 + m.ascent],
        [-gap * 0.8 - m.w / 2, -gap * 0.8 - m.descent],
        [gap * 0.8 + m.w / 2, -gap * 0.8 - m.descent],
      ].map(([dx, dy]) => [dx, dy, gap]),
    );
    /** @type {Label | null} */
    let chosen = null;
    for (const [dx, dy, gap] of spots) {
      const box = boxAt(m, x + dx, y + dy);
      // not even its own field's disc under it
      if (free(box, f.id) && !hits(box, { x, y, r: R + 2 })) {
        chosen = { x: x + dx, y: y + dy, box };
        // a number set farther off than next to its disc gets a line to it
        if (gap > R + 5) {
          const px = near(x, box.x0, box.x1),
            py = near(y, box.y0, box.y1),
            d = Math.hypot(px - x, py - y);
          chosen.leader = [x + ((px - x) / d) * (R + 3), y + ((py - y) / d) * (R + 3), px, py];
        }
        break;
      }
    }
    chosen ??= { x, y: y + R + 5 + m.ascent, box: boxAt(m, x, y + R + 5 + m.ascent) };
    ids.set(f.id, chosen);
    obstacles.push({ kind: "box", ...chosen.box });
  }
  // each district's name: the free place nearest the middle of its fields
  /** @type {Labels["names"]} */
  const names = new Map();
  for (const name of ctx.board.districts) {
    const own = fields.filter((f) => f.district === name).map((f) => fr.P(f.x, f.y));
    if (!own.length) continue;
    const cx = own.reduce((a, p) => a + p[0], 0) / own.length,
      cy = own.reduce((a, p) => a + p[1], 0) / own.length;
    const m = textBox(t(`district.${name}`), 17, 800, 0.05);
    const found = OFFSETS.find(([dx, dy]) => free(boxAt(m, cx + dx, cy + dy)));
    const [dx, dy] = found ?? [0, 0];
    const best = { x: cx + dx, y: cy + dy, box: boxAt(m, cx + dx, cy + dy) };
    names.set(name, best);
    obstacles.push({ kind: "box", ...best.box });
  }
  return { ids, names };
}

/**
 * @param {Ctx} ctx
 * @param {Frame} fr
 * @param {number} id
 */
function fieldXY(ctx, fr, id) {
  const f = ctx.board.fields[id];
  return fr.P(f.x, f.y);
}

// -- pictures -----------------------------------------------------------------------------------
/**
 * A 24-unit picture, `size` across, centred on (x, y).
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {Children} children
 */
function place(x, y, size, children) {
  return s(
    "g",
    {
      transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 24})`,
      "aria-hidden": "true",
    },
    children,
  );
}

// The type of a neighbourhood: industry (gear), park (tree), lodgings (house), mall (bag),
// administration (columns).
/**
 * @param {string} colour
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function fieldIcon(colour, x, y, size) {
  const ink = { fill: FIELD_RING[colour] };
  let parts;
  switch (colour) {
    case "gray":
      parts = [
        s("circle", {
          cx: 12,
          cy: 12,
          r: 7,
          fill: "none",
          stroke: FIELD_RING.gray,
          "stroke-width": 4,
          "stroke-dasharray": "3.2 2.3",
        }),
        s("circle", { cx: 12, cy: 12, r: 3, ...ink }),
      ];
      break;
    case "orange":
      parts = [
        s("circle", { cx: 12, cy: 9, r: 6.5, ...ink }),
        s("rect", { x: 10.8, y: 13, width: 2.4, height: 8, ...ink }),
      ];
      break;
    case "green":
      parts = [
        s("path", { d: "M3 12 L12 4 L21 12 Z", ...ink }),
        s("rect", { x: 6, y: 12, width: 12, height: 9, ...ink }),
      ];
      break;
    case "red":
      parts = [
        s("path", { d: "M5 9 H19 L18 21 H6 Z", ...ink }),
        s("path", {
          d: "M9 9 V7 Q12 2 15 7 V9",
          fill: "none",
          stroke: FIELD_RING.red,
          "stroke-width": 2,
        }),
      ];
      break;
    default:
      parts = [
        s("path", { d: "M3 8 L12 3 L21 8 Z", ...ink }),
        s("rect", { x: 5, y: 9, width: 2.5, height: 9, ...ink }),
        s("rect", { x: 10.75, y: 9, width: 2.5, height: 9, ...ink }),
        s("rect", { x: 16.5, y: 9, width: 2.5, height: 9, ...ink }),
        s("rect", { x: 3, y: 18.5, width: 18, height: 2.5, ...ink }),
      ];
  }
  return place(x, y, size, parts);
}

// The type of a built-on neighbourhood, beside the building that hides its icon: the ring's
// colour alone would not tell it (under deuteranopia malls, lodgings and parks look alike).
/**
 * @param {string} colour
 * @param {number} x
 * @param {number} y
 */
function kindBadge(colour, x, y) {
  return s("g", { class: "field-kind", "aria-hidden": "true", dataset: { kind: colour } }, [
    s("circle", {
      cx: x,
      cy: y,
      r: 8,
      fill: "#fff",
      stroke: FIELD_RING[colour],
      "stroke-width": 2,
    }),
    fieldIcon(colour, x, y, 12),
  ]);
}

/**
 * @param {Token} token
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
function tokenBadge(token, x, y, r) {
  /** @type {SVGElement[]} */
  const parts = [
    s("circle", { cx: x, cy: y, r, fill: TOKEN_FILL[token], stroke: "#111", "stroke-width": 1.5 }),
  ];
  if (token === "chic") {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5,
        rr = i % 2 ? r * 0.38 : r * 0.8;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    parts.push(s("polygon", { points: pts.join(" "), fill: "#fff" }));
  } else if (token === "metro") {
    parts.push(
      s("path", {
        d: `M${x - r * 0.55} ${y + r * 0.5} V${y - r * 0.5} L${x} ${y + r * 0.1} L${x + r * 0.55} ${y - r * 0.5} V${y + r * 0.5}`,
        fill: "none",
        stroke: "#fff",
        "stroke-width": r * 0.28,
        "stroke-linejoin": "round",
      }),
    );
  } else {
    // an amphora
    parts.push(
      s("path", {
        d: `M${x - r * 0.25} ${y - r * 0.6} H${x + r * 0.25} L${x + r * 0.2} ${y - r * 0.35} Q${x + r * 0.65} ${y} ${x + r * 0.2} ${y + r * 0.6} H${x - r * 0.2} Q${x - r * 0.65} ${y} ${x - r * 0.2} ${y - r * 0.35} Z`,
        fill: "#fff",
      }),
    );
  }
  return s("g", { class: "token", "aria-hidden": "true" }, parts);
}

// A player's building: its colour, its value, its size (small 1-5, medium 6-9, large 10-13),
// the player's shape in the corner; a bid of this round has a dashed edge.
/**
 * @param {{colours: string[], marker: Marker}} ctx  (the lobby's picture has no markers)
 * @param {number} x
 * @param {number} y
 * @param {Building} b
 * @param {boolean} isLast  the last move's
 */
function buildingPiece(ctx, x, y, b, isLast) {
  const half = b.value <= 5 ? 11 : b.value <= 9 ? 13 : 15.5;
  const colour = ctx.colours[b.player];
  return s(
    "g",
    { class: `piece${b.built ? " built" : " bid"}${isLast ? " last" : ""}`, "aria-hidden": "true" },
    [
      s("rect", {
        x: x - half,
        y: y - half,
        width: 2 * half,
        height: 2 * half,
        rx: b.built ? 3 : 8,
        fill: colour,
        class: "piece-body",
      }),
      s("text", {
        x,
        y: y + 5,
        "text-anchor": "middle",
        class: "piece-value",
        fill: inkOn(colour),
        text: b.value,
      }),
      ctx.marker(b.player, x - half, y - half, 5.5),
    ],
  );
}

// -- words ----------------------------------------------------------------------------------------
/**
 * @param {Ctx} ctx
 * @param {Field} f
 * @param {Translator} t
 */
function fieldWords(ctx, f, t) {
  const parts = [t("field", { n: f.id }), t(`district.${f.district}`), t(`colour.${f.colour}`)];
  if (!f.in_play) parts.push(t("unused"));
  if (f.token) parts.push(t(`token.${f.token}`));
  if (f.building) {
    const who = ctx.names[f.building.player];
    parts.push(t(f.building.built ? "builtBy" : "bidBy", { value: f.building.value, name: who }));
  }
  return parts.join(", ");
}

/**
 * @param {"area" | "neighbourhood"} kind
 * @param {string} card  an area, or a neighbourhood's colour
 * @param {string} mode
 * @param {Translator} t
 */
function cardText(kind, card, mode, t) {
  if (kind === "area") return `${t(`area.${card}`)} — ${t(`help.area.${mode}.${card}`)}`;
  return `${t("neighbourhood", { colour: t(`colour.${card}`) })} — ${t("help.neighbourhood")}`;
}

// -- the board ----------------------------------------------------------------------------------
/**
 * The field chosen, with the values it is offered, or null.
 * @param {Pick<Ctx, "choices" | "selection">} ctx
 * @returns {ChoiceField | null}
 */
export function chosenField(ctx) {
  return ctx.choices?.fields.find((f) => f.field === ctx.selection.field) ?? null;
}

/**
 * The field of the last move shown, or null.
 * @param {Ctx} ctx
 * @returns {number | null}
 */
function lastField(ctx) {
  for (const e of [...ctx.lastEvents].reverse())
    if (e.params.field !== undefined) return e.params.field;
  return null;
}

/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function render(ctx, t) {
  const { view, board, selection } = ctx;
  const fr = frame(ctx);
  const svg = s("svg", {
    viewBox: `0 0 ${fr.width} ${fr.height}`,
    class: `metro-board${fr.turn ? " upright" : ""}${fr.pan ? " panned" : ""}`,
    id: "metro-board",
    role: "group",
    "aria-label": t("boardName"),
    dataset: { motionFrame: "board" },
    width: fr.pan ? Math.ceil(fr.width * fr.pan) : null,
    height: fr.pan ? Math.ceil(fr.height * fr.pan) : null,
  });
  svg.append(s("rect", { x: 0, y: 0, width: fr.width, height: fr.height, class: "water", rx: 10 }));
  const unused = new Set(view.unused_districts);
  for (const f of board.fields) {
    if (!fr.inPlay.has(f.id)) continue;
    const [x, y] = fieldXY(ctx, fr, f.id);
    svg.append(
      s("circle", { cx: x, cy: y, r: 44, fill: DISTRICT_TINTS[f.district], class: "district-bg" }),
    );
  }
  for (const lake of board.lakes) {
    if (!lake.fields.some((id) => fr.inPlay.has(id))) continue;
    const [x, y] = fr.P(lake.x, lake.y);
    svg.append(
      s("ellipse", {
        cx: x,
        cy: y,
        rx: fr.turn ? 16 : 30,
        ry: fr.turn ? 30 : 16,
        class: "lake",
        role: "img",
        "aria-label": t("lake"),
        dataset: { tip: `${t("lake")}` },
      }),
    );
  }
  const bridged = new Set(board.bridges.map((b) => [...b.fields].sort((a, c) => a - c).join(" ")));
  for (const f of board.fields) {
    for (const n of f.adjacent) {
      if (n < f.id || bridged.has(`${f.id} ${n}`) || !fr.inPlay.has(f.id) || !fr.inPlay.has(n))
        continue;
      const [x1, y1] = fieldXY(ctx, fr, f.id),
        [x2, y2] = fieldXY(ctx, fr, n);
      svg.append(s("line", { x1, y1, x2, y2, class: "street" }));
    }
  }
  for (const b of board.bridges) {
    if (!b.fields.every((id) => fr.inPlay.has(id))) continue;
    const [x1, y1] = fieldXY(ctx, fr, b.fields[0]),
      [x2, y2] = fieldXY(ctx, fr, b.fields[1]);
    svg.append(
      s("line", {
        x1,
        y1,
        x2,
        y2,
        class: "bridge",
        role: "img",
        "aria-label": t("bridge"),
        dataset: { tip: t("bridge") },
      }),
    );
  }
  for (const st of board.statues) {
    if (!st.fields.some((id) => fr.inPlay.has(id))) continue;
    const [x, y] = fr.P(st.x, st.y);
    svg.append(
      s("polygon", {
        points: `${x},${y - 8} ${x + 7},${y + 6} ${x - 7},${y + 6}`,
        class: "statue",
        role: "img",
        "aria-label": t("statue"),
        dataset: { tip: t("statue") },
      }),
    );
  }
  const labels = labelsOf(ctx, fr, t);
  for (const name of board.districts) {
    const at = labels.names.get(name);
    if (unused.has(name) || !at) continue;
    svg.append(
      s("text", {
        x: at.x,
        y: at.y,
        "text-anchor": "middle",
        class: "district-name",
        "aria-hidden": "true",
        text: t(`district.${name}`),
      }),
    );
  }
  // the bids of this round, joined in the order they were made
  const chain = s("g", { class: "chain", "aria-hidden": "true" });
  for (let i = 1; i < view.bids.length; i++) {
    const [x1, y1] = fieldXY(ctx, fr, view.bids[i - 1].field),
      [x2, y2] = fieldXY(ctx, fr, view.bids[i].field);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1,
      ux = (x2 - x1) / len,
      uy = (y2 - y1) / len;
    const ax = x2 - ux * (R + 4),
      ay = y2 - uy * (R + 4);
    chain.append(
      s("line", { x1: x1 + ux * R, y1: y1 + uy * R, x2: ax, y2: ay, class: "chain-line" }),
      s("polygon", {
        points: `${ax + ux * 2},${ay + uy * 2} ${ax - ux * 10 - uy * 6},${ay - uy * 10 + ux * 6} ${ax - ux * 10 + uy * 6},${ay - uy * 10 - ux * 6}`,
        class: "chain-head",
      }),
    );
  }
  const layer = s("g", { id: "neighbours-layer", "aria-hidden": "true" });
  const offered = new Map((ctx.choices?.fields ?? []).map((f) => [f.field, f]));
  const last = lastField(ctx);
  const hinted = ctx.hint?.choice?.fields?.[0]?.field; // the field of a suggested move (hint.js)
  const fieldsLayer = s("g", {});
  for (const f of view.fields) {
    if (!f.in_play) continue;
    const [x, y] = fieldXY(ctx, fr, f.id);
    const entry = offered.get(f.id);
    const picked = selection.field === f.id;
    const g = s("g", {
      class: [
        "field",
        entry ? "legal" : "",
        picked ? "chosen" : "",
        last === f.id ? "last" : "",
        entry && hinted === f.id ? "hinted" : "",
      ]
        .filter(Boolean)
        .join(" "),
      role: entry ? "button" : "img",
      "aria-label":
        fieldWords(ctx, f, t) +
        (entry ? ` — ${t("canBid")}` : "") +
        (entry && hinted === f.id ? ` — ${t("hint.title")}` : ""),
      "aria-pressed": entry ? String(picked) : null,
      dataset: {
        field: f.id,
        focusKey: `field-${f.id}`,
        preferred: entry && (picked || selection.field === undefined) ? "" : null,
        tip: fieldWords(ctx, f, t),
      },
    });
    g.append(s("circle", { cx: x, cy: y, r: R + 6, class: "hit" }));
    g.append(s("circle", { cx: x, cy: y, r: R + 5, class: "legal-ring" }));
    g.append(
      s("circle", {
        cx: x,
        cy: y,
        r: R,
        fill: FIELD_FILL[f.colour],
        stroke: FIELD_RING[f.colour],
        class: "field-disc",
      }),
    );
    if (!f.building) g.append(fieldIcon(f.colour, x, y - 1, 20));
    const id = /** @type {Label} */ (labels.ids.get(f.id)); // every field in play has one
    if (id.leader)
      g.append(
        s("line", {
          x1: id.leader[0],
          y1: id.leader[1],
          x2: id.leader[2],
          y2: id.leader[3],
          class: "id-leader",
        }),
      );
    g.append(
      s("text", { x: id.x, y: id.y, "text-anchor": "middle", class: "field-id", text: f.id }),
    );
    if (f.token) g.append(tokenBadge(f.token, x + R - 3, y - R + 3, 8.5));
    if (f.building)
      g.append(
        moving(ctx, buildingPiece(ctx, x, y, f.building, last === f.id), f.id, f.building),
        kindBadge(f.colour, x + R - 4, y + R - 4),
      );
    g.append(s("circle", { cx: x, cy: y, r: R + 8, class: "focus-ring" }));
    if (entry) {
      g.addEventListener("click", () => ctx.select({ field: f.id }, ".values button.value"));
    }
    const show = () => neighbours(svg, ctx, fr, f.id);
    const hide = () => neighbours(svg, ctx, fr, selection.field);
    g.addEventListener("pointerenter", show);
    g.addEventListener("focus", show);
    g.addEventListener("pointerleave", hide);
    g.addEventListener("blur", hide);
    fieldsLayer.append(g);
  }
  svg.append(layer, chain, fieldsLayer);
  if (selection.field !== undefined)
    queueMicrotask(() => neighbours(svg, ctx, fr, selection.field));
  roving(svg, ".field");
  const wrap = h("div", { class: `m-wrap${fr.pan ? " pan" : ""}` }, svg);
  if (fr.pan) keepPan(wrap);
  return wrap;
}

// A board wider than the screen pans sideways in its box; where it was panned to stays so
// when it is drawn again (every move), and a first drawing shows its middle.
/** @type {number | null} */
let panX = null;
/** @param {HTMLElement} wrap */
function keepPan(wrap) {
  wrap.addEventListener("scroll", () => (panX = wrap.scrollLeft), { passive: true });
  requestAnimationFrame(() => {
    if (!wrap.isConnected) return;
    wrap.scrollLeft = panX ?? (wrap.scrollWidth - wrap.clientWidth) / 2;
  });
}

// Show the neighbours of a field (where the next bid could go after a bid there).
/**
 * @param {SVGSVGElement} svg
 * @param {Ctx} ctx
 * @param {Frame} fr
 * @param {number | null | undefined} id
 */
function neighbours(svg, ctx, fr, id) {
  const layer = svg.querySelector("#neighbours-layer");
  if (!layer) return;
  while (layer.firstChild) layer.firstChild.remove();
  for (const el of svg.querySelectorAll(".field.neighbour")) el.classList.remove("neighbour");
  if (id === undefined || id === null) return;
  const [x, y] = fieldXY(ctx, fr, id);
  for (const n of ctx.board.fields[id].adjacent) {
    if (!fr.inPlay.has(n)) continue;
    const [x2, y2] = fieldXY(ctx, fr, n);
    layer.append(s("line", { x1: x, y1: y, x2, y2, class: "neighbour-line" }));
    svg.querySelector(`.field[data-field="${n}"]`)?.classList.add("neighbour");
  }
}

// -- the action bar ------------------------------------------------------------------------------
/**
 * @param {"area" | "neighbourhood"} kind
 * @param {string} card
 * @param {string} mode
 * @param {Translator} t
 * @param {Children} [extra]
 */
function cardBox(kind, card, mode, t, extra) {
  return h("div", { class: `card ${kind}`, dataset: { tip: cardText(kind, card, mode, t) } }, [
    h("strong", {
      text:
        kind === "area" ? t(`area.${card}`) : t("neighbourhood", { colour: t(`colour.${card}`) }),
    }),
    h("span", {
      class: "hint",
      text: kind === "area" ? t(`help.area.${mode}.${card}`) : t("help.neighbourhood"),
    }),
    extra ?? "",
  ]);
}

/**
 * @param {Token} token
 * @param {number} [size]
 */
function tokenIcon(token, size = 20) {
  return s(
    "svg",
    { viewBox: "0 0 24 24", width: size, height: size, class: "icon", "aria-hidden": "true" },
    tokenBadge(token, 12, 12, 10),
  );
}

// Beside the board: this seat's secret cards and every player's supply, tokens and cards.
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function info(ctx, t) {
  const { view } = ctx;
  const out = [];
  if (view.area_card) {
    out.push(
      h("div", { class: "secret", id: "my-cards" }, [
        h("h3", { text: t("yourCards") }),
        h("div", { class: "cards" }, [
          cardBox("area", view.area_card, view.mode, t),
          view.neighbourhood_card
            ? cardBox("neighbourhood", view.neighbourhood_card, view.mode, t)
            : "",
        ]),
      ]),
    );
  }
  out.push(suppliesTable(ctx, t));
  return out;
}

// Beside the board: the seat's objective on its turn, the bid to beat and the call's bids.
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function notes(ctx, t) {
  const { view, choices, names } = ctx;
  const out = [];
  if (view.area_card && choices) {
    const goals = [t(`area.${view.area_card}`)];
    if (view.neighbourhood_card)
      goals.push(t("neighbourhood", { colour: t(`colour.${view.neighbourhood_card}`) }));
    out.push(
      h(
        "p",
        { class: "my-goal", dataset: { tip: cardText("area", view.area_card, view.mode, t) } },
        [t("yourGoal"), " ", h("strong", { text: goals.join(" · ") })],
      ),
    );
  }
  if (view.bid) {
    out.push(
      h("p", { id: "current-bid" }, [
        ctx.markerHtml(view.bid.player),
        t("currentBid", {
          name: names[view.bid.player],
          value: view.bid.value,
          field: view.bid.field,
        }),
      ]),
    );
    if (view.bids.length > 1) {
      out.push(
        h("p", {
          class: "hint",
          id: "bid-chain",
          text: `${t("chain")}: ${view.bids.map((b) => `${b.value} (${names[b.player]}, ${t("fieldShort", { n: b.field })})`).join(" → ")}`,
        }),
      );
    }
  }
  return out;
}

// The prompt bar's step (promptbar.js): what to do now and the buttons (the neighbourhoods
// offered when they are few, the buildings for the one chosen, pass, cancel).
/**
 * @param {Ctx} ctx  while the seat may move: its choices are there
 * @param {Translator} t
 * @returns {Step}
 */
export function prompt(ctx, t) {
  const { view, selection } = ctx;
  const choices = /** @type {Choices} */ (ctx.choices);
  const out = [];
  const field = chosenField(ctx);
  let step = view.bid
    ? t("chooseRaise", { value: view.bid.value, field: view.bid.field })
    : t("chooseOpen");
  if (!choices.fields.length) step = t("mustPass");
  if (field) step = t("chooseValue", { n: field.field });
  if (field) {
    out.push(
      h(
        "div",
        { class: "values", role: "group", "aria-label": t("valueFor", { n: field.field }) },
        field.values.map((v) =>
          h("button", {
            class: "value",
            dataset: { value: v.value, focusKey: `value-${v.value}`, motionAt: `value-${v.value}` },
            "aria-label": t("valueLabel", { value: v.value, n: field.field }),
            on: {
              click: () => ctx.move(v.move, t("label.bid", { value: v.value, n: field.field })),
            },
            text: v.value,
          }),
        ),
      ),
    );
  } else if (choices.fields.length && choices.fields.length <= 6) {
    out.push(
      h(
        "div",
        { class: "field-list", role: "group", "aria-label": t("fieldsOffered") },
        choices.fields.map((f) => {
          const where = view.fields[f.field];
          return h(
            "button",
            {
              class: "field-choice",
              dataset: { field: f.field, focusKey: `fc-${f.field}` },
              on: { click: () => ctx.select({ field: f.field }, ".values button.value") },
            },
            [
              h("strong", { text: f.field }),
              h("span", {
                class: "pb-words",
                text: ` ${t(`district.${where.district}`)} · ${t(`colour.${where.colour}`)}`,
              }),
            ],
          );
        }),
      ),
    );
  }
  const bar = h("div", { class: "row" });
  const { pass } = choices;
  if (pass)
    bar.append(
      h("button", {
        id: "pass",
        text: t("pass"),
        on: { click: () => ctx.move(pass, t("label.pass")) },
      }),
    );
  if (selection.field !== undefined)
    bar.append(
      h("button", {
        id: "cancel",
        text: t("ui.cancel"),
        on: { click: () => ctx.select({}, "#metro-board .field.legal") },
      }),
    );
  out.push(bar);
  return { step, actions: out };
}

// The move in one column, for a screen without the prompt bar (the tutorial): the notes, then
// what to do now and its buttons.
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function controls(ctx, t) {
  const step = ctx.choices ? prompt(ctx, t) : null;
  if (!step) return notes(ctx, t);
  const say = h("p", { class: "step", id: "prompt", text: step.step });
  return [...notes(ctx, t), say, step.note, ...step.actions].filter(Boolean);
}

/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
function suppliesTable(ctx, t) {
  const { view, names } = ctx;
  const table = h("table", { class: "supplies" }, [
    h("caption", { class: "visually-hidden", text: t("supplies") }),
    h("tr", {}, [
      h("th", { scope: "col", text: t("player") }),
      h("th", { scope: "col", text: t("supply") }),
      h("th", { scope: "col", text: t("tokens") }),
    ]),
  ]);
  view.supplies.forEach((sup, p) => {
    const tok = view.tokens_collected[p];
    const passed = view.passed.includes(p);
    table.append(
      h("tr", { class: passed ? "passed" : "", dataset: { seat: p } }, [
        h("th", { scope: "row" }, [
          ctx.markerHtml(p),
          names[p],
          runningScore(ctx, p, t),
          passed
            ? h("span", {
                class: "badge",
                dataset: { motion: `passed-${p}`, motionEnter: "pop" },
                text: t("passed"),
              })
            : "",
        ]),
        h(
          "td",
          { class: "supply" },
          sup.map((v) => h("span", { class: "chip", text: v })),
        ),
        h("td", { class: "tokens-cell" }, [
          ...TOKENS.map((k) =>
            h(
              "span",
              {
                class: "tok",
                role: "img",
                "aria-label": `${t(`token.${k}`)}: ${tok[k]}`,
                dataset: { tip: `${t(`token.${k}`)}: ${tok[k]}` },
              },
              [tokenIcon(k, 18), h("span", { text: tok[k] })],
            ),
          ),
          view.metro_card === p
            ? h("span", {
                class: "card small",
                dataset: { tip: t("help.metroCard") },
                text: t("metroCard"),
              })
            : "",
          view.archaeology_card === p
            ? h("span", {
                class: "card small",
                dataset: { tip: t("help.archaeologyCard") },
                text: t("archaeologyCard"),
              })
            : "",
        ]),
      ]),
    );
  });
  return h("div", { class: "scroll-x" }, table);
}

// -- the log -------------------------------------------------------------------------------------
/** @param {GameEvent} event */
export function eventKind(event) {
  if (event.key === "round_started") return "round";
  if (event.key === "bid_won" || event.key === "game_ended") return "win";
  return "";
}

/**
 * @param {string} area
 * @param {string | null | undefined} colour  the neighbourhood card's (none in Family)
 * @param {Translator} t
 */
function cardsText(area, colour, t) {
  const parts = [`${t("cat.area")}: ${t(`area.${area}`)}`];
  if (colour) parts.push(t("neighbourhood", { colour: t(`colour.${colour}`) }));
  return parts.join(", ");
}

// The words of one event: the same catalogue keys and arguments as the terminal's
// (polis.games.metropolys.render.messages), so both tell it alike.
/** @type {(names: string[], t: Translator) => string} */
const listNames = (names, t) => (t.list ? t.list(names) : names.join(", "));

/**
 * @param {GameEvent} event
 * @param {NarrationContext} ctx
 * @param {Translator} t
 * @returns {string}
 */
export function describe(event, ctx, t) {
  const p = event.params;
  const name = ctx.names[p.player] ?? "?";
  switch (event.key) {
    case "game_started":
      return t("event.game_started", {
        mode: t(`mode.${p.mode}`),
        players: p.players,
        name: ctx.names[p.first_player] ?? "?",
      });
    case "cards_dealt":
      return t("event.cards_dealt", {
        name,
        cards: cardsText(p.area_card, p.neighbourhood_card, t),
      });
    case "bid_raised":
      return t("event.bid_raised", {
        name,
        value: p.value,
        field: p.field,
        over: p.over_value,
        overField: p.over_field,
      });
    case "bid_won": {
      let line = t("event.bid_won", {
        name,
        value: p.value,
        field: p.field,
        reason: t(`reason.${p.reason}`),
      });
      const back = [
        ...new Set(p.returned.map((/** @type {Bid} */ r) => ctx.names[r.player] ?? "?")),
      ];
      if (back.length)
        line += ` ${t("returned", { names: listNames(back, t), count: back.length, bids: p.returned.length })}`;
      return line;
    }
    case "token_collected":
      return t("event.token_collected", { name, token: t(`token.${p.token}`) });
    case "card_changed_hands":
      return t(
        p.from === null || p.from === undefined
          ? "event.card_changed_hands"
          : "event.card_taken_from",
        { name, card: t(CARD_NAMES[p.card] ?? p.card), from: ctx.names[p.from] ?? "" },
      );
    case "game_ended": {
      const best = p.ranking[0];
      const cards = (p.cards ?? [])
        .map(
          (/** @type {Cards & {player: number}} */ c) =>
            `${ctx.names[c.player] ?? "?"}: ${cardsText(c.area_card, c.neighbourhood_card, t)}`,
        )
        .join("; ");
      const head = t(best.length > 1 ? "event.game_ended_tie" : "event.game_ended", {
        names: listNames(
          best.map((/** @type {number} */ q) => ctx.names[q] ?? "?"),
          t,
        ),
        score: p.scores[best[0]],
      });
      return cards ? `${head} ${t("cardsRevealed", { cards })}` : head;
    }
    default: // round_started, player_passed, bid_placed, round_ended
      return t(`event.${event.key}`, { ...p, name });
  }
}

// -- the end ---------------------------------------------------------------------------------------
const CATS = [
  "chic",
  "metro",
  "metro_card",
  "archaeology",
  "archaeology_card",
  "area",
  "neighbourhood",
  "highest",
];

/**
 * The score pad's rows: each category, the total, then the tie-break (buildings built).
 * @param {Result["players"]} reports  in seat order
 * @param {string[]} cats
 * @param {Translator} t
 * @returns {import("/static/js/sdk.js").ScoreRow[]}
 */
export function padRows(reports, cats, t) {
  return [
    ...cats.map((c) => ({ label: t(`cat.${c}`), values: reports.map((r) => r.breakdown[c]) })),
    { label: t("score.total"), cls: "total", values: reports.map((r) => r.total) },
    { label: t("tie.built"), cls: "tie", values: reports.map((r) => r.built) },
  ];
}

/**
 * @param {Ctx & {result: Result}} ctx  once the game is over
 * @param {Translator} t
 */
export function scorePad(ctx, t) {
  const { result, names, view } = ctx;
  const reports = result.players;
  const cats = view.mode === "expert" ? CATS : CATS.slice(0, 6);
  const words = { title: t("score.title"), category: t("category") };
  const table = scoreTable(ctx, padRows(reports, cats, t), words);
  /** @type {HTMLElement[]} */
  const out = [table];
  // every secret card, revealed beside the points it gave
  if (view.cards) {
    const list = h("ul", { class: "revealed", id: "revealed-cards" });
    view.cards.forEach((c, p) => {
      const breakdown = reports[p].breakdown;
      list.append(
        h("li", { dataset: { seat: p } }, [
          ctx.markerHtml(p),
          h("strong", { text: names[p] }),
          h("div", { class: "cards" }, [
            cardBox(
              "area",
              c.area_card,
              view.mode,
              t,
              h("span", { class: "card-score", text: t("cardScored", { n: breakdown.area }) }),
            ),
            c.neighbourhood_card
              ? cardBox(
                  "neighbourhood",
                  c.neighbourhood_card,
                  view.mode,
                  t,
                  h("span", {
                    class: "card-score",
                    text: t("cardScored", { n: breakdown.neighbourhood }),
                  }),
                )
              : "",
          ]),
        ]),
      );
    });
    out.push(h("h3", { text: t("cardsTitle") }), list);
  }
  return h("div", {}, out);
}

// -- the running score ---------------------------------------------------------------------------
// Each player's score as far as everyone may know it, beside their name: the view's
// running_score (tokens, the two cards and, in Expert, the highest buildings; the secret
// objectives only once the game is over, when they are revealed). Its rows show on hover, on
// keyboard focus and on a long press (data-tip), and are its accessible description. The
// setting that hides it hides `.running-score` during the game (static/js/settings.js); the
// final score (`.final`) always shows.
/**
 * @param {Ctx} ctx
 * @param {number} p  the seat
 * @param {Translator} t
 */
export function runningScore(ctx, p, t) {
  const { view } = ctx;
  const score = view.running_score?.[p];
  if (!score) return null;
  const final = view.terminal;
  const cats = (view.mode === "expert" ? CATS : CATS.slice(0, 6)).filter(
    (c) => c in score.categories,
  );
  const label = t(final ? "running.final" : "running.label", { n: score.total });
  const rows = cats.map((c) => `${t(`cat.${c}`)}: ${score.categories[c]}`);
  if (!final) rows.push(t("running.secret"));
  const id = `running-score-${p}`;
  return h("span", { class: `running-score${final ? " final" : ""}` }, [
    h("span", {
      class: "total",
      tabindex: "0",
      role: "img",
      "aria-label": label,
      "aria-describedby": id,
      dataset: { tip: [label, ...rows].join("\n"), seat: p },
      text: final ? String(score.total) : t("running.short", { n: score.total }),
    }),
    h("span", { id, hidden: true, text: rows.join("; ") }),
  ]);
}

// -- help --------------------------------------------------------------------------------------------
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function legend(ctx, t) {
  /** @type {(pic: Children, title: string, text: string) => HTMLElement} */
  const item = (pic, title, text) =>
    h("div", { class: "legend-item" }, [
      s("svg", { viewBox: "0 0 48 48", width: 44, height: 44, "aria-hidden": "true" }, pic),
      h("div", {}, [
        h("strong", { text: title }),
        text ? h("br") : "",
        text ? h("span", { class: "hint", text }) : "",
      ]),
    ]);
  const rows = ["gray", "orange", "green", "red", "blue"].map((c) =>
    item(
      [
        s("circle", {
          cx: 24,
          cy: 24,
          r: 19,
          fill: FIELD_FILL[c],
          stroke: FIELD_RING[c],
          "stroke-width": 4,
        }),
        fieldIcon(c, 24, 23, 22),
      ],
      t(`colour.${c}`),
      t("help.fieldType"),
    ),
  );
  rows.push(
    item(tokenBadge("chic", 24, 24, 16), t("token.chic"), t("help.chic")),
    item(tokenBadge("metro", 24, 24, 16), t("token.metro"), t("help.metro")),
    item(tokenBadge("archaeology", 24, 24, 16), t("token.archaeology"), t("help.archaeology")),
    item(
      [
        s("rect", {
          x: 10,
          y: 10,
          width: 28,
          height: 28,
          rx: 8,
          fill: ctx.colours[0],
          stroke: "#111",
          "stroke-width": 2,
          "stroke-dasharray": "5 3",
        }),
        s("text", {
          x: 24,
          y: 30,
          "text-anchor": "middle",
          class: "piece-value",
          fill: inkOn(ctx.colours[0]),
          text: "7",
        }),
      ],
      t("legend.bid"),
      t("help.bid"),
    ),
    item(
      [
        s("rect", {
          x: 10,
          y: 10,
          width: 28,
          height: 28,
          rx: 3,
          fill: ctx.colours[1],
          stroke: "#111",
          "stroke-width": 2.5,
        }),
        s("text", {
          x: 24,
          y: 30,
          "text-anchor": "middle",
          class: "piece-value",
          fill: inkOn(ctx.colours[1]),
          text: "12",
        }),
      ],
      t("legend.built"),
      t("help.built"),
    ),
    item([s("line", { x1: 4, y1: 24, x2: 44, y2: 24, class: "bridge" })], t("bridge"), ""),
    item([s("ellipse", { cx: 24, cy: 24, rx: 20, ry: 11, class: "lake" })], t("lake"), ""),
    item([s("polygon", { points: "24,12 34,34 14,34", class: "statue" })], t("statue"), ""),
  );
  return h("div", { class: "legend" }, rows);
}

/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function rules(ctx, t) {
  const lines = t("rules.text").split("\n");
  return h("div", { class: "rules-text" }, [
    h(
      "ul",
      {},
      lines.map((line) => h("li", { text: line })),
    ),
  ]);
}

// -- the lobby's card ----------------------------------------------------------------------------
// How long a game takes, in minutes (a typical range), for the lobby's card of the game.
export const ABOUT = { minutes: [45, 60] };

// The lobby's picture of the game: a corner of the city by a lake, its neighbourhoods joined by
// streets, one built on, one bid on, one with a token, drawn with the table's own pieces. It
// is decoration: the card says in words what the game is.
export function picture() {
  const W = 232,
    H = 160;
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "game-picture m-picture",
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 10, class: "water" }));
  /**
   * @type {{x: number, y: number, colour: string, district: string, token?: Token,
   *   building?: {player: number, value: number}}[]}
   */
  const fields = [
    { x: 40, y: 44, colour: "orange", district: "north" },
    { x: 96, y: 30, colour: "red", district: "north", building: { player: 0, value: 7 } },
    { x: 152, y: 50, colour: "green", district: "east", token: "chic" },
    { x: 62, y: 112, colour: "blue", district: "center", building: { player: 1, value: 3 } },
    { x: 190, y: 112, colour: "gray", district: "east" },
  ];
  for (const f of fields)
    svg.append(s("circle", { cx: f.x, cy: f.y, r: 40, fill: DISTRICT_TINTS[f.district] }));
  svg.append(s("ellipse", { cx: 128, cy: 114, rx: 30, ry: 16, class: "lake" }));
  for (const [a, b] of [
    [0, 1],
    [1, 2],
    [0, 3],
    [2, 4],
  ])
    svg.append(
      s("line", {
        x1: fields[a].x,
        y1: fields[a].y,
        x2: fields[b].x,
        y2: fields[b].y,
        class: "street",
      }),
    );
  svg.append(s("polygon", { points: "120,72 127,86 113,86", class: "statue" }));
  const ctx = { colours: PLAYER_COLOURS, marker: () => null };
  for (const f of fields) {
    svg.append(
      s("circle", {
        cx: f.x,
        cy: f.y,
        r: R,
        fill: FIELD_FILL[f.colour],
        stroke: FIELD_RING[f.colour],
        "stroke-width": 3,
      }),
    );
    if (f.building)
      svg.append(
        buildingPiece(ctx, f.x, f.y, { ...f.building, built: f.building.player === 1 }, false),
        kindBadge(f.colour, f.x + R - 4, f.y + R - 4),
      );
    else svg.append(fieldIcon(f.colour, f.x, f.y - 1, 20));
    if (f.token) svg.append(tokenBadge(f.token, f.x + R - 3, f.y - R + 3, 8.5));
  }
  return svg;
}
