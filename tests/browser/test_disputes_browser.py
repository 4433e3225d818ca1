"""The dispute from the top, in the browser: who did what at move 30 of a finished game is one
click in the viewer's Moves panel, and agrees with `delve show --move 30`; a saved export opens
in the offline replay page and is checked (chain, seed, this server's signature) and stepped
through with the server stopped, making no request at all."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from click.testing import CliRunner

from application import signing
from application.service import GameService
from delve.cli import cli
from events.store import RedisEventStore
from server.app import create_app
from tests.browser.site import _Server
from workers.inprocess import InProcessDriver

SEATS = [{"name": "ann", "bot": "heuristic"}, {"name": "bob", "bot": "heuristic"}, {"name": "cy", "bot": "random"}]


@pytest.fixture
def signed_site(r, tmp_path):
    """A site of its own (so it can be stopped), signing with its own key, and one finished Saboteur game."""
    prefix = f"d{uuid.uuid4().hex[:10]}"
    signer = signing.ensure(tmp_path / "key.pem", "browser-test")[0]
    service = GameService(RedisEventStore(r, prefix=prefix), admin_token="admin-secret", signer=signer)
    server = _Server(create_app(service, RATE_LIMIT=0, VERIFY_PER_MINUTE=0, SSE_BLOCK_MS=500))
    server.start()
    with InProcessDriver(service) as driver:
        gid = service.create("saboteur", SEATS, {})["id"]
        driver.run([gid])
    export = tmp_path / f"{gid}.ndjson"
    export.write_text("".join(service.export(gid, admin=False)))
    yield server, gid, export
    server.stop()
    for key in r.scan_iter(f"{prefix}:*", count=1000):
        r.delete(key)


def cli_move_line(export, n: int) -> str:
    result = CliRunner().invoke(cli, ["show", str(export), "--move", str(n)])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[1]


def test_move_30_is_one_click_in_the_viewer_and_agrees_with_delve_show(signed_site, browser):
    server, gid, export = signed_site
    browser.open(f"{server.url}/web/games/{gid}")
    browser.wait("return document.querySelectorAll('#move-list li').length >= 30", what="the moves panel")
    browser.click("#move-list li[data-move='30']")
    shown = browser.wait("const t = document.getElementById('position').textContent;"
                         "return t.includes('move 30 of') && t", what="move 30 in the viewer")
    line = cli_move_line(export, 30)  # "move 30 of N · time · who (seat s): label · seq a-b"
    label = line.split(": ", 1)[1].rsplit(" · ", 1)[0]
    # The page names a seat by its player where Saboteur's label numbers it ("Break seat 1's pick").
    label = re.sub(r"\bseat (\d+)'s\b", lambda m: f"{SEATS[int(m[1])]['name']}'s", label)
    total = line.split(" · ")[0]
    assert f"{total} · " in shown and shown.endswith(f": {label}")
    version = int(line.rsplit("seq ", 1)[1].split("-")[-1])
    assert browser.js("return window.location.hash") == f"#v={version}"
    assert browser.js("return document.querySelector('#move-list li.current').dataset.move") == "30"
    browser.open(f"{server.url}/web/games/{gid}#move=30")  # a shared link to the disputed move
    browser.wait("return document.getElementById('position').textContent.includes('move 30 of')",
                 what="the #move=30 link opened at move 30")


def named(line: str) -> str:
    """A `delve show` line as the pages say it: Saboteur's labels number a seat ("Break seat 1's
    pick"), the pages name it by its player ("Break bob's pick")."""
    return re.sub(r"\bseat (\d+)'s\b", lambda m: f"{SEATS[int(m[1])]['name']}'s", line)


def test_a_saved_export_replays_offline_with_the_server_stopped(signed_site, browser, tmp_path):
    """The page named a seat by its number in every label ("Break seat 2's cart") where the game's
    own page names its player ("Break cy's cart"): now its moves read as the live page's, the
    mover with the seat number the events use ("cy (seat 2)"), the signed words in the tooltip."""
    server, gid, export = signed_site
    browser.open(f"{server.url}/web/games/{gid}")
    browser.wait("return document.querySelectorAll('#move-list li').length >= 30", what="the moves panel")
    live = browser.js("return [...document.querySelectorAll('#move-list li')].map((li) =>"
                      " [li.querySelector('.who').textContent, li.querySelector('.data').textContent])")
    browser.open(f"{server.url}/web/replay")
    browser.wait("return document.body.dataset.ready === '1' && document.getElementById('keys-state')"
                 ".textContent.includes('browser-test')", what="the server's keys fetched")
    keyed = CliRunner().invoke(cli, ["verify", str(export), "--keys", server.url])  # the keys from the live server
    assert keyed.exit_code == 0 and "of browser-test" in keyed.output, keyed.output
    server.stop()  # from here on the page has no server to call
    browser.js("window.__delve.failed = []; window.__offlineFetches = 0;"
               "const f = window.fetch; window.fetch = (...a) => { window.__offlineFetches += 1; return f(...a); };")
    browser.driver.find_element("id", "file").send_keys(str(export))
    status = browser.wait("const v = document.querySelector('#verdict .verdict'); return v && v.dataset.status",
                          what="the verdict")
    checks = browser.texts("#verdict .checks li")
    assert status == "ok", checks
    assert any(c.startswith("signed by ed25519:") and "of browser-test (current key)" in c for c in checks), checks
    assert any("hash chain intact" in c for c in checks) and any("matches the commitment" in c for c in checks)
    browser.click("#move-list li[data-move='30']")
    line = browser.text("#move .move-line")
    assert line == named(cli_move_line(export, 30)), (line, cli_move_line(export, 30))
    browser.click("#next")
    assert browser.text("#move .move-line").startswith("move 31 of ")
    offline = browser.js("return [...document.querySelectorAll('#move-list li')].map((li) =>"
                         " [li.querySelector('.who').textContent, li.querySelector('.data').textContent,"
                         " li.querySelector('.data').title])")
    assert len(offline) == len(live)
    for (who, label), (off_who, off_label, signed) in zip(live, offline):
        seat = next(i for i, s in enumerate(SEATS) if s["name"] == who)
        assert (off_who, off_label) == (f"{who} (seat {seat})", label)
        assert not re.search(r"\bseat \d+'s\b", off_label) and (not signed or named(signed.removeprefix("as the server signed it: ")) == label)
    assert browser.js("return document.querySelector('#game table').textContent").startswith("seatnamebot0annheuristic")
    assert browser.js("return window.__offlineFetches") == 0 and browser.problems()["failed"] == []

    envs = [json.loads(line) for line in export.read_text().splitlines()]
    envs[0]["data"]["seats"][0]["name"] = "mallory"  # a forger who did not re-seal the chain
    forged = tmp_path / "forged.ndjson"
    forged.write_text("".join(json.dumps(e) + "\n" for e in envs))
    browser.driver.find_element("id", "file").send_keys(str(forged))
    browser.wait("const v = document.querySelector('#verdict .verdict'); return v && v.dataset.status === 'failed'"
                 " && v.textContent.includes('forged')", what="the forged export refused")
    assert any("chain broken at seq 1" in c for c in browser.texts("#verdict .checks li"))
