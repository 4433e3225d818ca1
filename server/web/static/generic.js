// The fallback for a game without a renderer: its view, as indented JSON.
import {clear, h} from "./dom.js";

export function renderGeneric(el, view) {
  clear(el, h("pre", {class: "json"}, JSON.stringify(view, null, 2)));
}
