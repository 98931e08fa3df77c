"""Every exported name is on the API page (book/api.md), documented exactly once.

The exported names are the ``__all__`` of ``lssvm`` and of its subpackages. The page
documents each object once, under its defining module (``lssvm.bayes.evidence.level2``)
or under the name it is exported by (``lssvm.LSSVMClassifier``): Sphinx, with ``-W``,
fails on two descriptions of one name, and two names for one object make two entries.
The check reads the autodoc directives of the Markdown source (no build needed) and,
when the built page is newer than its source, the anchors of the HTML page too.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "book" / "api.md"
API_HTML = ROOT / "_build" / "html" / "book" / "api.html"
PACKAGES = [
    "lssvm", "lssvm.relatives", "lssvm.linalg", "lssvm.model_selection",
    "lssvm.bayes", "lssvm.sparse", "lssvm.reporting",
]  # fmt: skip
DIRECTIVE = re.compile(r"^\.\. (auto\w+|py:data):: (\S+)\s*$")
OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")


def _directives(text: str) -> list[tuple[str, str, dict[str, str]]]:
    """(directive, target, options) of every autodoc (or ``py:data``) directive."""
    found, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        match = DIRECTIVE.match(line)
        if not match:
            continue
        options = {}
        for following in lines[i + 1 :]:
            option = OPTION.match(following)
            if not option:
                break
            options[option.group(1)] = option.group(2).strip()
        target = match.group(2)
        if match.group(1) == "py:data":  # inside an automodule's scope the current
            assert "module" in options, f"py:data {target} needs :module:"  # module
            target = f"{options['module']}.{target}"  # would be prefixed to the name
        found.append((match.group(1), target, options))
    return found


def _split(names: str) -> list[str]:
    return [name.strip() for name in names.split(",") if name.strip()]


def _documented_names(text: str) -> list[str]:
    """The dotted names the page's directives document (module members expanded).

    ``automodule`` with a bare ``:members:`` documents the module's ``__all__``
    (every module of the package defines one) less ``:exclude-members:``; module data
    counts only where the page describes it with ``py:data`` (autodoc shows data only
    with a ``#:`` doc comment, and a tuple's without one shows ``tuple``'s docstring).
    """
    names = []
    for directive, target, options in _directives(text):
        if directive != "automodule":
            names.append(target)
            continue
        if "members" not in options:
            continue
        module = importlib.import_module(target)
        explicit = _split(options["members"])
        excluded = set(_split(options.get("exclude-members", "")))
        for name in explicit or module.__all__:
            if name in excluded:
                continue
            if not explicit and _is_undocumented_data(getattr(module, name)):
                continue
            names.append(f"{target}.{name}")
    return names


def _is_undocumented_data(obj) -> bool:
    """Module data (not a class or function): autodoc skips it in a bare
    ``:members:`` unless it has a ``#:`` doc comment; the exported data are
    described with ``py:data`` and their ``:value:``."""
    return not (isinstance(obj, type) or callable(obj))


def _resolve(dotted: str):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return obj
    raise ImportError(dotted)


def _exported() -> list[tuple[str, object]]:
    exported = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        exported += [
            (f"{package}.{name}", getattr(module, name)) for name in module.__all__
        ]
    return exported


def _key(obj):
    """Identity of an exported object (tuples and strings are compared by value)."""
    return id(obj) if isinstance(obj, type) or callable(obj) else ("value", repr(obj))


@pytest.fixture(scope="module")
def documented() -> dict[str, object]:
    return {name: _resolve(name) for name in _documented_names(API_MD.read_text())}


def test_every_exported_name_is_documented(documented):
    keys = {_key(obj) for obj in documented.values()}
    missing = [name for name, obj in _exported() if _key(obj) not in keys]
    assert not missing, f"exported but not on book/api.md: {missing}"


def test_no_object_is_documented_twice(documented):
    names = _documented_names(API_MD.read_text())
    assert len(names) == len(set(names)), "a name is documented twice"
    seen: dict[object, str] = {}
    for name, obj in documented.items():
        if not (isinstance(obj, type) or callable(obj)):
            continue
        assert _key(obj) not in seen, (
            f"{name} and {seen[_key(obj)]} document one object"
        )
        seen[_key(obj)] = name


def test_the_member_lists_name_existing_attributes_and_data_show_their_value():
    for directive, target, options in _directives(API_MD.read_text()):
        if directive == "py:data":  # written by hand (autodata shows tuple's docstring)
            assert options.get("value") == repr(_resolve(target)), target
        if directive == "autoclass" and options.get("members"):
            cls = _resolve(target)
            absent = [m for m in _split(options["members"]) if not hasattr(cls, m)]
            assert not absent, f"{target} has no {absent}"


def test_the_built_page_has_an_entry_for_every_exported_name(documented):
    if not API_HTML.exists() or API_HTML.stat().st_mtime < API_MD.stat().st_mtime:
        pytest.skip("no build of book/api.md newer than its source")
    anchors = set(
        re.findall(r'<dt class="sig sig-object py" id="([^"]+)"', API_HTML.read_text())
    )
    by_key = {}
    for name, obj in documented.items():
        by_key.setdefault(_key(obj), []).append(name)
    missing = [
        name for name, obj in _exported()
        if not anchors.intersection(by_key.get(_key(obj), []))
    ]  # fmt: skip
    assert not missing, f"exported but without an entry in {API_HTML.name}: {missing}"
