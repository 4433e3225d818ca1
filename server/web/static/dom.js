// Tiny DOM helpers, so renderers read like the markup they build.
// Text always goes in as text nodes (never innerHTML): names and event data
// come from players and must not be able to inject markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("td", {class: "n"}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same call shape as h(). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace everything inside el. */
export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** A compact table: headers is a list of strings, rows a list of lists of cells (text or nodes). Each
 * cell carries its column's header (data-label), for a table laid out a row a block on a phone. */
export function table(headers, rows, attrs = {}) {
  return h("table", {class: "compact", ...attrs},
    h("thead", {}, h("tr", {}, headers.map((name) => h("th", {}, name)))),
    h("tbody", {}, rows.map((row) => (row instanceof Node ? row
      : h("tr", {}, row.map((cell, i) => h("td", {"data-label": headers[i] || null}, cell)))))));
}

/** A titled block of a renderer's output. */
export function section(title, ...children) {
  return h("section", {class: "block"}, h("h3", {}, title), ...children);
}

/** Event data or a view fragment as one short line, for lists and tooltips. */
export function brief(value, max = 110) {
  const text = JSON.stringify(value);
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** "name (seat 2)" from the summary's seats; tolerant of missing seats. */
export function seatLabel(seats, seat) {
  if (seat === null || seat === undefined) return "—";
  const found = (seats || []).find((x) => x.seat === seat);
  return found ? `${found.name}` : `seat ${seat}`;
}
