// The offline replay: open a saved export (file picker or drag and drop) and step through
// its moves with no call to any server. The record is checked in the page (record.js):
// chain, seed, and the server's signatures against the public keys this page fetched when
// it loaded (kept in localStorage, so a page opened later with the server down has them too),
// or a keys file the reader gives.
import {check, movesOf, parse} from "./record.js";
import {brief, clear, h, table} from "./dom.js";

const KEYS = "delve.keys";
const $ = (id) => document.getElementById(id);
const page = {keys: null, record: null, moves: [], step: 0};

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
  page.moves = parsed.envs.length && parsed.envs[0].type === "GameCreated" ? movesOf(parsed.envs, verdict.labels) : [];
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

function seatName(seat, actor) {
  if (seat === null || seat === undefined) return actor || "the table";
  const created = page.record.envs[0].data;
  const started = page.record.envs.find((e) => e.type === "GameStarted");
  const seats = (started && started.data.seats) || created.seats;
  return `${(seats[seat] && seats[seat].name) || `seat ${seat}`} (seat ${seat})`;
}

function showGame({envs}) {
  if (!envs.length || envs[0].type !== "GameCreated") return clear($("game"));
  const created = envs[0].data;
  clear($("game"),
    h("p", {}, h("code", {}, envs[0].game_id), ` · ${created.game} · rules ${created.rules_version} · `,
      `${envs.length} events · ${page.moves.length} moves`),
    table(["seat", "name", "bot"], created.seats.map((s, i) => [String(i), seatName(i), s.bot || "—"])));
}

function showMoves() {
  clear($("move-list"), page.moves.map((m) => h("li", {"data-move": m.n, onclick: () => showMove(m.n)},
    h("span", {class: "seq"}, m.n), h("span", {class: "who"}, seatName(m.seat, m.actor)),
    h("span", {class: "data"}, m.label))));
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
      `move ${m.n} of ${page.moves.length} · ${m.at} · ${seatName(m.seat, m.actor)}: `, h("strong", {}, m.label), ` · ${seqs}`),
    h("ol", {class: "events"}, m.events.map((e) => h("li", {title: JSON.stringify(e.data, null, 1)},
      h("span", {class: "seq"}, e.seq), h("span", {class: "type"}, e.type), h("span", {class: "data"}, brief(e.data, 100))))));
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
loadKeys().then(() => document.body.setAttribute("data-ready", "1"));
