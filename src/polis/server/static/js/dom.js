// Tiny DOM helpers: build HTML and SVG elements without a framework.
const SVGNS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "text") el.textContent = v;
    else if (k === "dataset")
      for (const [dk, dv] of Object.entries(v))
        dv !== null && dv !== undefined && (el.dataset[dk] = dv);
    else if (k === "style")
      el.style.cssText = v; // through the CSSOM: allowed by the page's CSP
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function h(tag, attrs, children) {
  return fill(document.createElement(tag), attrs, children);
}

export function s(tag, attrs, children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
