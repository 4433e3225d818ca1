// The board's own scrolling boxes: a Saboteur maze or a Mountain King board wider than a phone
// scrolls sideways inside its box, not the page. A box drawn anew after every move would start at its
// left edge again; this keeps it where the reader had it, for every game's renderer alike.

/** The board's boxes, by class and order among boxes of that class: a redraw's box has the same key. */
function keyed(board) {
  const seen = new Map();
  const boxes = new Map();
  for (const el of board.querySelectorAll("div")) {
    const n = seen.get(el.className) || 0;
    seen.set(el.className, n + 1);
    boxes.set(`${el.className}/${n}`, el);
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
}
