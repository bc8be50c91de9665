// @ts-check
// Tiny DOM helpers: build HTML and SVG elements without a framework.
const SVGNS = "http://www.w3.org/2000/svg";

/**
 * What an element is built with: attributes (a value of null, undefined or false leaves the
 * attribute out, true sets it empty), and four special keys: `on` (event listeners), `text`
 * (its text), `dataset` (data-* attributes) and `style` (its CSS text, through the CSSOM).
 * @typedef {{
 *   on?: Record<string, (event: any) => void>,
 *   text?: string | number | null,
 *   dataset?: Record<string, string | number | boolean | null | undefined>,
 *   style?: string,
 *   [name: string]: any,
 * }} Attrs
 */

/**
 * A child: a node, text (numbers are written) or nothing (null, undefined, false).
 * @typedef {Node | string | number | boolean | null | undefined} Child
 */

/**
 * Children: a child, or lists of children to any depth.
 * @typedef {Child | ChildList} Children
 */

/** @typedef {Array<Child | ChildList>} ChildList */

/**
 * @template {Element} E
 * @param {E} el
 * @param {Attrs | null | undefined} attrs
 * @param {Children} children
 * @returns {E}
 */
function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") {
      const data = /** @type {HTMLOrSVGElement} */ (/** @type {unknown} */ (el)).dataset;
      for (const [dk, dv] of Object.entries(v))
        if (dv !== null && dv !== undefined) data[dk] = String(dv);
    } else if (k === "style") {
      // through the CSSOM: allowed by the page's CSP
      /** @type {ElementCSSInlineStyle} */ (/** @type {unknown} */ (el)).style.cssText = v;
    } else el.setAttribute(k, v === true ? "" : String(v));
  }
  const all = /** @type {Child[]} */ (/** @type {unknown[]} */ ([children]).flat(Infinity));
  for (const c of all) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Children} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

/**
 * An SVG element.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Children} [children]
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs, children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

/**
 * Remove every child of `el`; returns `el`.
 * @template {Node} N
 * @param {N} el
 * @returns {N}
 */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
