"""/docs in a real browser: Swagger UI (vendored, served by the API) renders every operation of
the spec, with the parameters a $ref names (the game `id`), request bodies and examples, and the
page asks nothing of any other host. The rules pages render too."""
from __future__ import annotations

from urllib.parse import urlparse

from server import spec


def severe(browser) -> list[str]:
    return [e["message"] for e in browser.driver.get_log("browser") if e["level"] == "SEVERE"]


def test_swagger_ui_shows_every_operation_parameter_body_and_example(browser, site):
    operations = {op["operationId"] for item in spec.document()["paths"].values() for m, op in item.items()
                  if m in ("get", "post", "put", "patch", "delete")}
    browser.open(f"{site.url}/docs#/games/postAction")
    browser.wait("return document.querySelectorAll('[id^=\"operations-\"]:not([id^=\"operations-tag-\"])').length >= arguments[0]",
                 len(operations), what="an entry per operation")
    shown = browser.js("return [...document.querySelectorAll('[id^=\"operations-\"]:not([id^=\"operations-tag-\"])')]"
                       ".map((el) => el.id.split('-').slice(2).join('-'))")
    assert set(shown) == operations
    # The deep link opens postAction: its {id} parameter (a $ref), its body and the body's example.
    browser.wait("return document.querySelector('#operations-games-postAction tr[data-param-name=\"id\"]')",
                 what="postAction's id parameter")
    body = browser.wait("const el = document.querySelector('#operations-games-postAction .body-param__example');"
                        "return el && el.textContent", what="postAction's example body")
    assert '"type": "play_path"' in body and '"expected_version": 13' in body
    responses = browser.text("#operations-games-postAction .responses-table")
    assert "PathPlaced" in responses and "rule_url" in responses
    hosts = browser.js("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert {urlparse(u).netloc for u in hosts} <= {urlparse(site.url).netloc}, hosts
    assert severe(browser) == []


def test_a_rules_page_has_its_anchors_and_nests_its_lists(browser, site):
    browser.open(f"{site.url}/rules/saboteur#SAB-PATH-3")
    browser.wait("return document.getElementById('SAB-PATH-3')", what="the rule's anchor")
    assert browser.js("return document.querySelector(':target').id") == "SAB-PATH-3"
    assert browser.count("ol > li > ul > li") > 0  # the rules' 3-space nested lists stay nested
    assert severe(browser) == []
