// @ts-check
// A seat's marker: its colour and a shape of its own, so no seat is told apart by colour
// alone (colour-blind players, grey-scale screens). Seat i always has shape i. No board draws
// a symbol of these shapes at a marker's size (a triangle was one game's statue: seat 3 has
// a cross).
import { h, s } from "./dom.js";

export const SHAPES = ["circle", "square", "cross", "diamond"];

// The marker as an HTML element (lists, tables, buttons): a coloured shape with a dark edge.
/**
 * @param {number} seat
 * @param {string} colour
 * @returns {HTMLSpanElement}
 */
export function markerHtml(seat, colour) {
  const shape = SHAPES[seat % SHAPES.length];
  const dot = h("span", { class: `dot shape-${seat % SHAPES.length}`, dataset: { shape } });
  dot.style.background = colour; // through the CSSOM: the page's CSP forbids style attributes
  return h("span", { class: "marker", "aria-hidden": "true" }, dot);
}

// The marker drawn in an SVG board, centred on (x, y), about 2r across.
/**
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} colour
 * @param {import("./dom.js").Attrs} [attrs]
 * @returns {SVGElement}
 */
export function markerSvg(seat, x, y, r, colour, attrs = {}) {
  const shape = SHAPES[seat % SHAPES.length];
  const base = {
    fill: colour,
    stroke: "#111",
    "stroke-width": Math.max(1, r / 4),
    "stroke-linejoin": "round",
    class: "seat-marker",
    "data-shape": shape,
    ...attrs,
  };
  switch (seat % SHAPES.length) {
    case 1:
      return s("rect", {
        x: x - r * 0.85,
        y: y - r * 0.85,
        width: r * 1.7,
        height: r * 1.7,
        rx: r * 0.2,
        ...base,
      });
    case 2: {
      const a = r * 0.36; // a cross: arms a third of its width
      /** @type {[number, number][]} */
      const pts = [
        [-a, -r],
        [a, -r],
        [a, -a],
        [r, -a],
        [r, a],
        [a, a],
        [a, r],
        [-a, r],
        [-a, a],
        [-r, a],
        [-r, -a],
        [-a, -a],
      ];
      return s("polygon", {
        points: pts.map(([dx, dy]) => `${x + dx},${y + dy}`).join(" "),
        ...base,
      });
    }
    case 3:
      return s("polygon", {
        points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`,
        ...base,
      });
    default:
      return s("circle", { cx: x, cy: y, r, ...base });
  }
}

// Black or white: whichever reads better on `colour` (a #rrggbb colour).
/**
 * @param {string} colour  #rrggbb
 * @returns {"#111" | "#fff"}
 */
export function inkOn(colour) {
  const n = parseInt(colour.slice(1), 16);
  const lin = (/** @type {number} */ c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * lin(n >> 16) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? "#111" : "#fff";
}
