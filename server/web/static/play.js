// Playing a seat: the one board-interaction layer every game's renderer shares.
//
// What may be done comes only from GET legal-actions: each command with the
// server's label. A renderer marks the places it draws with data-place
// ("cell:1,0", "tile:r2c3", "card:P07") and says which places a command
// involves (its `places(command, view)`); this layer makes exactly the places of
// some legal command clickable (and focusable: Tab to it, Enter to pick).
// Picking a place narrows the commands to those involving it; one left is
// played, several are listed by label to choose from. Commands without a place
// (an order, a trade, a response to an attack) are played from the list; a
// renderer may group the list (its `order(command)`: below 0 always shown, e.g.
// ending a turn), draw what a move lays beside its label (its
// `figure(command, view)`) and say what the seat cannot pay for a move (its
// `lacking(command, view, content)`: the move is marked and the words follow its
// label), and reword a label (its `relabel(label, command, ctx)`: Saboteur names a seat by its
// player). A click on a place no move involves says so. No rule of any game is
// written here.
import {api} from "./api.js";
import {clear, h} from "./dom.js";
import {askRenderer, relabeled} from "./words.js";

const LIST_MAX = 60; // buttons shown at once; the filter or the board narrows the rest
const SENDING = "Your move is being sent: click again once it has landed.";
const LOADING = "Your moves are being read: click again in a moment.";

function idempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now();
}

// A browser lets a page start sound only after a click or a key on it: the AudioContext is made
// (or resumed) on the first one, never before, so a reload on your turn stays quiet, not refused.
let audio = null;
function unlockAudio() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null; // no audio here
  }
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlockAudio, {once: true, capture: true});

/** A short rising beep, where the page may play sound (after any click or key on it). */
function beep() {
  if (!audio || audio.state !== "running") return; // no gesture yet: the title and the panel still say it
  try {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.frequency.setValueAtTime(880, audio.currentTime + 0.12);
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no audio here: the title and the panel still say it
  }
}

/** The rule a refusal cites, as a link to its rules page when the server names one. */
function ruleRef(problem) {
  if (!problem.rule) return null;
  const text = `rule ${problem.rule}`;
  return problem.rule_url ? h("a", {href: problem.rule_url, class: "rule-link", target: "_blank", rel: "noopener"}, text)
    : h("span", {class: "rule"}, text);
}

export class Play {
  /**
   * `board` holds the renderer's drawing, `panel` the command list; `placesOf(command, view)`
   * is the renderer's; `onActed()` reloads the page's game after a move (or a refusal).
   */
  constructor({gameId, board, panel, say, onActed}) {
    Object.assign(this, {gameId, board, panel, say, onActed});
    this.token = null;
    this.seat = null;
    this.legal = null; // {version, commands, labels}
    this.picked = [];
    this.filter = "";
    this.placesOf = () => [];
    this.orderOf = null;
    this.figureOf = null;
    this.alikeOf = null;
    this.lackingOf = null;
    this.relabelOf = null;
    this.content = null; // the catalog's components, for `lacking`
    this.view = null;
    this.busy = false; // a move of ours is on its way to the server
    this.loading = false; // the list of our moves is being read
    this.actedOn = null; // the version our last move was sent for: a list of it (or older) is stale
    this.serial = 0; // of the newest legal-actions request
    this.title = document.title;
    this.alerted = null; // the version the "your turn" alert was given for
    this.drawn = null; // the version of the list the panel shows
    panel.tabIndex = -1; // it holds the focus while a move played with the keyboard is sent
    board.addEventListener("click", (ev) => this.onBoard(ev));
    board.addEventListener("keydown", (ev) => {
      if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest && ev.target.closest(".target")) {
        ev.preventDefault();
        this.onBoard(ev);
      }
    });
  }

  /** The page drew `summary` (and its view): fetch what this seat may do now, if anything. */
  async update({token, seat, summary, placesOf, orderOf, figureOf, alikeOf, lackingOf, relabelOf, content, title}) {
    Object.assign(this, {token, seat, placesOf: placesOf || (() => []), orderOf: orderOf || null, figureOf: figureOf || null,
      alikeOf: alikeOf || null, lackingOf: lackingOf || null, relabelOf: relabelOf || null, content: content || null,
      view: summary.view});
    this.title = title;
    this.summary = summary;
    const mine = seat !== null && summary.status === "active" && summary.active_seats.includes(seat);
    if (!mine) {
      this.legal = null;
      this.picked = [];
      this.render();
      return;
    }
    if (this.legal && this.legal.version >= summary.version) return this.render();
    this.legal = null; // never leave a stale list to click while the new one loads
    const serial = ++this.serial;
    this.loading = true; // the panel says so, and a click meanwhile is answered
    this.render();
    let legal;
    try {
      legal = await api(`/v1/games/${this.gameId}/legal-actions`, {token});
    } catch (err) {
      if (serial !== this.serial) return;
      this.loading = false;
      this.say(`Could not read your legal moves: ${err.message}`);
      return this.render();
    }
    if (serial !== this.serial) return; // a newer request answers
    this.loading = false;
    // A list older than the position shown, or of the position our last move was sent from, is stale.
    if (legal.version >= this.summary.version && !(this.actedOn !== null && legal.version <= this.actedOn)) {
      this.legal = legal;
      this.picked = [];
      this.filter = "";
    }
    this.render();
    if (this.legal && this.legal.commands.length && this.alerted !== this.legal.version) this.alert();
  }

  /** "Your turn": the tab's title, a beep, and a Notification when granted and the tab is hidden. */
  alert() {
    this.alerted = this.legal.version;
    beep();
    if (window.Notification && Notification.permission === "granted" && document.hidden) {
      try {
        new Notification("Delve: your turn", {body: this.title, tag: this.gameId});
      } catch {
        // some browsers allow notifications only from a service worker
      }
    }
  }

  /**
   * The commands still open, in the list's order: the server's, or grouped by the renderer's
   * `order(command)` (lower first, stable within a group), so a game can keep a turn's end
   * before a long run of trades that the list's cap would otherwise show instead. Commands the
   * renderer says lay alike (Saboteur's symmetric card, upright or turned) are offered once.
   */
  candidates() {
    if (!this.legal) return [];
    const seen = new Set();
    const cands = this.legal.commands.map((command, i) => ({command, label: this.label(command, this.legal.labels[i]), i}))
      .filter((c) => this.picked.every((key) => this.places(c.command).includes(key)))
      .filter((c) => {
        const key = this.alike(c.command);
        return key === null || (!seen.has(key) && seen.add(key));
      });
    if (!this.orderOf) return cands;
    const rank = (c) => Number(askRenderer(this.orderOf, c.command)) || 0;
    return cands.map((c) => ({...c, rank: rank(c)})).sort((a, b) => a.rank - b.rank || a.i - b.i);
  }

  /** A command's label as the page shows it: the server's, reworded by the renderer's `relabel(label,
   * command, ctx)` where it has one (Saboteur names seats by their players, DWARF a card once). */
  label(command, label) {
    return relabeled(label || command.type, command, {relabel: this.relabelOf},
                     {seats: this.summary ? this.summary.seats : [], content: this.content});
  }

  /** The renderer's key of what a command lays (`alike(command, view)`): commands with one key are listed once. */
  alike(command) {
    return askRenderer(this.alikeOf, command, this.view) ?? null;
  }

  places(command) {
    return askRenderer(this.placesOf, command, this.view) || [];
  }

  /** Mark the board's places of the remaining commands, and draw the list. */
  render() {
    const cands = this.candidates();
    const open = new Set();
    for (const c of cands) for (const key of this.places(c.command)) if (!this.picked.includes(key)) open.add(key);
    for (const el of this.board.querySelectorAll("[data-place]")) {
      const key = el.dataset.place;
      const target = open.has(key);
      el.classList.toggle("target", target);
      el.classList.toggle("picked", this.picked.includes(key));
      if (target) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        if (!el.getAttribute("aria-label")) el.setAttribute("aria-label", key.replace(":", " "));
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    }
    const mine = this.legal && this.legal.commands.length;
    document.title = mine ? `● Your turn — ${this.title}` : this.title;
    document.body.classList.toggle("my-turn", Boolean(mine));
    this.drawPanel(cands, open.size > 0);
  }

  /**
   * Draw the panel anew without dropping the keyboard's place: focus on a move or control of the panel
   * (the move just played with Enter) stays in it, on the same move while the list is the same, else
   * on the new list's first move (or the filter, when the list is folded), else on the panel itself
   * (while the move is sent); never on the page's top, a dozen Tabs away.
   */
  drawPanel(cands, onBoard) {
    const was = document.activeElement;
    const held = was && this.panel.contains(was);
    const listed = this.legal ? this.legal.version : null;
    const index = held && listed === this.drawn && was.dataset ? was.dataset.index : undefined;
    this.drawPanelParts(cands, onBoard);
    this.drawn = listed;
    if (!held || (this.panel.contains(document.activeElement) && document.activeElement !== this.panel)) return;
    const same = index !== undefined ? this.panel.querySelector(`button.move[data-index="${index}"]`) : null;
    const shown = [...this.panel.querySelectorAll("button.move, input, summary, button")].find((el) => el.getClientRects().length);
    (same || shown || this.panel).focus({preventScroll: true});
  }

  drawPanelParts(cands, onBoard) {
    const seat = this.seat;
    const active = this.summary && this.summary.status === "active" && seat !== null && seat !== undefined;
    if (!active) return clear(this.panel, this.rematchBox());
    const parts = [];
    if (this.legal && this.legal.commands.length) {
      parts.push(h("p", {class: "your-turn", id: "your-turn"}, "Your turn: ",
        this.picked.length ? `${cands.length} move(s) with ${this.picked.map((k) => k.replace(":", " ")).join(" + ")}` :
          onBoard ? `${cands.length} legal move(s). Click a highlighted place on the board, or choose below.`
            : `${cands.length} legal move(s): choose one below.`));
      if (this.picked.length) {
        parts.push(h("button", {type: "button", class: "unpick", onclick: () => { this.picked = []; this.render(); }},
          "Clear the selection"));
      }
      if (cands.length > 8) {
        const input = h("input", {type: "search", class: "filter", placeholder: "filter moves", value: this.filter,
          "aria-label": "filter the moves"});
        input.addEventListener("input", () => {
          this.filter = input.value;
          this.drawList(this.candidates());
        });
        parts.push(input);
      }
      // Moves the renderer ranks below 0 (ending a step or a turn) always show, outside the fold and the cap.
      const pinned = cands.filter((c) => c.rank < 0);
      if (pinned.length) parts.push(h("ol", {class: "moves pinned", id: "moves-pinned"}, pinned.map((c) => this.moveItem(c))));
      const rest = cands.length - pinned.length;
      // A long list folds away when the board can narrow it; a short one, a narrowed one, or
      // one of choices without a place on the board (an order, a response), shows.
      const list = h("ol", {class: "moves", id: "moves"});
      parts.push(onBoard && rest > 12 && !this.picked.length && !this.filter
        ? h("details", {class: "all-moves"}, h("summary", {}, `all ${rest} ${pinned.length ? "other " : ""}moves as a list`), list) : list);
      clear(this.panel, parts, this.resignBox(), this.notifyBox());
      this.drawList(cands);
    } else {
      const mine = this.summary.active_seats.includes(seat);
      clear(this.panel, h("p", {class: "muted", id: "waiting-note"}, this.busy ? "Sending your move…"
        : this.loading && mine ? "Loading your moves…" : this.summary.active_seats.length ? "Waiting for the other seats…" : "Waiting…"),
      this.resignBox(), this.notifyBox());
    }
  }

  drawList(cands) {
    const list = this.panel.querySelector("#moves");
    if (!list) return;
    const words = this.filter.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = cands.filter((c) => !(c.rank < 0) && words.every((w) => c.label.toLowerCase().includes(w)));
    clear(list, shown.slice(0, LIST_MAX).map((c) => this.moveItem(c)),
    shown.length > LIST_MAX ? h("li", {class: "muted"}, `${shown.length - LIST_MAX} more: narrow with the filter or the board`) : null);
  }

  moveItem(c) {
    const lack = this.lacking(c.command);
    return h("li", {}, h("button", {type: "button", class: lack ? "move short" : "move", "data-type": c.command.type,
      "data-index": c.i, onclick: () => this.act(c.command)}, this.figure(c.command), c.label,
    lack ? h("span", {class: "lacks"}, ` — ${lack}`) : null));
  }

  /** The renderer's words for what the seat cannot pay for a command, or null (a failing one: null). */
  lacking(command) {
    return askRenderer(this.lackingOf, command, this.view, this.content) || null;
  }

  /** The renderer's drawing of what a command lays, if it draws one (a failing drawing is left out). */
  figure(command) {
    return askRenderer(this.figureOf, command, this.view) || null;
  }

  onBoard(ev) {
    const el = ev.target.closest && ev.target.closest("[data-place].target");
    if (!el) return this.missed(ev);
    return this.pick(el, ev);
  }

  pick(el, ev) {
    if (this.busy) return this.hint(SENDING);
    this.hint("");
    const key = el.dataset.place;
    this.picked.push(key);
    const cands = this.candidates();
    // One move left: a board place plays it; a card from the hand only selects (no discard by a stray click).
    if (cands.length === 1 && (!key.startsWith("card:") || this.picked.length > 1)) return this.act(cands[0].command);
    this.render();
    const first = this.panel.querySelector("button.move");
    if (first && ev.type === "keydown") first.focus();
  }

  /** A click on a place of the board that no open move involves: say so, briefly (and why, when our
   * move is still on its way or our next moves are still being read). */
  missed(ev) {
    const place = (ev.target.closest && ev.target.closest("[data-place]")) || this.placeAt(ev);
    if (!place || place.classList.contains("picked")) return;
    if (place.classList.contains("target")) return this.pick(place, ev);
    if (this.busy) return this.hint(SENDING);
    if (this.loading && !this.legal) return this.hint(LOADING);
    if (this.legal && this.legal.commands.length) {
      const anywhere = this.board.querySelector("[data-place].target") !== null;
      this.hint(this.picked.length ? "No move there with what you picked; the highlighted places have moves (or Clear the selection)."
        : anywhere ? "No move there; the highlighted places have moves."
          : "No move there: no place on the board has one now; choose a move from the list above.");
    } else if (this.summary && this.summary.status === "active" && this.seat !== null && this.seat !== undefined) {
      this.hint("Not your turn: nothing to play there now.");
    }
  }

  /**
   * The board's place under a click that landed on none: a drawn place that is not a target lets
   * the pointer through to what lies beneath (a laid card keeps its tooltip), so a real click on an
   * empty Saboteur cell, a Mountain King space or an Indagar hex reached no place and went unanswered.
   * Found by geometry, topmost first; null for a click with no pointer position (a key, a script's).
   */
  placeAt(ev) {
    if (!ev.isTrusted || typeof ev.clientX !== "number") return null;
    const places = [...this.board.querySelectorAll("[data-place]")].reverse();
    for (const el of places) {
      if (typeof el.isPointInFill === "function" && el.getScreenCTM) {
        const ctm = el.getScreenCTM();
        if (!ctm) continue;
        if (el.isPointInFill(new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse()))) return el;
      } else {
        const r = el.getBoundingClientRect();
        if (ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom) return el;
      }
    }
    return null;
  }

  /** A short line above the board that goes away by itself (or with the next pick). */
  hint(text) {
    clearTimeout(this.hintTimer);
    let line = this.panel.querySelector("#board-hint");
    if (!text) return line && line.remove();
    if (!line) {
      line = h("p", {id: "board-hint", class: "hint", role: "status"});
      this.panel.prepend(line);
    }
    line.textContent = text;
    this.hintTimer = setTimeout(() => line.remove(), 4000);
  }

  /**
   * Send a move. While it is on its way a click is answered ("Sending your move…"), never ignored; once
   * it has landed the list it was picked from is gone, and the next one is live as soon as it is read
   * (a list of the new position read meanwhile, as the game's stream brought it, stays).
   */
  async act(command) {
    if (this.busy) return this.hint(SENDING);
    if (!this.legal) return;
    const from = this.legal.version;
    this.busy = true;
    this.panel.classList.add("busy");
    let landed = true;
    try {
      await api(`/v1/games/${this.gameId}/actions`, {method: "POST", token: this.token,
        body: {expected_version: from, command}, headers: {"Idempotency-Key": idempotencyKey()}});
      this.say("");
    } catch (err) {
      landed = false;
      this.refused(err);
    }
    this.actedOn = landed ? from : null; // a refused move leaves its position's list good to read again
    if (!this.legal || this.legal.version <= from) this.legal = null;
    this.picked = [];
    this.busy = false;
    this.panel.classList.remove("busy");
    this.render();
    await this.onActed();
  }

  refused(err) {
    if (err.status === 409) {
      this.say("Someone moved first: the board has been refreshed; choose again.");
    } else if (err.status === 422) {
      this.say(h("span", {}, `Refused (${err.code}): ${err.message} `, ruleRef(err.problem)));
    } else {
      this.say(`The move was not sent: ${err.message}`);
    }
  }

  resignBox() {
    const box = h("p", {class: "resign-box"});
    const ask = h("button", {type: "button", id: "resign", class: "danger"}, "Resign");
    ask.addEventListener("click", () => {
      const yes = h("button", {type: "button", id: "resign-confirm", class: "danger"}, "Yes, resign");
      const no = h("button", {type: "button"}, "Keep playing");
      yes.addEventListener("click", async () => {
        try {
          await api(`/v1/games/${this.gameId}/resign`, {method: "POST", token: this.token});
        } catch (err) {
          this.say(`Resign refused: ${err.message}`);
        }
        await this.onActed();
      });
      no.addEventListener("click", () => clear(box, ask));
      clear(box, "Resign this game? ", yes, " ", no);
      yes.focus();
    });
    return clear(box, ask);
  }

  notifyBox() {
    if (!window.Notification || Notification.permission !== "default") return null;
    const button = h("button", {type: "button", class: "link"}, "Notify me when it is my turn");
    button.addEventListener("click", async () => {
      await Notification.requestPermission();
      button.remove();
    });
    return h("p", {}, button);
  }

  /** After the end: play again with the same game, options, clock and seats. */
  rematchBox() {
    if (!this.summary || !["finished", "aborted"].includes(this.summary.status)) return null;
    if (this.seat === null || this.seat === undefined) return null;
    const button = h("button", {type: "button", id: "rematch"}, "Rematch");
    button.addEventListener("click", () => this.onRematch && this.onRematch());
    return h("p", {class: "rematch-box"}, button, " ",
      h("span", {class: "muted"}, "the same game and seats: bots stay, players are invited back"));
  }
}
