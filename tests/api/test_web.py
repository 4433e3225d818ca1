"""The browser viewer (server/web): pages render, every asset is local and served,
and the scripts call only documented API paths (the machine running it may be offline)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from server import spec

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "server" / "web" / "static"
SPEC = spec.document()

ENTRIES = ("lobby.js", "viewer.js", "tournament.js", "player.js", "ratings.js", "offline.js")  # each page's script
REFERENCES = re.compile(r'(?:src|href)="([^"]+)"')
IMPORTS = re.compile(r'from\s+"\./([^"]+)"')


def _page_assets(html: str) -> list[str]:
    return [ref for ref in REFERENCES.findall(html) if ref.startswith("/web/static/")]


def _served_scripts(client, entry: str) -> dict[str, str]:
    """Every module reachable from ``entry`` through its imports, as served."""
    seen: dict[str, str] = {}
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        resp = client.get(f"/web/static/{name}")
        assert resp.status_code == 200, name
        assert resp.mimetype == "text/javascript", (name, resp.mimetype)
        seen[name] = resp.get_data(as_text=True)
        todo += IMPORTS.findall(seen[name])
    return seen


@pytest.fixture
def game(client):
    created = client.post("/v1/games", json={"game": "tiny", "seats": [{"name": "a"}, {"name": "b"}]}).json
    return created["id"]


def test_lobby_page_is_html_with_local_assets_only(client):
    resp = client.get("/web")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert "/web/static/lobby.js" in html and "/web/static/web.css" in html
    for ref in REFERENCES.findall(html):
        assert ref.startswith("/"), f"{ref} is not a local asset"
        assert not ref.startswith("//"), f"{ref} is protocol-relative: it would leave this server"


def test_viewer_page_names_its_game(client, game):
    resp = client.get(f"/web/games/{game}")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert f'data-game-id="{game}"' in html
    assert "/web/static/viewer.js" in html
    assert all(ref.startswith("/") and not ref.startswith("//") for ref in REFERENCES.findall(html))


def test_viewer_page_for_an_unknown_id_is_still_the_page(client):
    """The script reports a missing game in the page; the server does not look it up."""
    resp = client.get("/web/games/g0000000000000000")
    assert resp.status_code == 200 and b"viewer.js" in resp.data


def test_tournament_page_names_its_tournament_and_escapes_the_id(client):
    html = client.get("/web/tournaments/t0123456789abcdef").get_data(as_text=True)
    assert 'data-tournament-id="t0123456789abcdef"' in html and "/web/static/tournament.js" in html
    resp = client.get('/web/tournaments/%3Cb%3Ex%22')
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "<b>" not in html and "&lt;b&gt;x&#34;" in html
    too_long = client.get("/web/tournaments/" + "t" * 65)
    assert too_long.status_code == 404 and too_long.json["code"] == "tournament_not_found"


def test_player_page_names_its_player(client):
    html = client.get("/web/players/p0123456789").get_data(as_text=True)
    assert 'data-player-id="p0123456789"' in html and "/web/static/player.js" in html
    too_long = client.get("/web/players/" + "p" * 41)
    assert too_long.status_code == 404 and too_long.json["code"] == "player_not_found"


def test_viewer_page_escapes_the_id(client):
    resp = client.get('/web/games/%3Cimg%20src=x%20onerror=alert(1)%3E%22')
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;&#34;" in html


@pytest.mark.parametrize("page,entry", [("/web", "lobby.js"), ("/web/games/gX", "viewer.js"),
                                        ("/web/tournaments/tX", "tournament.js"), ("/web/players/pX", "player.js")])
def test_every_asset_is_served_and_local(client, page, entry):
    html = client.get(page).get_data(as_text=True)
    for ref in _page_assets(html):
        resp = client.get(ref)
        assert resp.status_code == 200, ref
    scripts = _served_scripts(client, entry)
    css = client.get("/web/static/web.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    for name, text in {**scripts, "web.css": css.get_data(as_text=True)}.items():
        # No CDN, no web font, no remote image: the viewer must work offline.
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text.replace("http://www.w3.org/2000/svg", "")), name


def test_every_static_file_is_used(client):
    """No dead files: each script is reachable from a page or is a game's board renderer (the viewer
    imports the one its catalog entry names); the stylesheet and icon are linked."""
    pages = ("/web", "/web/games/gX", "/web/tournaments/tX", "/web/players/pX", "/web/ratings/saboteur", "/web/replay")
    linked = {ref.rsplit("/", 1)[1] for page in pages for ref in _page_assets(client.get(page).get_data(as_text=True))}
    renderers = {f"{g['renderer']}.js" for g in client.get("/v1/catalog").json["games"] if g["renderer"]}
    used = linked | {name for entry in (*ENTRIES, *renderers) for name in _served_scripts(client, entry)}
    assert {p.name for p in STATIC.iterdir()} == used


def test_missing_and_escaping_assets_are_problem_404s(client):
    for path in ("/web/static/nope.js", "/web/static/..%2f__init__.py", "/web/static/%2e%2e"):
        resp = client.get(path)
        assert resp.status_code == 404, path
        assert resp.mimetype == "application/problem+json", path


def _spec_path_patterns() -> list[re.Pattern]:
    return [re.compile("^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(path)) + "$") for path in SPEC["paths"]]


def test_scripts_call_only_documented_api_paths(client):
    """Every /v1 URL the scripts build matches a path of openapi.yaml."""
    scripts = {name: text for entry in ENTRIES for name, text in _served_scripts(client, entry).items()}
    patterns = _spec_path_patterns()
    urls = []
    for text in scripts.values():
        for literal in re.findall(r'[`"](/v1/[^`"]*)[`"]', text):
            url = re.sub(r"\$\{[^}]+\}", "X", literal).split("?")[0]
            urls.append(url)
            assert any(p.match(url) for p in patterns), f"{literal} is not a documented API path"
    # The viewer reads the replay, the stream, scores, audit, export and verify.
    for needed in ("/v1/games/X/states/X", "/v1/games/X/events/stream", "/v1/games/X/scores",
                   "/v1/games/X/audit", "/v1/games/X/export", "/v1/audit/verify",
                   # the lobby's list and the tournament page: state, live log, bundle
                   "/v1/tournaments", "/v1/tournaments/X", "/v1/tournaments/X/events/stream", "/v1/tournaments/X/bundle",
                   # the seats panel's join form and the player page
                   "/v1/games/X/join", "/v1/players/X"):
        assert needed in urls, needed


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_scripts_parse_as_modules(tmp_path):
    """A syntax error would blank the page in every browser: node checks each module."""
    for script in STATIC.glob("*.js"):
        copy = tmp_path / (script.stem + ".mjs")
        copy.write_text(script.read_text())
        result = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True)
        assert result.returncode == 0, f"{script.name}: {result.stderr}"


def _node(tmp_path, module: str, script: str, stdin: str) -> dict | list:
    """What ``script``, an ES module that imports ``./<module>.mjs`` (static/<module>.js as served) and
    reads its input from stdin, prints as JSON when node runs it: the page's own code, outside a browser."""
    (tmp_path / f"{module}.mjs").write_text((STATIC / f"{module}.js").read_text())
    (tmp_path / "run.mjs").write_text('import {readFileSync} from "node:fs";\n' + script)
    out = subprocess.run(["node", str(tmp_path / "run.mjs")], input=stdin, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _node_batch_ends(tmp_path, events: list[dict]) -> list[int]:
    """The replay steps batches.js computes from these events (as the browser would)."""
    return _node(tmp_path, "batches", 'import {batchesOf} from "./batches.mjs";\n'
                 'const events = JSON.parse(readFileSync(0, "utf8"));\n'
                 'console.log(JSON.stringify(batchesOf(events).map((b) => b.end)));\n', json.dumps(events))


def _play(client, service, gid: str, token: str, commands: int) -> None:
    """Bots and the human seat (first legal command) take turns, as workers and a player would."""
    for _ in range(commands):
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers={"Authorization": f"Bearer {token}"}).json
        if legal["commands"]:
            client.post(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {token}"},
                        json={"expected_version": legal["version"], "command": legal["commands"][0]})
        elif service.bot_turn(gid, legal["version"]) is None:
            return


def _events(client, gid: str, headers: dict | None = None) -> list[dict]:
    return client.get(f"/v1/games/{gid}/events?limit=1000", headers=headers or {}).json["events"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_replay_steps_are_exactly_the_versions_the_game_rested_at(client, service, tmp_path):
    """Finished: every step batches.js finds is a held version, and no version inside a step is."""
    created = client.post("/v1/games", json={"game": "saboteur", "seats": [
        {"name": "me"}, {"name": "b1", "bot": "heuristic"}, {"name": "b2", "bot": "heuristic"}]}).json
    gid, token = created["id"], created["seats"][0]["token"]
    _play(client, service, gid, token, commands=400)
    service.finalize(gid)
    assert client.get(f"/v1/games/{gid}").json["status"] == "finished"
    events = _events(client, gid)
    ends = _node_batch_ends(tmp_path, events)
    assert ends[-1] == events[-1]["seq"] and len(ends) < len(events)
    for end in ends:
        assert client.get(f"/v1/games/{gid}/states/{end}").status_code == 200, end
    inside = sorted({ev["seq"] for ev in events} - set(ends))
    for seq in inside[:: max(1, len(inside) // 25)]:
        assert client.get(f"/v1/games/{gid}/states/{seq}").json["code"] == "not_a_held_version", seq


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_replay_steps_of_a_running_game_seen_by_a_seat_are_held_versions(client, service, tmp_path):
    """Before the end others' command_ids are withheld: grouping by seat may merge steps, never split one."""
    created = client.post("/v1/games", json={"game": "saboteur", "seats": [
        {"name": "me"}, {"name": "b1", "bot": "random"}, {"name": "b2", "bot": "random"}]}).json
    gid, token = created["id"], created["seats"][0]["token"]
    _play(client, service, gid, token, commands=30)
    auth = {"Authorization": f"Bearer {token}"}
    events = _events(client, gid, auth)
    assert any(ev["command_id"] is None for ev in events)
    for end in _node_batch_ends(tmp_path, events):
        assert client.get(f"/v1/games/{gid}/states/{end}", headers=auth).status_code == 200, end


def test_a_script_is_revalidated_on_every_use_and_answers_304_while_unchanged(client):
    """After an upgrade no browser runs a kept old module beside a new one it imports: every asset
    is ``no-cache`` (asked again each time) with an ETag, so an unchanged one costs a 304."""
    first = client.get("/web/static/play.js")
    assert first.status_code == 200 and "no-cache" in first.headers["Cache-Control"]
    again = client.get("/web/static/play.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_the_server_address_and_web_slash_lead_a_browser_to_the_lobby(client):
    """`delve serve` prints the server's address; opening it (or /web/) was a 404."""
    for path in ("/", "/web/"):
        resp = client.get(path)
        assert resp.status_code == 302, path
        assert resp.headers["Location"].endswith("/web"), (path, resp.headers["Location"])
    assert client.get("/", follow_redirects=True).mimetype == "text/html"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_offline_replay_calls_a_record_cut_before_its_game_finished_incomplete(tmp_path):
    """/web/replay checks a record as `delve verify` does its ending: an export whose GameFinished was
    dropped (and with it the record's signature) stops after SeedRevealed, and is incomplete, never ok."""
    record = Path(__file__).resolve().parent.parent / "data" / "mountain-king-2-2-greedy.ndjson"
    lines = record.read_text().splitlines()

    def checked(text: str) -> dict:
        return _node(tmp_path, "record", 'import {parse, check} from "./record.mjs";\n'
                     'const verdict = await check(parse(readFileSync(0, "utf8")), null);\n'
                     'console.log(JSON.stringify({status: verdict.status, checks: verdict.checks.map((c) => c.text)}));\n',
                     text)

    assert checked("\n".join(lines) + "\n")["status"] == "ok"
    assert json.loads(lines[-1])["type"] == "GameFinished"
    cut = checked("\n".join(lines[:-1]) + "\n")
    assert cut["status"] == "incomplete", cut
    assert any(c.startswith("incomplete: the record ends before its game did: SeedRevealed at seq 228")
               for c in cut["checks"]), cut
