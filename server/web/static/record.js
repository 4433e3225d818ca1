// A saved export, read and checked in the browser with no server: the hash chain
// (SHA-256 over each envelope's canonical JSON, as events/envelope.py computes it),
// the revealed seed against the commitment, and the server's Ed25519 signatures
// against its public keys (application/attestation.py). WebCrypto does the hashing
// and the signature checks. The rules are not re-run here: `delve verify` does that.

const FIELDS = ["seq", "game_id", "type", "data", "seat", "command_id", "command", "at", "rules_version", "prev_hash"];
const GENESIS = "0".repeat(64);
const enc = new TextEncoder();

/** The one JSON spelling hashes and signatures are over: keys sorted, no spaces (domain.core.canonical_json). */
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function bytesOfHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesOfBase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function sha256(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

/** Parse an export's text: envelopes, signature lines, and the lines that are not JSON. */
export function parse(text) {
  const envs = [];
  const signed = [];
  const problems = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1} is not JSON`);
      return;
    }
    if (value && typeof value === "object" && value.signature && value.seq === undefined) signed.push(value.signature);
    else if (value && typeof value === "object") envs.push(value);
    else problems.push(`line ${i + 1} is not a JSON object`);
  });
  return {envs, signed, problems};
}

/** The seq of the first envelope whose chain breaks, and why; null when the chain holds. */
export async function brokenLink(envs) {
  let prev = GENESIS;
  for (let i = 0; i < envs.length; i += 1) {
    const env = envs[i];
    if (env.seq !== i + 1) return {seq: env.seq, why: `expected seq ${i + 1}, found ${env.seq}`};
    if (env.prev_hash !== prev) return {seq: env.seq, why: "prev_hash does not match the previous event's hash"};
    const body = {};
    for (const k of FIELDS) body[k] = env[k] === undefined ? null : env[k];
    if ((await sha256(enc.encode(env.prev_hash + canonical(body)))) !== env.hash) {
      return {seq: env.seq, why: "hash does not match the envelope's content"};
    }
    prev = env.hash;
  }
  return null;
}

async function signatureHolds(signed, keys) {
  const statement = signed.statement || {};
  if (!keys) return {ok: false, why: "no public keys to check it against"};
  if (statement.server !== keys.server) return {ok: false, why: `signed as ${statement.server}, the keys are ${keys.server}'s`};
  const key = (keys.keys || []).find((k) => k.key_id === statement.key_id);
  if (!key) return {ok: false, why: `key ${statement.key_id} is not one of ${keys.server}'s keys`};
  try {
    const pub = await crypto.subtle.importKey("raw", bytesOfBase64(key.public_key), {name: "Ed25519"}, false, ["verify"]);
    const good = await crypto.subtle.verify({name: "Ed25519"}, pub, bytesOfBase64(signed.signature),
      enc.encode(canonical(statement)));
    return good ? {ok: true, by: `${statement.key_id} of ${statement.server}`, status: key.status}
      : {ok: false, why: `the signature does not match key ${statement.key_id}`};
  } catch (err) {
    return {ok: false, why: `this browser cannot check Ed25519 signatures (${err.message})`};
  }
}

/** Moves: the batches a command caused (move n = the n-th), as application/moves.py numbers them. */
export function movesOf(envs, labels) {
  const out = [];
  let batch = null;
  for (const env of envs) {
    if (batch && batch.events[0].command_id === env.command_id) {
      batch.events.push(env);
      continue;
    }
    batch = {events: [env]};
    if (env.command) {
      out.push(batch);
      batch.n = out.length;
    }
  }
  return out.map((b) => {
    const head = b.events[0];
    return {n: b.n, seat: head.seat, actor: head.command.type === "actor_step" ? head.command.actor : null,
      command: head.command, at: head.at, first_seq: head.seq, last_seq: b.events[b.events.length - 1].seq,
      events: b.events, label: (labels && labels[b.n - 1]) || plain(head.command)};
  });
}

/** The seats as played, numbered as the pages number them ({seat, name, bot, ...}): GameStarted's
 * roster for a game that waited for players, else GameCreated's (delve/record.py's Record.seats). */
export function seatsOf(envs) {
  const started = envs.find((e) => e.type === "GameStarted");
  const seats = (started && started.data.seats) || (envs.length ? envs[0].data.seats : null) || [];
  return seats.map((s, i) => ({...s, seat: i}));
}

function plain(command) {
  const rest = Object.entries(command).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${JSON.stringify(v)}`);
  return `${command.type}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

/**
 * Check a parsed export. ``keys``: a server's public keys document (GET /v1/audit/keys), or null.
 * Returns {status: ok|incomplete|failed, checks: [{name, ok, text}], record, labels}.
 */
export async function check({envs, signed, problems}, keys) {
  const checks = [];
  const add = (name, ok, text) => checks.push({name, ok, text});
  if (problems.length) add("lines", false, problems[0]);
  if (!envs.length || envs[0].type !== "GameCreated") {
    add("record", false, "not a game export: its first line is not GameCreated");
    return {status: "failed", checks, labels: null};
  }
  const broken = await brokenLink(envs);
  add("chain", !broken, broken ? `chain broken at seq ${broken.seq}: ${broken.why}` : `hash chain intact over ${envs.length} events`);
  const created = envs[0].data;
  const revealed = envs.find((e) => e.type === "SeedRevealed");
  const finished = envs.find((e) => e.type === "GameFinished");
  let incomplete = null;
  if (revealed) {
    const ok = (await sha256(bytesOfHex(revealed.data.seed))) === created.seed_commitment;
    add("seed", ok, ok ? "the revealed seed matches the commitment made before the deal"
      : "the revealed seed does not match the commitment in GameCreated");
  } else {
    incomplete = "the record ends before its game did (no SeedRevealed, no GameFinished)";
  }
  if (revealed && !finished && !envs.some((e) => e.type === "GameCancelled")) {
    incomplete = `the record ends before its game did: SeedRevealed at seq ${revealed.seq} is not followed by `
      + "GameFinished, so its final result is not in it";
  }
  const gameId = envs[0].game_id;
  const record = signed.find((s) => s.statement && s.statement.kind === "game_record" && s.statement.game_id === gameId);
  let labels = null;
  if (!record) {
    add("signature", keys ? false : null, "not signed by this server: the record carries no game_record signature");
  } else {
    const st = record.statement;
    const held = await signatureHolds(record, keys);
    if (keys && !held.ok) add("signature", false, `not signed by this server: ${held.why}`);
    else if (st.events > envs.length) incomplete = `the server signed ${st.events} events ending in head ${st.head}; this record holds only ${envs.length}`;
    else if (st.events !== envs.length || st.head !== envs[envs.length - 1].hash) {
      add("signature", false, `not signed by this server: the signed record has ${st.events} events and head ${st.head}`);
    } else {
      add("signature", held.ok ? true : null, held.ok ? `signed by ${held.by} (${held.status} key)`
        : `signed, not checked: ${held.why}`);
      if (held.ok || !keys) labels = st.labels || null;
    }
  }
  if (incomplete) add("complete", null, `incomplete: ${incomplete}`);
  add("rules", null, `the rules (${created.rules_version}) are not re-run in the browser: \`delve verify FILE\` re-runs them`);
  const failed = checks.some((c) => c.ok === false);
  return {status: failed ? "failed" : incomplete ? "incomplete" : "ok", checks, labels, finished: finished ? finished.data : null};
}
