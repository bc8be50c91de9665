// @ts-check
// Quadropolis in the browser: construction site, architects, Urbanist, cities.
// A move is three choices (architect, spot, square of the city), all offered by the server's
// choices ({architects: [{architect, spots: [{spot, square, site, tile, targets: {square:
// move}, discard, nothing}]}]}): this module draws and never works out a rule or writes
// notation. Pointing at a spot (hover, focus or tap) marks the site square it takes and the
// squares of the city where that building may go, before anything is chosen.
import { h, s, roving, inkOn, scoreTable } from "/static/js/sdk.js";

/** @typedef {import("/static/js/sdk.js").Attrs} Attrs */
/** @typedef {import("/static/js/sdk.js").Children} Children */
/** @typedef {import("/static/js/sdk.js").Translator} Translator */
/** @typedef {import("/static/js/sdk.js").GameEvent} GameEvent */
/** @typedef {import("/static/js/sdk.js").TableContext} TableContext */

// -- the server's JSON (polis/games/quadropolis/view_json.py, scoring.py, data/mats.json) ----
/**
 * A face-up tile (TileJSON): all printed on it.
 * @typedef {object} Tile
 * @property {string} id  its id in data/tiles.json (R1-TB-01)
 * @property {string} type  tower_block, shop, ... (TYPES)
 * @property {string} code  the cell letter of the building it makes
 * @property {string | null} variant  "playground" for a park that is one
 * @property {{inhabitants: number, energy: number}} gives
 * @property {number} vp
 * @property {string | null} marking
 * @property {boolean} mayor
 * @property {string} back
 */
/**
 * What a tile's picture and words need of it: a Tile, or the lobby picture's few facts.
 * @typedef {{type: string, variant?: string | null, gives?: {inhabitants?: number,
 *   energy?: number}, vp?: number, mayor?: boolean, marking?: string | null}} TileFace
 */
/**
 * One of the 25 construction-site squares r1c1 .. r5c5 (SiteSquareJSON).
 * @typedef {{square: string, state: "empty"}
 *   | {square: string, state: "face-down", back: string | null}
 *   | {square: string, state: "face-up", tile: Tile}} SiteSquare
 */
/**
 * One of the 20 spots around the site, L1..L5, R1..R5, T1..T5, B1..B5 (SpotJSON): free, or
 * an architect on it and its player (the owner in Classic, the taker in Expert).
 * @typedef {{spot: string, selects: string | null, blocked: boolean} & (
 *   {architect: null, player: null} | {architect: number, player: number})} Spot
 */
/**
 * A built square of a city (CitySquareJSON): `tiles` are the ids built there, bottom first.
 * @typedef {{square: string, code: string, floors: number, tiles: string[]}} CitySquare
 */
/**
 * A city's score (QuadropolisRunningScoreJSON; a result's report adds its allocation).
 * `categories`: the score pad's rows (CATS), penalties negative.
 * @typedef {object} Score
 * @property {number} total
 * @property {Record<string, number>} categories
 * @property {number} inhabitants_on_buildings  the first tie-break
 * @property {number} empty_squares  the second (fewer wins)
 */
/**
 * A city's final score (ScoreReport.to_json): the score and the best use of the inhabitants
 * and energy, squares named r1c2.
 * @typedef {Score & {allocation: {inactive: string[], customers: Record<string, number>,
 *   park_energy: string[]}}} Report
 */
/**
 * The game's result (scoring.game_result): a report per player, the scores and the places.
 * @typedef {{players: Report[], scores: number[], ranking: number[][]}} Result
 */
/**
 * What one seat (or a spectator) sees of the game (QuadropolisViewJSON).
 * @typedef {object} View
 * @property {"classic" | "expert"} mode
 * @property {number} players
 * @property {number | null} player  whose view (null: a spectator)
 * @property {number} current_player  -1 once over
 * @property {string[]} moves
 * @property {Record<string, string | number | boolean>} options
 * @property {number} round  from 1
 * @property {number} rounds
 * @property {number} turn  within the round, 1 to 4
 * @property {number} action
 * @property {boolean} finished
 * @property {number} starting_player
 * @property {number} first_player
 * @property {number} mayor  the Mayor pawn's holder
 * @property {SiteSquare[]} site
 * @property {Spot[]} spots
 * @property {string | null} urbanist  its site square (null: beside the board)
 * @property {number[][] | null} architects  Classic: each player's architects left this round
 * @property {Record<string, number> | null} pool  Expert: architect number -> how many left
 * @property {{rows: string[], squares: (CitySquare | null)[]}[]} cities  squares row by row
 * @property {number[]} inhabitants
 * @property {number[]} energy
 * @property {string[]} discarded
 * @property {Score[]} running_score
 * @property {(string | null)[][]} public_rounds
 * @property {Result} [result]
 */
/**
 * What a spot's architect would take (ChoiceSpotJSON), and the moves that do it: `targets`
 * holds, for each city square the tile may go to, the move that builds it there.
 * @typedef {object} ChoiceSpot
 * @property {string} spot
 * @property {string} square  the site square it selects
 * @property {"face-up" | "face-down" | "empty"} site  what lies there
 * @property {string | null} tile  the face-up tile's id
 * @property {Record<string, string>} targets
 * @property {string | null} discard  the move that discards the tile
 * @property {string | null} nothing  the move that takes nothing
 */
/**
 * The legal moves (QuadropolisChoicesJSON): architect, then spot, then target.
 * @typedef {{architects: {architect: number, spots: ChoiceSpot[]}[]}} Choices
 */
/**
 * A city mat (data/mats.json, the board the table hands over): its squares, each with its
 * district (NW .. SE in Classic, 1 .. 5 in Expert) and, in Expert, its printed number.
 * @typedef {{size: {rows: number, cols: number}, squares: {row: number, col: number,
 *   district: string | number, square_number?: number}[]}} Mat
 */
/**
 * The table's context (sdk.js) with this game's view, choices, board and result.
 * @typedef {Omit<TableContext, "view" | "choices" | "board" | "result" | "hint"> & {
 *   view: View, choices: Choices | null, board: {classic: Mat, expert: Mat},
 *   result: Result | null, hint: {move: string, choice: Choices} | null}} Ctx
 */

// Blue, vermillion, bluish green, yellow: told apart with any colour vision (Okabe & Ito),
// and every seat has a shape of its own besides.
export const PLAYER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#F0E442"];

export const TYPES = [
  "tower_block",
  "shop",
  "public_service",
  "park",
  "factory",
  "harbor",
  "office_tower",
  "monument",
];
/** @type {Record<string, string>} a building type's colour */
export const TYPE_COLOURS = {
  tower_block: "#8fb3ea",
  shop: "#f3cf6b",
  public_service: "#c3aee6",
  park: "#97d38f",
  factory: "#c7b1a5",
  harbor: "#8fd3e6",
  office_tower: "#f0a8a0",
  monument: "#d9d9d9",
};
const INK = "#1d1d1d";
const MEEPLE = "#1f4e9c";
const BARREL = "#c62828";
/** @type {Record<string, string>} a district's tint (Classic: NW .. SE) */
const CLASSIC_TINTS = { NW: "#eef3fb", NE: "#fbf1e6", SW: "#eef8ee", SE: "#f8eef6" };
/** @type {Record<string, string>} a district's tint (Expert: 1 .. 5) */
const EXPERT_TINTS = { 1: "#ece4f7", 2: "#dff0f4", 3: "#f9e3ec", 4: "#ececec", 5: "#fbe9d8" };
const CELL = 64,
  EDGE = 52,
  CITY = 60,
  GUTTER = 16,
  SITE = 5;
// view.spots lists the spots side by side (left ends of the rows, right ends, tops of the
// columns, bottoms), five per side: a spot's index says where it is drawn.
const SIDES = /** @type {const} */ (["L", "R", "T", "B"]);

// -- small facts from names ------------------------------------------------------------------
const squareLabel = (/** @type {number} */ row, /** @type {number} */ col) => `r${row}c${col}`;
/**
 * @param {string | null | undefined} name  a square's name (r2c4)
 * @returns {{row: number, col: number} | null}
 */
function parseSquare(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name ?? "");
  return m ? { row: +m[1], col: +m[2] } : null;
}
/**
 * @param {string} name
 * @param {Translator} t
 */
function squareWords(name, t) {
  const p = parseSquare(name);
  return p ? t("square", p) : name;
}
/** @param {number} index  the spot's index in view.spots */
function spotPlace(index) {
  return { side: SIDES[Math.floor(index / SITE)], n: (index % SITE) + 1 };
}
/**
 * @param {Pick<View, "spots">} view
 * @param {string} name  a spot (L3)
 * @param {Translator} t
 */
function spotWhere(view, name, t) {
  const index = view.spots.findIndex((sp) => sp.spot === name);
  if (index < 0) return name;
  const { side, n } = spotPlace(index);
  return t(`spot.${side}`, { n });
}
/**
 * @param {number} index
 * @returns {[number, number]}
 */
function spotXY(index) {
  const { side, n } = spotPlace(index);
  const along = EDGE + (n - 0.5) * CELL,
    far = EDGE + SITE * CELL + EDGE / 2;
  /** @type {Record<string, [number, number]>} */
  const at = { L: [EDGE / 2, along], R: [far, along], T: [along, EDGE / 2], B: [along, far] };
  return at[side];
}
/**
 * @param {string} name  a site square (r2c4)
 * @returns {[number, number]}
 */
function siteXY(name) {
  const p = parseSquare(name);
  if (!p) throw new Error(`not a site square: ${name}`);
  return [EDGE + (p.col - 0.5) * CELL, EDGE + (p.row - 0.5) * CELL];
}

// Tile id -> kind of every building built so far (the log tells each one).
/** @param {GameEvent[]} log */
function builtKinds(log) {
  /** @type {Record<string, string>} */
  const kinds = {};
  for (const e of log) if (e.key === "building_built") kinds[e.params.tile] = e.params.kind;
  return kinds;
}

// The choices of the chosen architect, and of the chosen spot.
/** @param {Pick<Ctx, "choices" | "selection">} ctx */
export function chosen(ctx) {
  const { choices, selection } = ctx;
  const architect = choices?.architects.find((a) => a.architect === selection.architect) ?? null;
  const spot = architect?.spots.find((sp) => sp.spot === selection.spot) ?? null;
  return { architect, spot };
}

/**
 * @param {string} type
 * @param {string | null | undefined} variant
 * @param {Translator} t
 */
function typeName(type, variant, t) {
  return variant === "playground" ? t("type.playground") : t(`type.${type}`);
}

// Marks for the table's moves that move (static/js/motion.js): a piece's key, where it may
// come from, the frame it lies in.
/**
 * @template {HTMLElement | SVGElement} E
 * @param {E} el
 * @param {Record<string, string>} data
 * @returns {E}
 */
function moving(el, data) {
  Object.assign(el.dataset, data);
  return el;
}

/**
 * @param {View} view
 * @param {Translator} t
 */
export function progress(view, t) {
  if (view.finished) return t("finished");
  return t("progress", { round: view.round, rounds: view.rounds, turn: view.turn });
}

export function layoutKey() {
  return 0;
}

// -- pictures --------------------------------------------------------------------------------
// Each icon is drawn in a 24 x 24 box and placed with a transform.
/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {Children} children
 * @param {Attrs} [attrs]
 */
function place(x, y, size, children, attrs = {}) {
  return s(
    "g",
    {
      transform: `translate(${x - size / 2} ${y - size / 2}) scale(${size / 24})`,
      "aria-hidden": "true",
      ...attrs,
    },
    children,
  );
}

/**
 * A building type's icon (a park's variant "playground" has its own), centred on (x, y).
 * @param {string} type
 * @param {string | null | undefined} variant
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
export function typeIcon(type, variant, x, y, size) {
  const ink = { fill: INK };
  const white = { fill: "#fff" };
  let parts;
  switch (variant === "playground" ? "playground" : type) {
    case "tower_block":
      parts = [s("rect", { x: 6, y: 2, width: 12, height: 20, rx: 1, ...ink })];
      for (let r = 0; r < 4; r++)
        for (let c = 0; c < 2; c++)
          parts.push(
            s("rect", { x: 8.5 + c * 4.5, y: 4.5 + r * 4.2, width: 2.5, height: 2.5, ...white }),
          );
      break;
    case "shop":
      parts = [
        s("rect", { x: 3, y: 10, width: 18, height: 12, ...ink }),
        s("path", { d: "M2 10 L4 4 H20 L22 10 Z", ...ink }),
        s("path", { d: "M7 4 L6 10 M12 4 V10 M17 4 L18 10", stroke: "#fff", "stroke-width": 1.2 }),
        s("rect", { x: 10, y: 14, width: 4, height: 8, ...white }),
      ];
      break;
    case "public_service":
      parts = [
        s("path", { d: "M2 8 L12 2 L22 8 Z", ...ink }),
        s("rect", { x: 4, y: 9, width: 3, height: 10, ...ink }),
        s("rect", { x: 10.5, y: 9, width: 3, height: 10, ...ink }),
        s("rect", { x: 17, y: 9, width: 3, height: 10, ...ink }),
        s("rect", { x: 2, y: 19.5, width: 20, height: 2.5, ...ink }),
      ];
      break;
    case "park":
      parts = [
        s("circle", { cx: 12, cy: 9, r: 7, ...ink }),
        s("rect", { x: 10.8, y: 14, width: 2.4, height: 7, ...ink }),
        s("rect", { x: 4, y: 21, width: 16, height: 1.5, ...ink }),
      ];
      break;
    case "playground":
      parts = [
        s("path", {
          d: "M4 4 H20 M5 4 L2 22 M19 4 L22 22 M9 4 V15 M15 4 V15",
          stroke: INK,
          "stroke-width": 2,
          fill: "none",
        }),
        s("rect", { x: 7.5, y: 15, width: 9, height: 2.5, ...ink }),
      ];
      break;
    case "factory":
      parts = [
        s("path", { d: "M2 22 V11 L8 15 V11 L14 15 V11 L21 15 V22 Z", ...ink }),
        s("rect", { x: 16, y: 3, width: 3.5, height: 10, ...ink }),
        s("rect", { x: 5, y: 17, width: 3, height: 3, ...white }),
        s("rect", { x: 11, y: 17, width: 3, height: 3, ...white }),
      ];
      break;
    case "harbor":
      parts = [
        s("circle", { cx: 12, cy: 4.5, r: 2.4, fill: "none", stroke: INK, "stroke-width": 2 }),
        s("path", {
          d: "M12 7 V21 M7 10 H17 M4 14 Q5 21 12 21 Q19 21 20 14",
          fill: "none",
          stroke: INK,
          "stroke-width": 2.2,
        }),
      ];
      break;
    case "office_tower":
      parts = [
        s("path", { d: "M7 22 V7 L12 1.5 L17 7 V22 Z", ...ink }),
        s("path", { d: "M10 9 V20 M14 9 V20", stroke: "#fff", "stroke-width": 1.3 }),
      ];
      break;
    case "monument":
      parts = [
        s("path", { d: "M10 19 L10.8 6 L12 3 L13.2 6 L14 19 Z", ...ink }),
        s("rect", { x: 6, y: 19, width: 12, height: 3, ...ink }),
      ];
      break;
    default:
      parts = [s("rect", { x: 4, y: 4, width: 16, height: 16, ...ink })];
  }
  return place(x, y, size, parts);
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} [colour]
 */
export function meeple(x, y, size, colour = MEEPLE) {
  return place(x, y, size, [
    s("circle", { cx: 12, cy: 5, r: 4, fill: colour }),
    s("path", { d: "M3 23 L6.5 11 Q12 8 17.5 11 L21 23 H14.5 L12 17 L9.5 23 Z", fill: colour }),
  ]);
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} [colour]
 */
export function barrel(x, y, size, colour = BARREL) {
  return place(x, y, size, [
    s("rect", { x: 5, y: 2, width: 14, height: 20, rx: 4, fill: colour }),
    s("path", {
      d: "M5.5 8 H18.5 M5.5 16 H18.5",
      stroke: "#fff",
      "stroke-width": 1.3,
      opacity: 0.8,
    }),
  ]);
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {Attrs} attrs
 */
function star(x, y, r, attrs) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5,
      rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
  }
  return s("polygon", { points: pts.join(" "), ...attrs });
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function crown(x, y, size) {
  return place(x, y, size, [
    s("path", {
      d: "M2 19 L4 6 L9 12 L12 4 L15 12 L20 6 L22 19 Z",
      fill: "#ffd400",
      stroke: INK,
      "stroke-width": 1.5,
    }),
  ]);
}

/**
 * @param {number} x
 * @param {number} y
 */
function urbanistPiece(x, y) {
  return s("g", { class: "urbanist-piece", "aria-hidden": "true" }, [
    s("ellipse", { cx: x, cy: y + 13, rx: 13, ry: 4, fill: "#0004" }),
    s("path", {
      d: `M${x - 10} ${y + 13} L${x - 5} ${y - 2} H${x + 5} L${x + 10} ${y + 13} Z`,
      fill: "#222",
      stroke: "#fff",
      "stroke-width": 2,
    }),
    s("circle", { cx: x, cy: y - 8, r: 7, fill: "#222", stroke: "#fff", "stroke-width": 2 }),
  ]);
}

// An architect on a spot: the player's colour, the number, and the player's shape beside.
/**
 * @param {{colours: string[], marker: (seat: number, x: number, y: number, r: number) =>
 *   Element | null}} ctx  the table's (the lobby's picture draws no marker)
 * @param {number} x
 * @param {number} y
 * @param {number} k  the architect's number
 * @param {number} player
 */
function architectPiece(ctx, x, y, k, player) {
  const colour = ctx.colours[player] ?? "#999";
  return s("g", { class: "architect-piece", "aria-hidden": "true" }, [
    s("rect", {
      x: x - 15,
      y: y - 15,
      width: 30,
      height: 30,
      rx: 7,
      fill: colour,
      stroke: "#111",
      "stroke-width": 2,
    }),
    s("text", {
      x,
      y: y + 6,
      "text-anchor": "middle",
      class: "arch-num",
      fill: inkOn(colour),
      text: k,
    }),
    ctx.marker(player, x + 14, y - 14, 6),
  ]);
}

// What a face-up tile says, in words (tooltips, screen readers).
/**
 * @param {TileFace} tile
 * @param {Translator} t
 */
function tileWords(tile, t) {
  const parts = [typeName(tile.type, tile.variant, t)];
  const gives = [];
  if (tile.gives?.inhabitants) gives.push(t("res.inhabitants", { n: tile.gives.inhabitants }));
  if (tile.gives?.energy) gives.push(t("res.energy", { n: tile.gives.energy }));
  if (gives.length) parts.push(t("gives", { what: gives.join(", ") }));
  if (tile.vp) parts.push(t("printedVp", { n: tile.vp }));
  if (tile.mayor) parts.push(t("mayorTile"));
  return parts.join("; ");
}

/**
 * @param {TileFace} tile
 * @param {Translator} t
 */
function tileTip(tile, t) {
  return `${tileWords(tile, t)}\n${t(`help.${tile.variant === "playground" ? "playground" : tile.type}`)}`;
}

// A face-up tile: its type's colour and icon, resources it gives, printed points, Mayor.
/**
 * @param {TileFace} tile
 * @param {number} x
 * @param {number} y
 * @param {number} w  its width and height
 */
export function tileGroup(tile, x, y, w) {
  const g = s("g", { class: `tile ${tile.type}` });
  g.append(
    s("rect", {
      x: x + 3,
      y: y + 3,
      width: w - 6,
      height: w - 6,
      rx: 7,
      fill: TYPE_COLOURS[tile.type],
      stroke: "#333",
      "stroke-width": 1.2,
    }),
  );
  g.append(typeIcon(tile.type, tile.variant, x + w / 2, y + w / 2 + 4, w * 0.46));
  let gx = x + 12;
  if (tile.gives?.inhabitants) {
    g.append(
      meeple(gx, y + 13, 13),
      s("text", { x: gx + 8, y: y + 18, class: "res-n", text: tile.gives.inhabitants }),
    );
    gx += 20;
  }
  if (tile.gives?.energy) {
    g.append(
      barrel(gx, y + 13, 13),
      s("text", { x: gx + 8, y: y + 18, class: "res-n", text: tile.gives.energy }),
    );
  }
  if (tile.vp) {
    g.append(
      star(x + w - 14, y + w - 14, 10, { fill: "#ffd400", stroke: INK, "stroke-width": 1 }),
      s("text", {
        x: x + w - 14,
        y: y + w - 10.5,
        "text-anchor": "middle",
        class: "vp-n",
        text: tile.vp,
      }),
    );
  }
  if (tile.mayor) g.append(crown(x + w - 14, y + 14, 16));
  if (tile.marking)
    g.append(s("text", { x: x + 8, y: y + w - 8, class: "marking", text: tile.marking }));
  return g;
}

// A face-down tile: a dark back, hatched (it is out of play). Its back's printed round ("#1")
// is not drawn: it read as Architect #1.
/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function faceDown(x, y, size) {
  const g = s("g", { class: "face-down-tile", "aria-hidden": "true" }, [
    s("rect", { x, y, width: size, height: size, rx: 7, class: "face-down" }),
  ]);
  for (let d = size / 5; d < 1.75 * size; d += size / 5) {
    g.append(
      s("line", {
        x1: x + Math.max(0, d - size) + 2,
        y1: y + Math.min(d, size) - 2,
        x2: x + Math.min(d, size) - 2,
        y2: y + Math.max(0, d - size) + 2,
        class: "face-down-hatch",
      }),
    );
  }
  return g;
}

// -- the construction site --------------------------------------------------------------------
/**
 * @param {SiteSquare} sq
 * @param {Translator} t
 */
function siteSquareLabel(sq, t) {
  const where = squareWords(sq.square, t);
  if (sq.state === "face-up") return `${where}: ${tileWords(sq.tile, t)}`;
  if (sq.state === "face-down") return `${where}: ${t("faceDown")}`;
  return `${where}: ${t("emptySquare")}`;
}

// What an architect would take from a spot, in words.
/**
 * @param {ChoiceSpot | null | undefined} entry
 * @param {Pick<View, "site">} view
 * @param {Translator} t
 */
export function takesWords(entry, view, t) {
  if (!entry) return "";
  if (entry.site === "face-up") {
    const sq = view.site.find((sq) => sq.square === entry.square);
    const tile = sq?.state === "face-up" ? sq.tile : null;
    return t("takes", {
      what: tile ? typeName(tile.type, tile.variant, t) : entry.tile,
      square: squareWords(entry.square, t),
    });
  }
  return t(entry.site === "face-down" ? "takesFaceDown" : "takesEmpty", {
    square: squareWords(entry.square, t),
  });
}

/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
function siteSvg(ctx, t) {
  const { view, selection } = ctx;
  const size = SITE * CELL + 2 * EDGE;
  const svg = s("svg", {
    viewBox: `0 0 ${size} ${size}`,
    class: "site",
    id: "site",
    role: "group",
    "aria-label": t("site"),
    dataset: { motionFrame: "site" },
  });
  svg.append(
    s("rect", {
      x: EDGE - 4,
      y: EDGE - 4,
      width: SITE * CELL + 8,
      height: SITE * CELL + 8,
      class: "site-bg",
      rx: 8,
    }),
  );
  const fresh = ctx.lastEvents.some((e) => e.key === "site_revealed");
  const taken = ctx.lastEvents.find((e) => e.key === "architect_placed")?.params.square;
  view.site.forEach((sq) => {
    const [cx, cy] = siteXY(sq.square);
    const x = cx - CELL / 2,
      y = cy - CELL / 2;
    const g = s("g", {
      class: `sq${fresh ? " fresh" : ""}${taken === sq.square ? " last" : ""}`,
      role: "img",
      "aria-label": siteSquareLabel(sq, t),
      dataset: {
        square: sq.square,
        tile: sq.state === "face-up" ? sq.tile.id : "",
        focusKey: `site-${sq.square}`,
        tip: sq.state === "face-up" ? tileTip(sq.tile, t) : siteSquareLabel(sq, t),
      },
    });
    g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: "sq-bg" }));
    if (sq.state === "face-up")
      g.append(moving(tileGroup(sq.tile, x, y, CELL), { motion: `tile-${sq.tile.id}` }));
    else if (sq.state === "face-down") g.append(faceDown(x + 5, y + 5, CELL - 10));
    g.append(
      s("rect", {
        x: x + 2,
        y: y + 2,
        width: CELL - 4,
        height: CELL - 4,
        rx: 6,
        class: "focus-ring",
      }),
    );
    g.append(
      s("rect", {
        x: x + 3,
        y: y + 3,
        width: CELL - 6,
        height: CELL - 6,
        rx: 7,
        class: "mark-ring",
      }),
    );
    svg.append(g);
  });
  const at = view.site.find((sq) => sq.square === view.urbanist);
  if (at) {
    const [x, y] = siteXY(at.square);
    svg.append(
      s(
        "g",
        {
          id: "urbanist",
          role: "img",
          dataset: { motion: "urbanist", motionEnter: "pop" },
          "aria-label": t("urbanistAt", { square: squareWords(at.square, t) }),
        },
        urbanistPiece(x + 18, y + 14),
      ),
    );
  }
  // the path from the pointed spot to the square it takes (drawn on hover, focus or choice)
  const layer = s("g", { id: "preview-layer", "aria-hidden": "true" });
  svg.append(layer);
  const { architect, spot: chosenSpot } = chosen(ctx);
  const offered = new Map((architect?.spots ?? []).map((sp) => [sp.spot, sp]));
  const placed = ctx.lastEvents.find((e) => e.key === "architect_placed")?.params.spot;
  // the spot of a suggested move (hint.js), shown once its architect is chosen
  const hint = ctx.hint?.choice?.architects?.[0];
  const hintedSpot = hint && architect?.architect === hint.architect ? hint.spots[0]?.spot : null;
  view.spots.forEach((spot, index) => {
    const [x, y] = spotXY(index);
    const entry = offered.get(spot.spot);
    const picked = selection.spot === spot.spot;
    const cls = [
      "spot",
      entry ? "legal" : "",
      spot.blocked ? "blocked" : "",
      picked ? "chosen" : "",
      placed === spot.spot ? "last" : "",
      entry && hintedSpot === spot.spot ? "hinted" : "",
    ]
      .filter(Boolean)
      .join(" ");
    let label = spotWhere(view, spot.spot, t);
    if (spot.architect)
      label += ` — ${t("spotTaken", { k: spot.architect, name: ctx.names[spot.player] ?? "" })}`;
    else if (spot.blocked) label += ` — ${t("blocked")}`;
    if (entry) label += ` — ${takesWords(entry, view, t)}`;
    if (entry && hintedSpot === spot.spot) label += ` — ${t("hint.title")}`;
    const g = s("g", {
      class: cls,
      role: "button",
      "aria-label": label,
      "aria-disabled": entry ? null : "true",
      "aria-pressed": entry ? String(picked) : null,
      dataset: {
        spot: spot.spot,
        focusKey: `spot-${spot.spot}`,
        preferred: entry && (picked || !selection.spot) ? "" : null,
        tip: label,
      },
    });
    const horizontal = index < 2 * SITE;
    const [hw, hh] = horizontal ? [EDGE, CELL] : [CELL, EDGE];
    g.append(s("rect", { x: x - hw / 2, y: y - hh / 2, width: hw, height: hh, class: "hit" }));
    if (spot.architect) {
      // it comes from the button it was chosen with, else its player's supply (or the pool)
      const k = spot.architect;
      const from = [`archchip-${spot.player}-${k}`, `archpool-${k}`];
      if (spot.player === ctx.seat) from.unshift(`archbtn-${k}`);
      g.append(
        moving(architectPiece(ctx, x, y, k, spot.player), {
          motion: `arch@${spot.spot}`,
          motionFrom: from.join(" "),
        }),
      );
    } else {
      g.append(s("circle", { cx: x, cy: y, r: 13, class: "spot-free" }));
      if (spot.blocked)
        g.append(
          s("path", {
            d: `M${x - 6} ${y - 6} L${x + 6} ${y + 6} M${x + 6} ${y - 6} L${x - 6} ${y + 6}`,
            class: "blocked-x",
          }),
        );
    }
    g.append(
      s("rect", {
        x: x - hw / 2 + 2,
        y: y - hh / 2 + 2,
        width: hw - 4,
        height: hh - 4,
        rx: 6,
        class: "focus-ring",
      }),
    );
    if (entry) {
      g.addEventListener("click", () => {
        const focus = Object.keys(entry.targets).length
          ? "#my-city .cell.legal"
          : entry.discard
            ? "#discard"
            : "#take-nothing";
        ctx.select({ ...selection, spot: spot.spot }, focus);
      });
      const show = () => preview(svg, ctx, entry, spot.spot, t);
      const hide = () => preview(svg, ctx, chosenSpot, selection.spot, t);
      g.addEventListener("pointerenter", show);
      g.addEventListener("focus", show);
      g.addEventListener("pointerleave", hide);
      g.addEventListener("blur", hide);
    }
    svg.append(g);
  });
  if (chosenSpot) queueMicrotask(() => preview(svg, ctx, chosenSpot, selection.spot, t));
  return svg;
}

// Mark the site square a spot's architect takes, the path to it, and (in the player's city)
// where that building may go; with no entry, clear the marks.
/**
 * @param {SVGSVGElement} svg  the site
 * @param {Ctx} ctx
 * @param {ChoiceSpot | null} entry
 * @param {string | undefined} spotName
 * @param {Translator} t
 */
function preview(svg, ctx, entry, spotName, t) {
  const layer = svg.querySelector("#preview-layer");
  if (!layer) return;
  while (layer.firstChild) layer.firstChild.remove();
  for (const el of svg.querySelectorAll(".sq.marked"))
    el.classList.remove("marked", "takes", "nothing");
  const root = svg.closest(".q-wrap") ?? document;
  for (const el of root.querySelectorAll(".cell.preview")) el.classList.remove("preview");
  const note = document.getElementById("takes-note");
  if (!entry) {
    if (note) note.textContent = "";
    return;
  }
  const index = ctx.view.spots.findIndex((sp) => sp.spot === spotName);
  const [x1, y1] = spotXY(index);
  const [x2, y2] = siteXY(entry.square);
  const takes = entry.site === "face-up";
  layer.append(s("line", { x1, y1, x2, y2, class: `take-path${takes ? "" : " nothing"}` }));
  const square = svg.querySelector(`.sq[data-square="${entry.square}"]`);
  square?.classList.add("marked", takes ? "takes" : "nothing");
  if (!takes)
    layer.append(
      s("text", { x: x2, y: y2 + 6, "text-anchor": "middle", class: "nothing-mark", text: "∅" }),
    );
  for (const name of Object.keys(entry.targets))
    root.querySelector(`#my-city .cell[data-target="${name}"]`)?.classList.add("preview");
  if (note) note.textContent = takesWords(entry, ctx.view, t);
}

// -- the cities --------------------------------------------------------------------------------
/**
 * @param {Ctx} ctx
 * @param {number} p
 * @param {string} name  the city square
 * @param {CitySquare | null} b  what is built there
 * @param {string} type  its building's type
 * @param {string | undefined} move  the move that builds there
 * @param {Translator} t
 */
function cellLabel(ctx, p, name, b, type, move, t) {
  let text = squareWords(name, t);
  if (b) {
    text += `: ${typeName(type, b.code === "p" ? "playground" : null, t)}`;
    if (b.floors > 1) text += `, ${t("floors", { n: b.floors })}`;
  } else text += `: ${t("emptySquare")}`;
  if (move) text += ` — ${t("buildHere")}`;
  return text;
}

/**
 * @param {Ctx} ctx
 * @param {number} p  whose city
 * @param {Record<string, string>} kinds  tile id -> type, of the buildings built
 * @param {Translator} t
 */
function citySvg(ctx, p, kinds, t) {
  const { view, board } = ctx;
  const mats = board[view.mode];
  const rows = mats.size.rows,
    cols = mats.size.cols;
  const expert = view.mode === "expert";
  const W = GUTTER + cols * CITY + 4,
    H = GUTTER + rows * CITY + 4;
  const mine = p === ctx.seat;
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "city-grid",
    id: mine ? "my-city" : `city-${p}`,
    role: "group",
    "aria-label": t("cityOf", { name: ctx.names[p] }),
    dataset: { motionFrame: `city-${p}` },
  });
  const alloc = ctx.result?.players?.[p]?.allocation;
  const inactive = new Set(alloc?.inactive || []);
  const spot = mine ? chosen(ctx).spot : null;
  const targets = new Map(spot ? Object.entries(spot.targets) : []);
  const built = ctx.lastEvents.find((e) => e.key === "building_built" && e.params.player === p)
    ?.params.city_square;
  const city = view.cities[p];
  const tints = expert ? EXPERT_TINTS : CLASSIC_TINTS;
  // line and column numbers (Classic: architect k builds in line k or column k)
  if (!expert) {
    for (let c = 1; c <= cols; c++)
      svg.append(
        s("text", {
          x: GUTTER + (c - 0.5) * CITY,
          y: 12,
          "text-anchor": "middle",
          class: "axis",
          text: c,
        }),
      );
    for (let r = 1; r <= rows; r++)
      svg.append(
        s("text", {
          x: 7,
          y: GUTTER + (r - 0.5) * CITY + 4,
          "text-anchor": "middle",
          class: "axis",
          text: r,
        }),
      );
  }
  const districtShown = new Set();
  for (const sq of mats.squares) {
    const name = squareLabel(sq.row, sq.col);
    const x = GUTTER + (sq.col - 1) * CITY,
      y = GUTTER + (sq.row - 1) * CITY;
    const move = targets.get(name);
    const b = city.squares[(sq.row - 1) * cols + (sq.col - 1)];
    const type = b ? kinds[b.tiles[b.tiles.length - 1]] : ""; // (used only where b is)
    const pending = move && ctx.pending?.text === move;
    const g = s("g", {
      class: `cell${move ? " legal" : ""}${built === name ? " last" : ""}${pending ? " pending" : ""}`,
      role: move ? "button" : "img",
      "aria-label": cellLabel(ctx, p, name, b, type, move, t),
      dataset: {
        target: name,
        player: p,
        focusKey: `city-${p}-${name}`,
        preferred: move ? "" : null,
        tip: b
          ? `${typeName(type, b.code === "p" ? "playground" : null, t)}${b.floors > 1 ? ` · ${t("floors", { n: b.floors })}` : ""}\n${t(`help.${b.code === "p" ? "playground" : type}`)}`
          : null,
      },
    });
    g.append(
      s("rect", { x, y, width: CITY, height: CITY, fill: tints[sq.district], class: "cell-bg" }),
    );
    if (expert) {
      g.append(s("text", { x: x + 5, y: y + 13, class: "sqnum", text: sq.square_number }));
      if (!districtShown.has(sq.district)) {
        districtShown.add(sq.district);
        g.append(
          s("text", {
            x: x + CITY - 4,
            y: y + CITY - 5,
            "text-anchor": "end",
            class: "district-n",
            text: t("districtShort", { n: sq.district }),
          }),
        );
      }
    }
    if (b) {
      const off = inactive.has(name);
      g.append(
        s("g", { class: off ? "inactive-b" : "", dataset: { motion: `tile-${b.tiles.at(-1)}` } }, [
          s("rect", {
            x: x + 5,
            y: y + 5,
            width: CITY - 10,
            height: CITY - 10,
            rx: 6,
            fill: TYPE_COLOURS[type] ?? "#bbb",
            stroke: "#333",
            "stroke-width": 1.2,
          }),
          typeIcon(
            type,
            b.code === "p" ? "playground" : null,
            x + CITY / 2 - 4,
            y + CITY / 2,
            CITY * 0.5,
          ),
        ]),
      );
      // floors: one bar each, stacked up the right-hand side
      for (let f = 0; f < b.floors; f++)
        g.append(
          s("rect", {
            x: x + CITY - 14,
            y: y + CITY - 13 - f * 8,
            width: 7,
            height: 6,
            rx: 1,
            class: "floor",
          }),
        );
      if (b.floors > 1)
        g.append(
          s("text", {
            x: x + CITY - 10.5,
            y: y + 16,
            "text-anchor": "middle",
            class: "floors-n",
            text: b.floors,
          }),
        );
      if (off)
        g.append(
          s("text", {
            x: x + CITY / 2,
            y: y + CITY - 7,
            "text-anchor": "middle",
            class: "inactive",
            text: t("inactive"),
          }),
        );
      const cust = alloc?.customers?.[name];
      if (cust)
        g.append(
          meeple(x + 12, y + CITY - 13, 12),
          s("text", { x: x + 19, y: y + CITY - 8, class: "res-n", text: `×${cust}` }),
        );
      if (alloc?.park_energy?.includes(name)) g.append(barrel(x + 12, y + CITY - 13, 12));
    }
    g.append(
      s("rect", {
        x: x + 3,
        y: y + 3,
        width: CITY - 6,
        height: CITY - 6,
        rx: 6,
        class: "target-ring",
      }),
    );
    g.append(
      s("rect", {
        x: x + 2,
        y: y + 2,
        width: CITY - 4,
        height: CITY - 4,
        rx: 6,
        class: "focus-ring",
      }),
    );
    if (move && spot)
      g.addEventListener("click", () => ctx.move(move, moveLabel(ctx, spot, name, t)));
    svg.append(g);
  }
  return svg;
}

/**
 * @param {Ctx} ctx
 * @param {ChoiceSpot} entry
 * @param {string} target  a city square, "discard" or "nothing"
 * @param {Translator} t
 */
function moveLabel(ctx, entry, target, t) {
  const k = ctx.selection.architect;
  const where = spotWhere(ctx.view, entry.spot, t);
  if (target === "discard")
    return t("label.discard", { k, where, what: takesWords(entry, ctx.view, t) });
  if (target === "nothing") return t("label.nothing", { k, where });
  return t("label.build", {
    k,
    where,
    what: takesWords(entry, ctx.view, t),
    square: squareWords(target, t),
  });
}

/**
 * @param {View} view
 * @param {number} p
 * @param {Translator} t
 */
function resources(view, p, t) {
  return h(
    "span",
    {
      class: "res-line",
      role: "img",
      "aria-label": t("resources", { inh: view.inhabitants[p], en: view.energy[p] }),
      dataset: { tip: t("resources", { inh: view.inhabitants[p], en: view.energy[p] }) },
    },
    [
      iconSvg(meeple(12, 12, 22)),
      h("span", { text: view.inhabitants[p] }),
      iconSvg(barrel(12, 12, 22)),
      h("span", { text: view.energy[p] }),
    ],
  );
}

/**
 * @param {Children} child
 * @param {number} [size]
 */
function iconSvg(child, size = 20) {
  return s(
    "svg",
    { viewBox: "0 0 24 24", width: size, height: size, class: "icon", "aria-hidden": "true" },
    child,
  );
}

/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function render(ctx, t) {
  const { view, names } = ctx;
  const kinds = builtKinds(ctx.log);
  // once over, the cities are what counts: drawn large, the empty site left out
  const wrap = h("div", { class: `q-wrap${view.finished ? " ended" : ""}` });
  const fresh = ctx.lastEvents.find((e) => e.key === "site_revealed");
  if (!view.finished)
    wrap.append(
      h("div", { class: "site-box" }, [
        h("h3", { text: t("site") }),
        fresh
          ? h("p", {
              class: "round-note",
              role: "note",
              text: t("siteRefilled", { round: fresh.params.round }),
            })
          : "",
        siteSvg(ctx, t),
      ]),
    );
  const order = [...Array(view.players).keys()];
  if (ctx.seat !== null && ctx.seat !== undefined)
    order.sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  const cities = h("div", { class: "cities" });
  for (const p of order) {
    const report = ctx.result?.players?.[p];
    const mine = p === ctx.seat;
    cities.append(
      h(
        "div",
        {
          class: `city${mine ? " mine" : ""}${view.current_player === p ? " to-move" : ""}`,
          dataset: { player: p },
        },
        [
          h("div", { class: "city-head" }, [
            ctx.markerHtml(p),
            h("strong", { text: names[p] }),
            view.mayor === p
              ? h(
                  "span",
                  {
                    class: "mayor",
                    role: "img",
                    "aria-label": t("mayor"),
                    dataset: { tip: t("mayor") },
                  },
                  iconSvg(crown(12, 12, 22)),
                )
              : "",
            resources(view, p, t),
            runningScore(ctx, p, t) ??
              (report
                ? h("span", { class: "total", text: `${report.total} ${t("score.vp")}` })
                : ""),
          ]),
          citySvg(ctx, p, kinds, t),
          view.architects && !view.finished
            ? h("div", { class: "arch-left" }, [
                t("architectsLeft"),
                " ",
                view.architects[p].map((k) =>
                  h("span", {
                    class: "arch-chip",
                    "aria-label": t("architect", { n: k }),
                    dataset: { motionAt: `archchip-${p}-${k}` },
                    text: k,
                  }),
                ),
              ])
            : "",
        ],
      ),
    );
  }
  wrap.append(cities);
  for (const svg of wrap.querySelectorAll("svg.site, svg.city-grid"))
    roving(svg, svg.id === "site" ? ".spot, .sq" : ".cell");
  return wrap;
}

// Beside the board, while another seat moves: the architects left in the Expert pool (on its
// turn the seat's architect buttons say it).
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function notes(ctx, t) {
  const { view, choices } = ctx;
  const out = [];
  const pool = view.pool
    ? Object.fromEntries(Object.entries(view.pool).map(([k, n]) => [Number(k), n]))
    : null;
  if (!choices) {
    if (pool && !view.finished)
      out.push(
        h("p", { class: "pool" }, [
          t("pool"),
          " ",
          ...Object.entries(pool).map(([k, n]) =>
            h("span", {
              class: "arch-chip pool",
              dataset: { motionAt: `archpool-${k}` },
              text: `#${k} ×${n}`,
            }),
          ),
        ]),
      );
  }
  return out;
}

// The prompt bar's step (promptbar.js): what to do now, what the chosen spot takes, and the
// buttons (the architects, discard, take nothing, cancel).
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function prompt(ctx, t) {
  const { view, choices, selection, seat } = ctx;
  if (!choices || seat === null) return null; // (called only while this seat may move)
  const out = [];
  const pool = view.pool
    ? Object.fromEntries(Object.entries(view.pool).map(([k, n]) => [Number(k), n]))
    : null;
  const { architect, spot } = chosen(ctx);
  let step;
  if (!architect) step = t("chooseArchitect");
  else if (!spot) step = t("chooseSpot");
  else if (Object.keys(spot.targets).length)
    step = spot.discard ? t("chooseTarget") : t("chooseTargetOnly");
  else if (spot.discard) step = t("onlyDiscard");
  else step = t(spot.site === "face-down" ? "onlyNothingFaceDown" : "onlyNothing");
  out.push(
    h(
      "div",
      { class: "architects", role: "group", "aria-label": t("architects") },
      choices.architects.map(({ architect: k }) => {
        const colour = pool ? "#8a8a8a" : ctx.colours[seat];
        const hinted = ctx.hint?.choice?.architects?.[0]?.architect === k; // a suggested move's (hint.js)
        const label =
          (pool ? t("architectPool", { n: k, left: pool[k] }) : t("architect", { n: k })) +
          (hinted ? ` — ${t("hint.title")}` : "");
        const face = h("span", { class: "arch-face", text: k });
        face.style.background = colour;
        face.style.color = inkOn(colour);
        return h(
          "button",
          {
            class: `architect${selection.architect === k ? " chosen" : ""}${hinted ? " hinted" : ""}`,
            dataset: { architect: k, focusKey: `arch-${k}`, tip: label, motionAt: `archbtn-${k}` },
            "aria-pressed": String(selection.architect === k),
            "aria-label": label,
            on: { click: () => ctx.select({ architect: k }, "#site .spot.legal") },
          },
          [
            face,
            pool
              ? h("span", { class: "arch-left-n", "aria-hidden": "true", text: `×${pool[k]}` })
              : "",
          ],
        );
      }),
    ),
  );
  // (a line once an architect is chosen: a spot's preview fills it on hover)
  const note = architect
    ? h("p", { class: "takes-note", id: "takes-note", text: spot ? takesWords(spot, view, t) : "" })
    : null;
  if (architect) {
    const bar = h("div", { class: "row" });
    const { discard, nothing } = spot ?? {};
    if (spot && discard)
      bar.append(
        h("button", {
          id: "discard",
          text: t("discard"),
          on: { click: () => ctx.move(discard, moveLabel(ctx, spot, "discard", t)) },
        }),
      );
    if (spot && nothing)
      bar.append(
        h("button", {
          id: "take-nothing",
          class: "primary",
          text: t("takeNothing"),
          on: { click: () => ctx.move(nothing, moveLabel(ctx, spot, "nothing", t)) },
        }),
      );
    bar.append(
      h("button", {
        id: "cancel",
        text: t("ui.cancel"),
        on: { click: () => ctx.select({}, "button.architect") },
      }),
    );
    out.push(bar);
  }
  return { step, note, actions: out };
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

// -- the log -----------------------------------------------------------------------------------
/** @param {GameEvent} event */
export function eventKind(event) {
  if (event.key === "round_started") return "round";
  if (event.key === "game_ended" || event.key === "mayor_moved") return "win";
  return "";
}

// The words of one event: the same catalogue keys and arguments as the terminal's
// (polis.games.quadropolis.render.messages), so both tell it alike.
/**
 * @param {GameEvent} event
 * @param {{names: string[], view: View}} ctx  the table's NarrationContext (sdk.js)
 * @param {Translator} t
 */
export function describe(event, ctx, t) {
  const p = event.params;
  const name = ctx.names[p.player] ?? "?";
  const tile = p.kind ? typeName(p.kind, p.code === "p" ? "playground" : null, t) : "";
  switch (event.key) {
    case "game_started":
      return t("event.game_started", {
        mode: t(`mode.${p.mode}`),
        players: p.players,
        name: ctx.names[p.first_player] ?? "?",
      });
    case "round_started":
      return t("event.round_started", { round: p.round, name: ctx.names[p.first_player] ?? "?" });
    case "site_revealed":
      return t("event.site_revealed", {
        round: p.round,
        n: p.layout.filter((/** @type {string | null} */ id) => id !== null).length,
      });
    case "architect_placed":
      return t("event.architect_placed", {
        name,
        k: p.architect,
        where: spotWhere(ctx.view, p.spot, t),
      });
    case "urbanist_moved":
      return t("event.urbanist_moved", { square: squareWords(p.square, t) });
    case "nothing_taken":
      return t("event.nothing_taken", { name, reason: t(`reason.${p.reason}`) });
    case "building_built":
      return t("event.building_built", {
        name,
        tile,
        square: squareWords(p.city_square, t),
        floors: p.floors,
      });
    case "tile_discarded":
      return t("event.tile_discarded", { name, tile });
    case "mayor_moved":
      return t("event.mayor_moved", { name });
    case "game_ended": {
      const best = p.ranking[0];
      const names = best.map((/** @type {number} */ q) => ctx.names[q] ?? "?");
      return t(best.length > 1 ? "event.game_ended_tie" : "event.game_ended", {
        names: t.list ? t.list(names) : names.join(", "),
        score: p.scores[best[0]],
      });
    }
    default: // round_ended
      return t(`event.${event.key}`, { ...p, name });
  }
}

// -- the end -----------------------------------------------------------------------------------
const CATS = [
  "tower_blocks",
  "shops",
  "public_services",
  "parks",
  "factories",
  "harbors",
  "office_towers",
  "monuments",
  "inhabitants_penalty",
  "energy_penalty",
];

// The score pad's categories in a mode: Classic has no office towers nor monuments.
/** @param {View["mode"]} mode */
export function padCategories(mode) {
  return mode === "expert" ? CATS : CATS.filter((c) => c !== "office_towers" && c !== "monuments");
}

/**
 * The score pad's rows under its head, a label and a value per city each: the categories,
 * the total, then the two tie-breaks (`cls`: the row's class).
 * @param {Score[]} scores  each city's, in seat order
 * @param {View["mode"]} mode
 * @param {Translator} t
 * @returns {{label: string, cls: "total" | "tie" | null, values: number[]}[]}
 */
export function padRows(scores, mode, t) {
  return [
    ...padCategories(mode).map((c) => ({
      label: t(`cat.${c}`),
      cls: null,
      values: scores.map((r) => r.categories[c]),
    })),
    { label: t("score.total"), cls: "total", values: scores.map((r) => r.total) },
    {
      label: t("tie.inhabitants"),
      cls: "tie",
      values: scores.map((r) => r.inhabitants_on_buildings),
    },
    { label: t("tie.empty"), cls: "tie", values: scores.map((r) => r.empty_squares) },
  ];
}

/**
 * @param {Ctx & {result: Result}} ctx  a finished game's
 * @param {Translator} t
 */
export function scorePad(ctx, t) {
  const words = { title: t("score.title"), category: t("category") };
  return scoreTable(ctx, padRows(ctx.result.players, ctx.view.mode, t), words);
}

// -- the running score ---------------------------------------------------------------------------
// Each city's score as it stands, beside its player's name: the view's running_score, worked
// out by the server with the exact scorer (the best use of the inhabitants and energy gained
// so far). Its score pad rows show on hover, on keyboard focus and on a long press (data-tip),
// and are its accessible description. The setting that hides it hides `.running-score` during
// the game (static/js/settings.js); the final score (`.final`) always shows.
/**
 * A city's running score in words: its label (the points so far, or in all once over) and
 * its score pad rows ("Shops: 4").
 * @param {Score} score
 * @param {View["mode"]} mode
 * @param {boolean} finished
 * @param {Translator} t
 */
export function runningWords(score, mode, finished, t) {
  const label = t(finished ? "running.final" : "running.label", { n: score.total });
  const rows = padCategories(mode).map((c) => `${t(`cat.${c}`)}: ${score.categories[c]}`);
  return { label, rows };
}

/**
 * @param {Ctx} ctx
 * @param {number} p
 * @param {Translator} t
 */
export function runningScore(ctx, p, t) {
  const { view } = ctx;
  const score = view.running_score?.[p];
  if (!score) return null;
  const { label, rows } = runningWords(score, view.mode, view.finished, t);
  const id = `running-score-${p}`;
  return h("span", { class: `running-score${view.finished ? " final" : ""}` }, [
    h("span", {
      class: "total",
      tabindex: "0",
      role: "img",
      "aria-label": label,
      "aria-describedby": id,
      dataset: { tip: [label, ...rows].join("\n"), seat: p },
      text: `${score.total} ${t("score.vp")}`,
    }),
    h("span", { id, hidden: true, text: rows.join("; ") }),
  ]);
}

// -- help ----------------------------------------------------------------------------------------
/**
 * @param {Ctx} ctx
 * @param {Translator} t
 */
export function legend(ctx, t) {
  const expert = ctx.view.mode === "expert";
  const types = TYPES.filter((ty) => expert || (ty !== "office_tower" && ty !== "monument"));
  /** @type {(pic: Children, title: string, text: string) => HTMLElement} */
  const item = (pic, title, text) =>
    h("div", { class: "legend-item" }, [
      s("svg", { viewBox: "0 0 48 48", width: 44, height: 44, "aria-hidden": "true" }, pic),
      h("div", {}, [h("strong", { text: title }), h("br"), h("span", { class: "hint", text })]),
    ]);
  const rows = types.map((ty) =>
    item(
      [
        s("rect", {
          x: 2,
          y: 2,
          width: 44,
          height: 44,
          rx: 7,
          fill: TYPE_COLOURS[ty],
          stroke: "#333",
        }),
        typeIcon(ty, null, 24, 25, 28),
      ],
      t(`type.${ty}`),
      t(`help.${ty}`),
    ),
  );
  rows.splice(
    4,
    0,
    item(
      [
        s("rect", {
          x: 2,
          y: 2,
          width: 44,
          height: 44,
          rx: 7,
          fill: TYPE_COLOURS.park,
          stroke: "#333",
        }),
        typeIcon("park", "playground", 24, 25, 28),
      ],
      t("type.playground"),
      t("help.playground"),
    ),
  );
  rows.push(
    item(meeple(24, 24, 34), t("res.inhabitant"), t("help.inhabitant")),
    item(barrel(24, 24, 34), t("res.energyUnit"), t("help.energy")),
    item(
      [
        star(24, 24, 18, { fill: "#ffd400", stroke: INK }),
        s("text", { x: 24, y: 29, "text-anchor": "middle", class: "vp-n", text: "2" }),
      ],
      t("legend.vp"),
      t("help.vp"),
    ),
    item(crown(24, 24, 36), t("mayor"), t("help.mayor")),
    item(urbanistPiece(24, 26), t("urbanist"), t("help.urbanist")),
    item(faceDown(6, 6, 36), t("faceDownTitle"), t("help.faceDown")),
    item(
      [
        s("rect", {
          x: 9,
          y: 9,
          width: 30,
          height: 30,
          rx: 7,
          fill: ctx.colours[0],
          stroke: "#111",
          "stroke-width": 2,
        }),
        s("text", {
          x: 24,
          y: 30,
          "text-anchor": "middle",
          class: "arch-num",
          fill: inkOn(ctx.colours[0]),
          text: "3",
        }),
      ],
      t("architects"),
      t("help.architect"),
    ),
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
// How long a game takes, in minutes (the box's range), for the lobby's card of the game.
export const ABOUT = { minutes: [30, 60] };

// The lobby's picture of the game: the corner of a Classic city with a few buildings on it (a
// tower block of two floors), an architect and the inhabitants and energy they give, drawn
// with the table's own pieces. It is decoration: the card says in words what the game is.
export function picture() {
  const W = 3 * CITY + 2 * GUTTER,
    H = 2 * CITY + 2 * GUTTER;
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "game-picture q-picture",
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: "#dfe6ee" }));
  const at = (/** @type {number} */ row, /** @type {number} */ col) => [
    GUTTER + col * CITY,
    GUTTER + row * CITY,
  ];
  for (let row = 0; row < 2; row++)
    for (let col = 0; col < 3; col++) {
      const [x, y] = at(row, col);
      svg.append(
        s("rect", {
          x,
          y,
          width: CITY,
          height: CITY,
          fill: CLASSIC_TINTS.NW,
          stroke: "#b9c3cf",
          class: "cell-bg",
        }),
      );
    }
  /** @type {[number, number, TileFace, number][]} row, column, tile, floors */
  const tiles = [
    [0, 0, { type: "tower_block", gives: { inhabitants: 2 } }, 2],
    [0, 1, { type: "shop", vp: 1 }, 1],
    [0, 2, { type: "park" }, 1],
    [1, 0, { type: "harbor", vp: 2 }, 1],
    [1, 2, { type: "factory", gives: { energy: 2 } }, 1],
  ];
  for (const [row, col, tile, floors] of tiles) {
    const [x, y] = at(row, col);
    // a floor below shows as the edge of a tile under the top one
    for (let f = 1; f < floors; f++)
      svg.append(
        s("rect", {
          x: x + 3 + 4 * f,
          y: y + 3 - 4 * f,
          width: CITY - 6,
          height: CITY - 6,
          rx: 7,
          fill: TYPE_COLOURS[tile.type],
          stroke: "#333",
          "stroke-width": 1.2,
          opacity: 0.75,
        }),
      );
    svg.append(tileGroup(tile, x, y, CITY));
  }
  const [x, y] = at(1, 1);
  svg.append(
    architectPiece(
      { colours: PLAYER_COLOURS, marker: () => null },
      x + CITY / 2,
      y + CITY / 2,
      2,
      0,
    ),
    meeple(x + 12, y + 12, 16),
    barrel(x + CITY - 12, y + CITY - 12, 16),
  );
  return svg;
}
