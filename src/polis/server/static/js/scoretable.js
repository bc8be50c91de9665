// @ts-check
// The end screen's score pad, the same for every game: a head with each seat (its marker and
// name, or the narrow column's head the table gives), then the game's rows, a label and a
// value per seat each. A game decides only its rows (categories, total, tie-breaks).
import { h } from "./dom.js";

/**
 * A row of the score pad: `cls` marks the total and the tie-breaks.
 * @typedef {{label: string, values: (string | number)[], cls?: string | null}} ScoreRow
 */

/**
 * @param {{names: string[], markerHtml: (seat: number) => HTMLElement,
 *   seatHead?: (seat: number) => import("./dom.js").Children}} ctx  the table's context
 * @param {ScoreRow[]} rows
 * @param {{title: string, category: string}} words  the game's: the table's caption, the
 *   head of the labels' column
 * @returns {HTMLTableElement}
 */
export function scoreTable(ctx, rows, words) {
  const table = /** @type {HTMLTableElement} */ (h("table", { class: "scorepad", id: "scorepad" }));
  table.append(h("caption", { class: "visually-hidden", text: words.title }));
  table.append(
    h("tr", {}, [
      h("th", { scope: "col", text: words.category }),
      ...ctx.names.map((n, i) =>
        h("th", { scope: "col" }, ctx.seatHead ? ctx.seatHead(i) : [ctx.markerHtml(i), n]),
      ),
    ]),
  );
  for (const row of rows)
    table.append(
      h("tr", { class: row.cls }, [
        h("th", { scope: "row", text: row.label }),
        ...row.values.map((v) => h("td", { text: v })),
      ]),
    );
  return table;
}
