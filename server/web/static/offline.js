// The offline replay: open a saved export (file picker or drag and drop) and step through
// its moves with no call to any server. The record is checked in the page (record.js):
// chain, seed, and the server's signatures against the public keys this page fetched when
// it loaded (kept in localStorage, so a page opened later with the server down has them too),
// or a keys file the reader gives. Players are named as the live pages name them: each game's
// renderer and public components, loaded with the page (so a record opened later, with the server
// down, is named too), reword the server's labels ("Break bob's pick" for "Break seat 1's pick").
import {check, movesOf, parse, seatsOf} from "./record.js";
import {clear, h, table} from "./dom.js";
import {fieldWords, recordWho, relabeled, typeWords} from "./words.js";

const KEYS = "delve.keys";
const $ = (id) => document.getElementById(id);
const page = {keys: null, games: {}, record: null, game: null, seats: [], moves: [], step: 0};

async function loadKeys() {
  try {
    const resp = await fetch("/v1/audit/keys");
    if (resp.ok) {
      page.keys = await resp.json();
      localStorage.setItem(KEYS, JSON.stringify(page.keys));
    }
  } catch {
    // offline: the copy kept from an earlier visit, if any
  }
  if (!page.keys && localStorage.getItem(KEYS)) page.keys = JSON.parse(localStorage.getItem(KEYS));
  showKeys();
}

/** Every game's renderer module and public components, by game id, from this server's catalog (as
 * the viewer loads its game's); a game missing here keeps the server's labels and actor ids. */
async function loadGames() {
  const json = async (url) => {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`${url}: HTTP ${resp.status}`);
    return resp.json();
  };
  try {
    const {games} = await json("/v1/catalog");
    await Promise.all(games.map(async ({id}) => {
      try {
        const entry = await json(`/v1/catalog/${encodeURIComponent(id)}`);
        const renderer = entry.renderer ? await import(`./${encodeURIComponent(entry.renderer)}.js`) : null;
        page.games[id] = {renderer, content: entry.content || null};
      } catch (err) {
        console.error(err); // this game's records keep the server's words
      }
    }));
  } catch {
    // offline: records keep the server's words
  }
}

function showKeys() {
  $("keys-state").textContent = page.keys
    ? `Public keys of ${page.keys.server}: ${page.keys.keys.map((k) => `${k.key_id} (${k.status})`).join(", ")}`
    : "No public keys: signatures cannot be checked. Open this page once while its server runs, or give a keys file.";
}

async function openExport(file) {
  const text = await file.text();
  const parsed = parse(text);
  const verdict = await check(parsed, page.keys);
  page.record = parsed;
  const isGame = parsed.envs.length && parsed.envs[0].type === "GameCreated";
  page.moves = isGame ? movesOf(parsed.envs, verdict.labels) : [];
  page.seats = isGame ? seatsOf(parsed.envs) : [];
  page.game = (isGame && page.games[parsed.envs[0].data.game]) || {renderer: null, content: null};
  showVerdict(file.name, verdict);
  $("stepper").hidden = false;
  showGame(parsed);
  showMoves();
  const wanted = window.location.hash.match(/move=(\d+)/);
  showMove(wanted ? Number(wanted[1]) : page.moves.length);
}

function showVerdict(name, verdict) {
  const words = {ok: "verified", incomplete: "incomplete", failed: "NOT verified"};
  clear($("verdict"),
    h("p", {class: `verdict ${verdict.status}`, "data-status": verdict.status}, `${name}: ${words[verdict.status]}`),
    h("ul", {class: "checks"}, verdict.checks.map((c) =>
      h("li", {class: c.ok === true ? "ok" : c.ok === false ? "failed" : "note", "data-check": c.name}, c.text))));
}

/** The names the live pages give (words.js): the record's players, the game's actors. */
const ctx = () => ({seats: page.seats, content: page.game.content});
const who = (m) => recordWho(m, page.game.renderer, ctx());

/** A move's label reworded as the live pages word it; the server's own words stay in its title. */
function label(m, tag, attrs = {}) {
  const shown = relabeled(m.label, m.command, page.game.renderer, ctx());
  return h(tag, shown === m.label ? attrs : {...attrs, title: `as the server signed it: ${m.label}`}, shown);
}

function showGame({envs}) {
  if (!envs.length || envs[0].type !== "GameCreated") return clear($("game"));
  const created = envs[0].data;
  clear($("game"),
    h("p", {}, h("code", {}, envs[0].game_id), ` · ${created.game} · rules ${created.rules_version} · `,
      `${envs.length} events · ${page.moves.length} moves`),
    table(["seat", "name", "bot"], page.seats.map((s) => [String(s.seat), s.name || "—", s.bot || "—"])));
}

function showMoves() {
  clear($("move-list"), page.moves.map((m) => h("li", {"data-move": m.n, onclick: () => showMove(m.n)},
    h("span", {class: "seq"}, m.n), h("span", {class: "who"}, who(m)),
    label(m, "span", {class: "data"}))));
  $("move-count").textContent = `(${page.moves.length})`;
}

function showMove(n) {
  if (!page.moves.length) return clear($("move"), h("p", {class: "muted"}, "No move was played."));
  page.step = Math.max(1, Math.min(n, page.moves.length));
  const m = page.moves[page.step - 1];
  for (const li of $("move-list").children) li.classList.toggle("current", Number(li.dataset.move) === m.n);
  history.replaceState(null, "", `#move=${m.n}`);
  const seqs = m.first_seq === m.last_seq ? `seq ${m.first_seq}` : `seq ${m.first_seq}-${m.last_seq}`;
  clear($("move"),
    h("p", {class: "move-line", "data-move": m.n},
      `move ${m.n} of ${page.moves.length} · ${m.at} · ${who(m)}: `, label(m, "strong"), ` · ${seqs}`),
    h("ol", {class: "events"}, m.events.map((e) => h("li", {title: `${e.type} ${JSON.stringify(e.data, null, 1)}`,
      "data-type": e.type}, h("span", {class: "seq"}, e.seq), h("span", {class: "type"}, typeWords(e.type)),
      h("span", {class: "data"}, fieldWords(e, {nested: true}))))));
}

function bind() {
  $("file").addEventListener("change", (ev) => ev.target.files[0] && openExport(ev.target.files[0]));
  $("keys-file").addEventListener("change", async (ev) => {
    if (!ev.target.files[0]) return;
    page.keys = JSON.parse(await ev.target.files[0].text());
    showKeys();
  });
  const zone = $("drop");
  zone.addEventListener("dragover", (ev) => { ev.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (ev) => {
    ev.preventDefault();
    zone.classList.remove("over");
    if (ev.dataTransfer.files[0]) openExport(ev.dataTransfer.files[0]);
  });
  $("prev").addEventListener("click", () => showMove(page.step - 1));
  $("next").addEventListener("click", () => showMove(page.step + 1));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") showMove(page.step - 1);
    if (ev.key === "ArrowRight") showMove(page.step + 1);
  });
}

bind();
Promise.all([loadKeys(), loadGames()]).then(() => document.body.setAttribute("data-ready", "1"));
