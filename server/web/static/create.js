// The lobby's forms: a new game and a new tournament, built from the catalog
// (each game's seat range, bots and option schema), so a new game, option or
// bot appears here without a change to this page.
import {api} from "./api.js";
import {botChoices} from "./bots.js";
import {currentPlayer} from "./session.js";
import {clear, h} from "./dom.js";

/** 32 random bytes as hex: this browser's share of the seed of a game it joins. */
export function entropy() {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A value of the schema in words where the game gives none: "skipFirstPass" -> "skip first pass", "this_round" -> "this round". */
export function plainWords(value) {
  return String(value).replace(/_/g, " ").replace(/([a-z])([A-Z0-9])/g, "$1 $2").toLowerCase();
}

/** One value of an option in words: the game's (its renderer's `optionWords[name].values`), else plain words. */
function valueText(value, words) {
  return (words && words.values && words.values[value]) || plainWords(value);
}

/**
 * An option's default in words: a null default as the schema's description says what it means
 * ("Board side; null = Winter for 4-5 players ... (MK-BOARD-1)" -> "Winter for 4-5 players ..."),
 * else "the game decides"; a list or a mapping as words, not JSON.
 */
function defaultText(schema, words = null) {
  const dflt = schema.default;
  if (dflt === undefined) return "";
  if (dflt === null) {
    const meant = (schema.description || "").match(/\bnull = ([^.;]*?)(?: \([A-Z]+-[^)]*\))?(?:[.;]|$)/);
    return meant ? meant[1].trim() : "the game decides";
  }
  if (typeof dflt === "boolean") return dflt ? "yes" : "no";
  const word = (v) => (typeof v === "string" ? valueText(v, words) : typeof v === "object" && v !== null ? defaultText({default: v}) : String(v));
  if (Array.isArray(dflt)) return dflt.length ? dflt.map(word).join(", ") : "none";
  if (typeof dflt === "object") {
    const entries = Object.entries(dflt);
    return entries.length ? entries.map(([k, v]) => `${k.replace(/_/g, " ")} ${word(v)}`).join(", ") : "none";
  }
  return word(dflt);
}

/**
 * One input per option of the game's JSON Schema: enum -> select, boolean -> yes/no, number -> number. Named
 * and worded by the game where its renderer says (`optionWords`: "monsters start acting", "once every player
 * has activated a hero"), else the option's name and values in plain words; the description is the tooltip.
 */
export function optionField(name, schema, words = null) {
  const title = schema.description || "";
  const named = (words && words.label) || plainWords(name);
  const types = [].concat(schema.type || []);
  const said = defaultText(schema, words);
  if (schema.enum) {
    const select = h("select", {name: `opt-${name}`, "data-option": name, "aria-label": named},
      h("option", {value: ""}, `default${said ? ` (${said})` : ""}`),
      schema.enum.filter((v) => v !== null).map((v) => h("option", {value: JSON.stringify(v)}, valueText(v, words))));
    return h("label", {title}, `${named} `, select);
  }
  if (types.includes("boolean")) {
    const box = h("select", {name: `opt-${name}`, "data-option": name, "aria-label": named},
      h("option", {value: ""}, `default (${said || "—"})`),
      h("option", {value: "true"}, "yes"), h("option", {value: "false"}, "no"));
    return h("label", {title}, `${named} `, box);
  }
  if (types.includes("integer") || types.includes("number")) {
    return h("label", {title}, `${named} `,
      h("input", {type: "number", name: `opt-${name}`, "data-option": name, "data-number": "1", size: 5,
        min: schema.minimum, max: schema.maximum, placeholder: said, style: fits(said), "aria-label": `${named}, default: ${said}`}));
  }
  if (types.includes("string")) {
    return h("label", {title}, `${named} `,
      h("input", {name: `opt-${name}`, "data-option": name, size: 12, placeholder: said, style: fits(said), "aria-label": named}));
  }
  return null; // arrays and objects: the game's default (the API takes them; this form does not offer them)
}

/** A width that shows a field's placeholder whole ("chosen at random" was cut to "cho": a number
 * field ignores `size`), with room for a number field's arrows. */
function fits(placeholder) {
  return placeholder ? `width: ${Math.max(6, String(placeholder).length + 4)}ch` : null;
}

function readOptions(form) {
  const options = {};
  for (const el of form.querySelectorAll("[data-option]")) {
    if (el.value === "") continue;
    const name = el.dataset.option;
    options[name] = el.dataset.number ? Number(el.value) : el.tagName === "SELECT" ? JSON.parse(el.value) : el.value;
  }
  return options;
}

/** The clock's fields: a time control, then only what it takes (Fischer: minutes and an increment; per
 * move: seconds), and what a timeout does; nothing but the choice while there is no time control. */
function clockFields(prefix, kind = "") {
  const control = h("select", {name: `${prefix}clock`},
    h("option", {value: ""}, "none"), h("option", {value: "fischer"}, "Fischer: minutes + increment"),
    h("option", {value: "per_move"}, "seconds per move"));
  const minutes = h("label", {class: "clock-minutes"}, "minutes ",
    h("input", {type: "number", name: `${prefix}minutes`, value: 10, min: 0.1, step: "any", size: 4}));
  const secondsWord = h("span", {});
  const secondsBox = h("input", {type: "number", name: `${prefix}seconds`, value: 5, min: 0, size: 4});
  let typed = false; // a number the person typed stays whatever the control; else each control's own default
  secondsBox.addEventListener("input", () => { typed = true; });
  const seconds = h("label", {class: "clock-seconds"}, secondsWord, " ", secondsBox);
  const timeout = h("label", {class: "clock-timeout"}, "on timeout ", h("select", {name: `${prefix}on_timeout`},
    h("option", {value: "forfeit"}, "forfeit"), h("option", {value: "autoplay"}, "a bot moves")));
  const sync = () => {
    minutes.hidden = control.value !== "fischer";
    seconds.hidden = !control.value;
    timeout.hidden = !control.value;
    secondsWord.textContent = control.value === "per_move" ? "seconds per move" : "increment, seconds";
    if (!typed) secondsBox.value = control.value === "per_move" ? 30 : 5;
  };
  control.value = kind;
  control.addEventListener("change", sync);
  sync();
  return h("fieldset", {class: "clock-fields"}, h("legend", {}, "Clock"), h("label", {}, "time control ", control),
    minutes, seconds, timeout);
}

function readClock(form, prefix = "") {
  const kind = form.elements[`${prefix}clock`].value;
  const seconds = Number(form.elements[`${prefix}seconds`].value || 0);
  const onTimeout = form.elements[`${prefix}on_timeout`].value;
  if (kind === "fischer") {
    return {initial_s: Math.max(1, Math.round(Number(form.elements[`${prefix}minutes`].value) * 60)), increment_s: seconds,
      on_timeout: onTimeout};
  }
  if (kind === "per_move") return {per_move_s: Math.max(1, seconds), on_timeout: onTimeout};
  return null;
}

function seatRow(game, i, signedIn) {
  const kinds = [
    signedIn ? h("option", {value: "me"}, "me") : h("option", {value: "named"}, "me (a seat token)"),
    h("option", {value: "open"}, "open: anyone may join"),
    h("option", {value: "reserved"}, "reserved for a player id"),
    h("option", {value: "bot"}, "bot"),
  ];
  const kind = h("select", {name: `seat-${i}-kind`, class: "seat-kind", "aria-label": `seat ${i}`}, kinds);
  const bot = h("select", {name: `seat-${i}-bot`, class: "seat-bot", "aria-label": `seat ${i} bot`},
    botChoices(game).map((b) => h("option", {value: b.value}, b.text)));
  const player = h("input", {name: `seat-${i}-player`, placeholder: "player id", size: 12, "aria-label": `seat ${i} player id`});
  kind.value = i === 0 ? (signedIn ? "me" : "named") : "bot";
  const sync = () => {
    bot.hidden = kind.value !== "bot";
    player.hidden = kind.value !== "reserved";
  };
  kind.addEventListener("change", sync);
  sync();
  return h("div", {class: "seat-spec", "data-seat": i}, h("span", {}, `seat ${i}`), kind, bot, player);
}

function readSeats(form, count) {
  const me = currentPlayer();
  const seats = [];
  for (let i = 0; i < count; i++) {
    const kind = form.elements[`seat-${i}-kind`].value;
    if (kind === "me") seats.push({player: me.id});
    else if (kind === "named") seats.push({name: "you"});
    else if (kind === "open") seats.push({open: true});
    else if (kind === "reserved") seats.push({player: form.elements[`seat-${i}-player`].value.trim()});
    else {
      const bot = form.elements[`seat-${i}-bot`].value;
      seats.push({name: `${bot}-${i}`, bot});
    }
  }
  return seats;
}

/** Each game's option words (its renderer module's `optionWords`), by game id; a game without them has none. */
async function optionWordsOf(games) {
  const found = await Promise.all(games.map(async (g) => {
    if (!g.renderer) return [g.id, {}];
    try {
      return [g.id, (await import(`./${encodeURIComponent(g.renderer)}.js`)).optionWords || {}];
    } catch {
      return [g.id, {}];
    }
  }));
  return Object.fromEntries(found);
}

/** The new-game form for the catalog's games; creating takes the signed-in player to their seat. */
export function gameForm(form, catalog, say) {
  const byId = Object.fromEntries(catalog.games.map((g) => [g.id, g]));
  let words = {}; // game id -> its option words, once the renderers are read
  const gameSelect = h("select", {name: "game", id: "new-game"}, catalog.games.map((g) => h("option", {value: g.id}, g.title)));
  const count = h("select", {name: "seats", id: "new-seats"});
  const seatsBox = h("div", {class: "seats-box"});
  const optionsBox = h("fieldset", {class: "options"});
  const draw = () => {
    const game = byId[gameSelect.value];
    const wanted = Number(count.value) || Math.min(Math.max(game.min_players, 2), game.max_players);
    clear(count, Array.from({length: game.max_players - game.min_players + 1}, (_, k) => game.min_players + k)
      .map((n) => h("option", {value: n}, `${n} seat${n > 1 ? "s" : ""}`)));
    count.value = String(Math.min(Math.max(wanted, game.min_players), game.max_players));
    drawSeats();
    drawOptions();
  };
  const drawOptions = () => {
    const game = byId[gameSelect.value];
    const props = (game.options_schema && game.options_schema.properties) || {};
    const own = words[game.id] || {};
    // Redrawn in the game's words once they are read: what was already chosen for this game stays.
    const kept = optionsBox.dataset.game === game.id
      ? Object.fromEntries([...optionsBox.querySelectorAll("[data-option]")].map((el) => [el.dataset.option, el.value])) : {};
    clear(optionsBox, h("legend", {}, "Options (empty: the game's default; hover one for the rule)"),
      Object.entries(props).map(([name, schema]) => optionField(name, schema, own[name])));
    optionsBox.dataset.game = game.id;
    for (const el of optionsBox.querySelectorAll("[data-option]")) if (kept[el.dataset.option]) el.value = kept[el.dataset.option];
  };
  const drawSeats = () => {
    const game = byId[gameSelect.value];
    clear(seatsBox, Array.from({length: Number(count.value)}, (_, i) => seatRow(game, i, Boolean(currentPlayer()))));
  };
  gameSelect.addEventListener("change", () => { count.value = ""; draw(); });
  count.addEventListener("change", drawSeats);
  clear(form,
    h("label", {}, "Game ", gameSelect), h("label", {}, "Seats ", count),
    seatsBox, optionsBox, clockFields(""),
    h("label", {}, "Visibility ", h("select", {name: "visibility"},
      h("option", {value: "public"}, "public: in the lobby"), h("option", {value: "private"}, "private: by link only"))),
    h("p", {}, h("button", {type: "submit", id: "create-game"}, "Create the game")));
  draw();
  optionWordsOf(catalog.games).then((found) => {
    words = found;
    drawOptions();
  });
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const me = currentPlayer();
    const seats = readSeats(form, Number(count.value));
    const body = {game: gameSelect.value, seats, options: readOptions(form), visibility: form.elements.visibility.value};
    const clock = readClock(form);
    if (clock) body.clock = clock;
    try {
      const made = await api("/v1/games", {method: "POST", token: me ? me.token : null, body});
      const mine = seats.findIndex((s) => me && s.player === me.id);
      if (mine >= 0) await api(`/v1/games/${made.id}/join`, {method: "POST", token: me.token, body: {entropy: entropy(), seat: mine}});
      const named = made.seats.find((s) => s.token);
      let link = `/web/games/${encodeURIComponent(made.id)}`;
      const hash = [];
      if (named) hash.push(`token=${encodeURIComponent(named.token)}`);
      if (made.invite_token && !named && mine < 0) hash.push(`token=${encodeURIComponent(made.invite_token)}`);
      if (hash.length) link += `#${hash.join("&")}`;
      window.location.assign(link);
    } catch (err) {
      say(`The game was not created (${err.code}): ${err.message}`);
    }
  };
}

/** The new-tournament form: the signed-in player organizes it (registers, adds bots, starts). */
export function tournamentForm(form, catalog, say) {
  const gameSelect = h("select", {name: "game", id: "t-game"}, catalog.games.map((g) => h("option", {value: g.id}, g.title)));
  const sizeInput = h("input", {type: "number", name: "table_size", id: "t-size", value: 2, min: 1, max: 10, size: 3,
    style: fits("10")});
  // A table holds as many seats as the game allows: Saboteur's smallest is 3, so the form's 2 was
  // refused (bad_table_size) until the organizer read the error and typed another number. Until the
  // organizer types a size, it is the game's smallest table of two or more (a size carried over from
  // Saboteur's 3 gave a DWARF field of four a bye); a typed one is only kept within the game's seats.
  let typed = false;
  sizeInput.addEventListener("input", () => { typed = true; });
  const fitTable = () => {
    const game = catalog.games.find((g) => g.id === gameSelect.value);
    if (!game) return;
    sizeInput.min = String(game.min_players);
    sizeInput.max = String(game.max_players);
    sizeInput.title = `${game.title}: ${game.min_players}-${game.max_players} seats a table`;
    const size = typed ? Number(sizeInput.value) || 2 : 2;
    sizeInput.value = String(Math.min(Math.max(size, game.min_players), game.max_players));
  };
  gameSelect.addEventListener("change", fitTable);
  fitTable();
  clear(form,
    h("label", {}, "Name ", h("input", {name: "name", id: "t-name", size: 18, maxlength: 80, placeholder: "Friday cup"})),
    h("label", {}, "Game ", gameSelect),
    h("label", {}, "Format ", h("select", {name: "format", id: "t-format"},
      ["swiss", "round-robin", "knockout"].map((f) => h("option", {value: f}, f)))),
    h("label", {}, "Table size ", sizeInput),
    h("label", {}, "Rounds ", h("input", {type: "number", name: "rounds", id: "t-rounds", min: 1, max: 50, size: 3,
      placeholder: "by format", style: fits("by format")})),
    h("label", {}, "Starts at ", h("input", {type: "datetime-local", name: "start_at", id: "t-start"})),
    clockFields("t-", "fischer"),
    h("p", {class: "muted"}, "A tournament with players needs a clock. You organize it: register, add bots and start it on its page."),
    h("p", {}, h("button", {type: "submit", id: "create-tournament-button"}, "Create the tournament")));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const me = currentPlayer();
    if (!me) return say("Become a player first (top right): the organizer is a player.");
    const body = {game: gameSelect.value, format: form.elements.format.value, table_size: Number(form.elements.table_size.value)};
    if (form.elements.name.value.trim()) body.name = form.elements.name.value.trim();
    if (form.elements.rounds.value) body.rounds = Number(form.elements.rounds.value);
    if (form.elements.start_at.value) body.start_at = new Date(form.elements.start_at.value).toISOString();
    const clock = readClock(form, "t-");
    if (clock) body.clock = clock;
    try {
      const made = await api("/v1/tournaments", {method: "POST", token: me.token, body});
      window.location.assign(`/web/tournaments/${encodeURIComponent(made.id)}`);
    } catch (err) {
      say(`The tournament was not created (${err.code}): ${err.message}`);
    }
  };
}
