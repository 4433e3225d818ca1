"""The rules documents a client can read: each game's ``RULES.md`` (and the tournament rules),
rendered at ``/rules/<doc>`` with an anchor per rule id, so a refusal's ``rule`` links somewhere.

A rule is defined where its id opens a bold run (``**SAB-PATH-3 (Title).**``), a heading
(``### IND-AMB-10 — ...``) or a table row (``| MK-WST-1 | ...``); that is where its anchor goes.
Every other mention of a defined id on the page links to it; an id with an item number that is
not defined itself (``MK-GAP-1.6``) links to its rule (``MK-GAP-1``). The documents are
package data beside the code that implements them, so an installed wheel serves them too.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from html import escape
from pathlib import Path

from markdown_it import MarkdownIt

from domain import registry

RULE_ID = r"[A-Z]{2,4}-[A-Z]+-\d+(?:\.\d+)?(?![\d.]*\d)"
MENTION = re.compile(r"\b" + RULE_ID)
BOLD = re.compile(r"\*\*(" + RULE_ID + ")")
HEADING = re.compile(r"^(#{1,6} [^\n]*?)\b(" + RULE_ID + ")", re.M)
ROW = re.compile(r"^(\|\s*)(" + RULE_ID + r")(\s*\|)", re.M)
# An <a> element (left alone: anchors and links already), any other tag, or text between tags.
HTML_PARTS = re.compile(r"(<a\b[^>]*>.*?</a>)|(<[^>]+>)|([^<]+)", re.S)
TOURNAMENT = Path(__file__).resolve().parents[1] / "domain" / "tournament" / "README.md"


@lru_cache(maxsize=1)
def documents() -> dict[str, tuple[str, Path]]:
    """Document id -> (title, path): every installed game's RULES.md, then the tournament rules."""
    docs = {}
    for game_id in registry.available():
        game = registry.get(game_id)
        path = Path(sys.modules[type(game).__module__].__file__).with_name("RULES.md")
        if path.is_file():
            docs[game_id] = (game.title, path)
    docs["tournament"] = ("Tournaments", TOURNAMENT)
    return docs


@lru_cache(maxsize=None)
def _anchored(doc: str) -> tuple[str, frozenset[str]]:
    """The document's markdown with an anchor at the first definition of each rule id, and those ids."""
    defined: set[str] = set()

    def anchor(rule: str) -> str:
        if rule in defined:
            return rule
        defined.add(rule)
        return f'<a id="{rule}" class="rule" href="#{rule}">{rule}</a>'

    source = documents()[doc][1].read_text(encoding="utf-8")
    source = HEADING.sub(lambda m: m[1] + anchor(m[2]), source)
    source = ROW.sub(lambda m: m[1] + anchor(m[2]) + m[3], source)
    source = BOLD.sub(lambda m: "**" + anchor(m[1]), source)
    return source, frozenset(defined)


def anchors(doc: str) -> frozenset[str]:
    """The rule ids a document defines (one anchor each)."""
    return _anchored(doc)[1]


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    return {rule: doc for doc in documents() for rule in anchors(doc)}


def _target(rule: str, defined) -> str | None:
    """The anchor a rule id links to: itself, else the rule an item number belongs to."""
    if rule in defined:
        return rule
    parent = rule.rsplit(".", 1)[0]
    return parent if parent != rule and parent in defined else None


def rule_url(rule: str | None) -> str | None:
    """Where a rule id is defined (``/rules/saboteur#SAB-PATH-3``), or None for an id no document defines."""
    index = _index()
    target = _target(rule or "", index)
    return f"/rules/{index[target]}#{target}" if target else None


@lru_cache(maxsize=None)
def html(doc: str) -> str:
    """The document as HTML: an anchor on each definition, a link on each mention of a defined id."""
    source, defined = _anchored(doc)
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(source)

    def mention(m: re.Match) -> str:
        target = _target(m[0], defined)
        return f'<a href="#{target}">{m[0]}</a>' if target else m[0]

    return HTML_PARTS.sub(lambda part: MENTION.sub(mention, part[3]) if part[3] is not None else part[0], body)


def title(doc: str) -> str:
    return escape(documents()[doc][0])
