// @ts-check
// The page's SDK for game clients: all that a game's web/client.js imports from the host,
//
//   import { h, s, roving, inkOn } from "/static/js/sdk.js";
//
// and the types of what the page hands a client (the table's context, the game's translator).
// A client imports nothing else of /static/js, so the page may change its other modules
// freely; what a client module exports in turn is listed at the top of app.js.

/** Build an HTML element: h(tag, attrs, children) (dom.js). */
export { h } from "./dom.js";
/** Build an SVG element: s(tag, attrs, children) (dom.js). */
export { s } from "./dom.js";
/** One Tab stop per board, the arrow keys between its pieces (roving.js). */
export { roving } from "./roving.js";
/** Black or white ink, whichever reads better on a #rrggbb colour (players.js). */
export { inkOn } from "./players.js";

/** The end screen's score pad from a game's rows: a column per seat (scoretable.js). */
export { scoreTable } from "./scoretable.js";
/** @typedef {import("./scoretable.js").ScoreRow} ScoreRow  a row of the score pad */

/** @typedef {import("./dom.js").Attrs} Attrs  what an element is built with */
/** @typedef {import("./dom.js").Children} Children  an element's children */
/** @typedef {import("./i18n.js").Translator} Translator  the game's words: t(key, params) */

/**
 * An engine event of the log: `move` is the move's index (null: the set-up).
 * @typedef {{move: number | null, key: string, params: Record<string, any>}} GameEvent
 */

/**
 * What the table hands a client's render, controls, info, describe, scorePad, legend and rules
 * (table.js). `view` is the game's view JSON for this seat; `choices` the server's legal
 * choices (null unless this seat is to move), every leaf the move text that `move` sends.
 * @typedef {object} TableContext
 * @property {any} view
 * @property {any} board  the game's board data (/api/boards/<game>)
 * @property {string[]} colours  a colour per seat (the client's PLAYER_COLOURS)
 * @property {string[]} names  the seats' names
 * @property {number | null} seat  the seat this page plays (null: watching, or a replay)
 * @property {number[]} heldSeats
 * @property {boolean} myTurn
 * @property {any} choices
 * @property {Record<string, any>} selection  what the player has chosen so far
 * @property {{move: string, choice: any} | null} hint  a suggested move, as `choices` holds it
 * @property {GameEvent[]} log  the events up to the position shown
 * @property {GameEvent[]} lastEvents  the events of the last move shown
 * @property {number} position
 * @property {number | null} lastMove
 * @property {any} result  the game's result, once finished
 * @property {boolean} finished
 * @property {boolean} replaying
 * @property {{text: string, label: string} | null} pending  a move sent, not yet answered
 * @property {string} lang
 * @property {{w: number, h: number}} size  the board's room
 * @property {(seat: number, x: number, y: number, r: number, attrs?: Attrs) => SVGElement} marker
 * @property {(seat: number) => HTMLElement} markerHtml
 * @property {(seat: number) => Children} seatHead  a seat as a narrow column's head
 * @property {(selection: Record<string, any>, focus?: string | null) => void} select
 * @property {(text: string, label: string) => void} move
 */

/**
 * What `describe` needs of the table: the seats' names and the view.
 * @typedef {{names: string[], view: any}} NarrationContext
 */
