"""The spec parses as strictly as the browser's YAML reader: PyYAML keeps the last of two equal
keys without a word, while Swagger UI's js-yaml refuses the whole document (an empty /docs)."""
from __future__ import annotations

from pathlib import Path

import yaml

from domain import registry
from server import spec

REPOSITORY_SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


class _Strict(yaml.SafeLoader):
    """A loader that refuses a mapping naming one key twice."""


def _mapping(loader: _Strict, node: yaml.MappingNode, deep: bool = False) -> dict:
    keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
    twice = sorted({str(k) for k in keys if keys.count(k) > 1})
    if twice:
        raise yaml.constructor.ConstructorError(None, None, f"keys given twice: {twice}", node.start_mark)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def test_no_key_is_given_twice():
    """In the file and in the document served (the file with the registered games' schemas)."""
    assert yaml.load(spec.PATH.read_text(encoding="utf-8"), Loader=_Strict)["openapi"]
    assert yaml.load(spec.text(), Loader=_Strict)["openapi"]


def test_the_strict_reader_can_fail():
    try:
        yaml.load("a: 1\na: 2\n", Loader=_Strict)
    except yaml.constructor.ConstructorError as exc:
        assert "['a']" in str(exc)
    else:
        raise AssertionError("a key given twice was accepted")


def test_the_repository_openapi_yaml_is_the_served_document():
    """``openapi.yaml`` at the repository's top is what a server serves, every shipped game's schemas
    in place: a client author reads the whole contract without running anything."""
    assert REPOSITORY_SPEC.read_text(encoding="utf-8") == spec.text(registry.SHIPPED), \
        "openapi.yaml is out of date with server/openapi.yaml or a game's schemas: run `make openapi`"
