"""A tournament's organizer directs it from its page (issue 25, finding 2): a table forfeited,
the next adjudicated, the first round's result corrected, then an entrant withdrawn from the
round being played, all by clicking in the director's panel; the others see no panel. The
decisions are in the log, so the finished tournament's bundle verifies with them (TRN-DIR-1,
TRN-DIR-3, TRN-WD-2)."""
from __future__ import annotations

import httpx

from application.tournament_verify import verify_bundle
from tests.browser.chromium import Browser
from tests.browser.playing import choose, no_problems, sign_up


def token_of(b: Browser) -> str:
    return b.js("return JSON.parse(localStorage.getItem('delve.player')).token")


def decide(b: Browser, round_no: int, kind: str, reason: str, losers: tuple[str, ...] = (),
           places: dict[str, int] | None = None) -> None:
    """Fill in and send table 0's form of the round being played."""
    form = "#director form.decide[data-table='0']"
    b.wait("return document.querySelector(arguments[0]) && "
           "document.querySelector('#director').textContent.includes(`Round ${arguments[1]} is being played`)",
           form, round_no, what=f"round {round_no}'s table in the director's panel", timeout=30)
    choose(b, f"{form} select[name=kind]", kind)
    for entrant in losers:
        b.click(f"{form} input[name=loser][value={entrant}]")
    for entrant, place in (places or {}).items():
        b.js("document.querySelector(arguments[0]).value = arguments[1]", f"{form} input[name=place-{entrant}]",
             str(place))
    b.js("document.querySelector(arguments[0]).value = arguments[1]", f"{form} input[name=reason]", reason)
    b.click(f"{form} button[type=submit]")
    b.wait("return [...document.querySelectorAll(`#rounds section.round[data-round='${arguments[0]}'] .decision`)]"
           ".some((x) => x.textContent.includes(arguments[1]))", round_no, reason,
           what="the decision in its round", timeout=30)


def correct_first_table(b: Browser, places: dict[str, int], reason: str) -> None:
    """Correct round 1's table 0 (a completed round) from the "Correct a result" control."""
    form = "#director .correct-result form.correct[data-round='1'][data-table='0']"
    b.wait("return document.querySelector(arguments[0])", form, what="the correction form", timeout=30)
    choose(b, f"{form} select[name=kind]", "adjudicated")
    for entrant, place in places.items():
        b.js("document.querySelector(arguments[0]).value = arguments[1]", f"{form} input[name=place-{entrant}]",
             str(place))
    b.js("document.querySelector(arguments[0]).value = arguments[1]", f"{form} input[name=reason]", reason)
    b.click(f"{form} button[type=submit]")
    b.wait("return [...document.querySelectorAll(`#rounds section.round[data-round='1'] .decision`)]"
           ".some((x) => x.textContent.includes('corrected, was forfeit') && x.textContent.includes(arguments[0]))",
           reason, what="the correction in round 1", timeout=30)


def test_an_organizer_decides_tables_and_withdraws_an_entrant_from_the_page(play_site, person, other_person):
    sign_up(person, play_site.url, "Arbiter")
    sign_up(other_person, play_site.url, "Visitor")
    with httpx.Client(base_url=play_site.url, timeout=30) as api:
        created = api.post("/v1/tournaments", headers={"Authorization": f"Bearer {token_of(person)}"}, json={
            "game": "mountain-king", "format": "swiss", "table_size": 2, "rounds": 3, "name": "Directed",
            "clock": {"per_move_s": 600, "on_timeout": "forfeit"}, "start_at": "2099-01-01T00:00:00Z"})
        assert created.status_code == 201, created.json()
        tid = created.json()["id"]
        for page in (person, other_person):
            page.open(f"{play_site.url}/web/tournaments/{tid}")
            page.wait("return document.querySelector('#register')", what="register")
            page.click("#register")
            page.wait("return document.querySelector('#withdraw')", what="registered")
        person.click("#start")
        entrants = {e["name"]: e["id"] for e in api.get(f"/v1/tournaments/{tid}").json()["entrants"]}
        arbiter, visitor = entrants["Arbiter"], entrants["Visitor"]

        # A refusal is the server's: its code and message in the page, and nothing decided.
        form = "#director form.decide[data-table='0']"
        person.wait("return document.querySelector(arguments[0])", form, what="round 1's form", timeout=30)
        choose(person, f"{form} select[name=kind]", "adjudicated")
        for entrant in (arbiter, visitor):
            person.js("document.querySelector(arguments[0]).value = '2'", f"{form} input[name=place-{entrant}]")
        person.js("document.querySelector(arguments[0]).value = 'two second places'", f"{form} input[name=reason]")
        person.click(f"{form} button[type=submit]")
        person.wait("return document.getElementById('message').textContent.includes('Refused (bad_places)')",
                    what="the refusal")
        assert api.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"][0]["decision"] is None

        decide(person, 1, "forfeit", "Visitor did not come to the board", losers=(visitor,))
        t = api.get(f"/v1/tournaments/{tid}").json()
        first = t["rounds"][0]["tables"][0]
        assert first["decision"]["kind"] == "forfeit" and first["result"]["places"][visitor] == 2
        assert api.get(f"/v1/games/{first['game_id']}").json()["status"] == "aborted"

        decide(person, 2, "adjudicated", "Both flags fell at once", places={arbiter: 1, visitor: 1})
        second = api.get(f"/v1/tournaments/{tid}").json()["rounds"][1]["tables"][0]
        assert second["decision"]["kind"] == "adjudicated" and set(second["result"]["places"].values()) == {1}

        # Round 1 is completed (round 3 is being played): its forfeit is corrected to a draw (TRN-DIR-3).
        person.wait("return document.querySelector('#director').textContent.includes('Round 3 is being played')",
                    what="round 3", timeout=30)
        correct_first_table(person, {arbiter: 1, visitor: 1}, "Visitor had come: the arbiter's sheet was wrong")
        corrected = api.get(f"/v1/tournaments/{tid}").json()["rounds"][0]["tables"][0]
        assert set(corrected["result"]["places"].values()) == {1}
        assert [c["previous"]["outcome"] for c in corrected["corrections"]] == ["forfeit"]

        # The guest's page offers no director's panel.
        other_person.open(f"{play_site.url}/web/tournaments/{tid}")
        other_person.wait("return document.getElementById('status').textContent === 'running'", what="the guest's page")
        assert other_person.js("return document.getElementById('director-panel').hidden") is True

        choose(person, "#director form.withdraw-from select[name=entrant]", visitor)
        choose(person, "#director form.withdraw-from select[name=from_round]", "3")
        person.click("#director form.withdraw-from button[type=submit]")
        person.wait("return document.getElementById('status').textContent === 'finished'",
                    what="the end once Visitor withdrew", timeout=30)
        done = api.get(f"/v1/tournaments/{tid}").json()
        third = done["rounds"][2]["tables"][0]
        assert third["decision"]["reason"] == "withdrew from round 3"
        assert [(s["entrant"], s["points"]) for s in done["standings"]] == [(arbiter, 2.0), (visitor, 1.0)]
        bundle = api.get(f"/v1/tournaments/{tid}/bundle").text.splitlines(keepends=True)
    assert verify_bundle(bundle).ok
    assert play_site.problems() == []
    refused = [f for f in person.problems()["failed"] if f["status"] == 422 and f["url"].endswith("/result")]
    assert len(refused) == 1  # the refusal above, and no other
    person.js("window.__delve.failed = window.__delve.failed.filter((f) => f.status !== 422)")
    no_problems(person)
