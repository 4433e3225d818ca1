// The public /v1 API as a browser calls it: bearer tokens, problem+json
// errors, and the SSE stream read through fetch.

/** An API refusal, carrying the problem+json body (code, detail, rule...). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
    this.problem = problem;
  }
}

// Tokens live in sessionStorage, per game: they survive a reload of the tab
// but not the tab itself, and are never sent anywhere but this server.
const tokenKey = (gameId) => `delve.token.${gameId}`;

export function loadToken(gameId) {
  return sessionStorage.getItem(tokenKey(gameId));
}

export function saveToken(gameId, token) {
  if (token) sessionStorage.setItem(tokenKey(gameId), token);
  else sessionStorage.removeItem(tokenKey(gameId));
}

async function problemOf(resp) {
  try {
    return new ApiError(resp.status, await resp.json());
  } catch {
    return new ApiError(resp.status, {title: resp.statusText});
  }
}

/**
 * Call the API. `as` picks the body reader ("json" or "text"); `body` is sent
 * as JSON unless `type` names another media type.
 */
export async function api(path, {token = null, method = "GET", body, type, as = "json", headers: extra = {}} = {}) {
  const headers = {Accept: as === "json" ? "application/json" : "*/*", ...extra};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload = body;
  if (body !== undefined) {
    headers["Content-Type"] = type || "application/json";
    if (!type) payload = JSON.stringify(body);
  }
  const resp = await fetch(path, {method, headers, body: payload, cache: "no-store"});
  if (!resp.ok) throw await problemOf(resp);
  return as === "text" ? resp.text() : resp.json();
}

/** Every event the caller may see, page by page (the API caps a page at 1000). */
export async function allEvents(gameId, token, after = 0) {
  const out = [];
  for (;;) {
    const page = await api(`/v1/games/${gameId}/events?after=${after}&limit=1000`, {token});
    out.push(...page.events);
    if (page.events.length === 0) return out;
    after = page.events[page.events.length - 1].seq;
    // A short page can still be followed by more if redaction hid events,
    // so stop only when the cursor has reached the version the page reports.
    if (after >= page.version) return out;
  }
}

/** Split an SSE buffer into complete frames and the unfinished rest. */
function frames(buffer) {
  const parts = buffer.replace(/\r\n/g, "\n").split("\n\n");
  return {complete: parts.slice(0, -1), rest: parts[parts.length - 1]};
}

function parseFrame(text) {
  const frame = {id: null, event: "message", data: []};
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) continue; // keep-alive comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
    else if (field === "data") frame.data.push(value);
  }
  return frame;
}

/** A refusal that passes: the server is busy (503) or the caller is over a rate (429). */
export function busy(err) {
  return err.status === 503 || err.status === 429;
}

/** How long a busy server asked to wait, in seconds (its problem's ``retry_after``), kept between 1 and 60. */
export function retryAfter(err) {
  const asked = Number(err.problem && err.problem.retry_after);
  return Number.isFinite(asked) && asked > 0 ? Math.min(60, Math.max(1, Math.ceil(asked))) : 5;
}

/**
 * Follow an event stream (a game's or a tournament's /events/stream) after
 * `after`. EventSource cannot send an Authorization header, so the stream is
 * read with fetch and parsed here; on a dropped connection it resumes with
 * Last-Event-ID, as SSE would, and a busy server's refusal (503, 429) is tried again after the
 * wait it names (`onStatus("retrying", {seconds, message})`). Returns {stop()}.
 */
export function follow(streamPath, {token, after, onEvent, onEnd, onError, onStatus}) {
  const control = {stopped: false, abort: null};
  let cursor = after;

  async function once() {
    const abort = new AbortController();
    control.abort = abort;
    const headers = {Accept: "text/event-stream", "Last-Event-ID": String(cursor)};
    if (token) headers.Authorization = `Bearer ${token}`;
    const resp = await fetch(streamPath, {headers, signal: abort.signal, cache: "no-store"});
    if (!resp.ok) throw await problemOf(resp);
    onStatus && onStatus("following");
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, {stream: true});
      const {complete, rest} = frames(buffer);
      buffer = rest;
      for (const text of complete) {
        const frame = parseFrame(text);
        if (frame.event === "end") return true;
        if (!frame.data.length) continue;
        if (frame.id !== null) cursor = Number(frame.id);
        onEvent(JSON.parse(frame.data.join("\n")));
      }
    }
  }

  (async () => {
    while (!control.stopped) {
      try {
        if (await once()) {
          onEnd && onEnd();
          return;
        }
      } catch (err) {
        if (control.stopped) return;
        if (err instanceof ApiError && !busy(err)) {
          onError && onError(err); // 401/404: retrying will not help
          return;
        }
        if (err instanceof ApiError) {
          // A full server or token (503 too_many_streams, a 429): it says when to come back, and the
          // page does, rather than stop following with "retry in 7 s" on screen and nothing retrying.
          const seconds = retryAfter(err);
          onStatus && onStatus("retrying", {seconds, message: err.message});
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          continue;
        }
      }
      onStatus && onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();

  return {
    stop() {
      control.stopped = true;
      if (control.abort) control.abort.abort();
    },
  };
}
