// Who this browser plays as: a player identity (POST /v1/players) kept in
// localStorage, so every page and every game knows the signed-in player.
// The token is shown once, when it is created, with a way to copy it; "sign
// out" forgets it. Pasting a token signs in with it (GET /v1/players/me names it).
import {api} from "./api.js";
import {clear, h} from "./dom.js";

const KEY = "delve.player";

/** {id, name, token} of the signed-in player, or null. */
export function currentPlayer() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "null");
    return found && found.token ? found : null;
  } catch {
    return null;
  }
}

function remember(player) {
  if (player) localStorage.setItem(KEY, JSON.stringify({id: player.id, name: player.name, token: player.token}));
  else localStorage.removeItem(KEY);
}

/** Create a player and keep it; resolves to {id, name, token}. */
export async function signUp(name) {
  const made = await api("/v1/players", {method: "POST", body: {name}});
  remember(made);
  return made;
}

/** Keep a player token someone pasted, once the server names its player. */
export async function signInWith(token) {
  const me = await api("/v1/players/me", {token});
  const player = {id: me.id, name: me.name, token};
  remember(player);
  return player;
}

export function signOut() {
  remember(null);
}

function copyButton(text) {
  const button = h("button", {type: "button", class: "copy"}, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select it and copy";
    }
  });
  return button;
}

/**
 * The header's sign-in box: "signed in as NAME · sign out", or a form to pick a
 * name (or paste a token). `onChange` runs after signing in or out.
 */
export function sessionBox(el, onChange = () => {}) {
  const player = currentPlayer();
  if (player) {
    const out = h("button", {type: "button", id: "sign-out"}, "Sign out");
    out.addEventListener("click", () => {
      signOut();
      sessionBox(el, onChange);
      onChange(null);
    });
    clear(el, h("span", {class: "who", id: "signed-in"}, "signed in as ",
      h("a", {href: `/web/players/${encodeURIComponent(player.id)}`}, player.name)), " ", out);
    return;
  }
  const name = h("input", {name: "player-name", id: "player-name", placeholder: "your name", maxlength: 40, size: 12,
    "aria-label": "player name", autocomplete: "nickname"});
  const token = h("input", {name: "player-token", id: "player-token", type: "password", placeholder: "or paste a player token",
    size: 16, "aria-label": "player token", autocomplete: "off"});
  const note = h("span", {class: "note"});
  const form = h("form", {class: "sign-in", id: "sign-in"}, name, " ", h("button", {type: "submit"}, "Become a player"),
    " ", token, note);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      if (token.value.trim()) {
        await signInWith(token.value.trim());
        sessionBox(el, onChange);
      } else if (name.value.trim()) {
        const made = await signUp(name.value.trim());
        sessionBox(el, onChange);
        el.append(h("div", {class: "token-once", id: "token-once", role: "status"},
          "Your player token (shown this once; keep it to sign in elsewhere): ",
          h("code", {id: "new-token"}, made.token), " ", copyButton(made.token)));
      } else {
        note.textContent = " pick a name first";
        return;
      }
      onChange(currentPlayer());
    } catch (err) {
      note.textContent = ` ${err.message}`;
    }
  });
  clear(el, form);
}
