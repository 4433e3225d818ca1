// The board's own scrolling boxes: a Saboteur maze or a Mountain King board wider than a phone
// scrolls sideways inside its box, not the page. A box drawn anew after every move would start at its
// left edge again; this keeps it where the reader had it, and fades the edge of a box on the side
// that hides more of the board (nothing showed that Saboteur's maze went on to its goals, out of
// sight), for every game's renderer alike.

const FADES = ["more-left", "more-right"];

/** The board's boxes, by class and order among boxes of that class: a redraw's box has the same key. */
function keyed(board) {
  const seen = new Map();
  const boxes = new Map();
  for (const el of board.querySelectorAll("div")) {
    const kind = [...el.classList].filter((c) => !FADES.includes(c)).join(" ");
    const n = seen.get(kind) || 0;
    seen.set(kind, n + 1);
    boxes.set(`${kind}/${n}`, el);
  }
  return boxes;
}

/** Draw the board with `draw()`, each box scrolled back to where the reader had it. */
export function keepScroll(board, draw) {
  const scrolled = [...keyed(board)].filter(([, el]) => el.scrollLeft || el.scrollTop)
    .map(([key, el]) => [key, el.scrollLeft, el.scrollTop]);
  draw();
  const boxes = scrolled.length ? keyed(board) : new Map();
  for (const [key, left, top] of scrolled) {
    const el = boxes.get(key);
    if (el) Object.assign(el, {scrollLeft: left, scrollTop: top});
  }
  edgeHints(board);
}

/** Mark the sides of a box that hide more of the board: its edge fades out there (web.css). */
function hint(box) {
  box.classList.toggle("more-left", box.scrollLeft > 1);
  box.classList.toggle("more-right", box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
}

// A box's width settles as the panels beside the board are drawn, and changes when a phone is turned.
const resized = typeof ResizeObserver === "function" ? new ResizeObserver((seen) => seen.forEach((e) => hint(e.target))) : null;

/** Every box of the board that may scroll sideways says when it does, and keeps saying it as it is
 * scrolled or resized. */
export function edgeHints(board) {
  for (const box of board.querySelectorAll("div, table")) { // a wide table scrolls in its own box on a phone too
    if (box.dataset.hinted) {
      hint(box);
      continue;
    }
    if (getComputedStyle(box).overflowX === "visible") continue;
    box.dataset.hinted = "1";
    hint(box);
    box.addEventListener("scroll", () => hint(box), {passive: true});
    if (resized) resized.observe(box);
  }
}
