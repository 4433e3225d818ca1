"""/docs is the vendored Swagger UI over this server's own spec: every file the page loads is
served by this server, the vendored files are the registry's bytes, and nothing is fetched
from anywhere else (server/swagger_ui/VENDORED.md)."""
from __future__ import annotations

import hashlib
import re
from importlib.metadata import version
from pathlib import Path

from server import spec

VENDORED = Path(spec.__file__).with_name("swagger_ui")


def test_docs_page_loads_only_files_this_server_serves(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "SwaggerUIBundle" in html and 'url: "/openapi.yaml"' in html
    assert "validatorUrl: null" in html  # else Swagger UI posts the spec to an online validator
    assert not re.search(r"(?:src|href)=\"https?://", html) and "//cdn" not in html
    loaded = re.findall(r"(?:src|href)=\"(/[^\"]+)\"", html)
    assert sorted(loaded) == ["/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css",
                              "/web/static/favicon.svg"]
    for url in loaded:
        asset = client.get(url)
        assert asset.status_code == 200, url
        if url.startswith("/docs/assets/"):
            assert len(asset.data) > 10_000 and asset.mimetype in ("text/javascript", "text/css"), url


def test_an_unknown_asset_is_a_problem_not_a_500(client):
    for name in ("nope.js", "..%2fopenapi.yaml", "LICENSE%00"):
        resp = client.get(f"/docs/assets/{name}")
        assert resp.status_code == 404, name


def test_vendored_files_are_the_registry_package_bytes():
    """VENDORED.md names each file's SHA-256; a hand edit or a partial update fails here."""
    notes = (VENDORED / "VENDORED.md").read_text()
    named = dict(re.findall(r"`([\w.-]+)` \(sha256 `([0-9a-f]{64})`\)", notes))
    assert set(named) == {"swagger-ui-bundle.js", "swagger-ui.css"}
    for name, digest in named.items():
        assert hashlib.sha256((VENDORED / name).read_bytes()).hexdigest() == digest, name
    assert "Apache License" in (VENDORED / "LICENSE").read_text()


def test_one_version_everywhere(client):
    """The package's version (pyproject.toml) is the API's: the spec's info.version and /docs say it."""
    assert spec.document()["info"]["version"] == version("delve")
    assert version("delve") in client.get("/docs").get_data(as_text=True)
