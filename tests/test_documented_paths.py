"""One documented import path per public name: the shortest public one.

The subpackages re-export the public names of their modules (``lssvm.sparse.prune``
is ``lssvm.sparse.pruning.prune``, ``lssvm.bayes.level2`` is
``lssvm.bayes.evidence.level2``), so most objects can be imported two ways. The
package documents one (book/api.md says so at its top): the top level ``lssvm`` for
the names of ``lssvm.__all__``; else the subpackage whose ``__all__`` holds the name
(``from lssvm.sparse import prune``); else the module book/api.md documents it in
(module data such as ``GAMMA_0`` comes from a documented module whose ``__all__``
holds it). These tests check that every path api.md gives imports, and that every
``from lssvm... import`` line of README.md, of the book's chapters (book/*.md) and
of the examples in the package's docstrings (``>>>`` lines) uses the documented path.
The parser of the page is that of ``tests/test_api_page.py``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from pathlib import Path

import pytest
from test_api_page import API_MD, _directives, _documented_names, _key, _resolve

import lssvm

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "README.md", *sorted((ROOT / "book").glob("*.md"))]
DOCSTRING_SOURCES = sorted((ROOT / "lssvm").rglob("*.py"))
PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.)(?: |$)")
FROM_LSSVM = re.compile(r"^from lssvm(?:\.\w+)* import ")


@cache
def _documented() -> dict[str, object]:
    """Documented dotted name -> object, for every name book/api.md documents."""
    return {name: _resolve(name) for name in _documented_names(API_MD.read_text())}


@cache
def _documented_modules() -> tuple[str, ...]:
    """The modules book/api.md documents with ``automodule``."""
    return tuple(
        target
        for directive, target, _ in _directives(API_MD.read_text())
        if directive == "automodule"
    )


def _same(a, b) -> bool:
    return _key(a) == _key(b)


def import_statements(text: str, *, doctest_only: bool = False):
    """(line number, module, name) of every ``from lssvm... import`` in ``text``.

    A statement may continue over several lines (parentheses, doctest ``...``
    prompts); ``doctest_only`` keeps the statements of ``>>>`` prompts only (the
    examples of a docstring, not the module's own imports).
    """
    lines = text.splitlines()
    for i, line in enumerate(lines):
        prompted = bool(PROMPT.match(line))
        if doctest_only and not line.lstrip().startswith(">>>"):
            continue
        first = PROMPT.sub("", line).strip() if prompted else line.strip()
        if not FROM_LSSVM.match(first):
            continue
        statement, tree = first, None
        for following in lines[i + 1 : i + 20]:
            try:
                tree = ast.parse(statement)
                break
            except SyntaxError:
                statement += "\n" + PROMPT.sub("", following).strip()
        if tree is None:
            tree = ast.parse(statement)  # raises: an import line that does not parse
        (node,) = tree.body
        for alias in node.names:
            yield i + 1, node.module, alias.name


SUBPACKAGES = tuple(
    f"lssvm.{p.parent.name}" for p in sorted((ROOT / "lssvm").glob("*/__init__.py"))
)


def _exports(module: str, name: str, obj) -> bool:
    """``module`` lists ``name`` in its ``__all__`` and it is ``obj`` there."""
    mod = importlib.import_module(module)
    return name in getattr(mod, "__all__", ()) and _same(getattr(mod, name), obj)


def documented_path(name: str, obj) -> str | None:
    """The one documented module to import ``obj`` (named ``name``) from."""
    if _exports("lssvm", name, obj):
        return "lssvm"
    for package in SUBPACKAGES:
        if _exports(package, name, obj):
            return package
    documented = [
        dotted for dotted, target in _documented().items()
        if (target is obj if isinstance(obj, type) or callable(obj)
            else dotted.rsplit(".", 1)[1] == name and _same(target, obj))
    ]  # fmt: skip
    if documented:
        return documented[0].rsplit(".", 1)[0]
    homes = [home for home in _documented_modules() if _exports(home, name, obj)]
    return homes[0] if homes else None


def _violation(module: str, name: str) -> str | None:
    """Why ``from module import name`` is not the documented path (None when it is)."""
    path = f"{module}.{name}"
    if name.startswith("_"):
        return f"{path} is private (not on book/api.md)"
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        return f"{path} does not import ({exc})"
    if inspect.ismodule(obj):
        return None if obj.__name__ == path else f"{path} is the module {obj.__name__}"
    home = documented_path(name, obj)
    if home is None:
        return f"{path} is not on book/api.md"
    return None if module == home else f"the documented path is {home}.{name}"


def test_every_documented_path_imports():
    for dotted, obj in _documented().items():
        module, name = dotted.rsplit(".", 1)
        namespace: dict = {}
        exec(f"from {module} import {name}", namespace)  # noqa: S102
        assert _same(namespace[name], obj), dotted


def test_the_parser_reads_continued_and_doctest_imports():
    text = (
        "from lssvm import LSSVMClassifier\n"
        "from lssvm.relatives import (\n    PSVMClassifier,\n    rfe as r,\n)\n"
        "    >>> from lssvm.sparse import (prune,\n    ...     PruningPath)\n"
        "import lssvm.bayes\n"
        "Prose: from lssvm.bayes import level2 is not code.\n"
    )
    assert list(import_statements(text)) == [
        (1, "lssvm", "LSSVMClassifier"),
        (2, "lssvm.relatives", "PSVMClassifier"),
        (2, "lssvm.relatives", "rfe"),
        (6, "lssvm.sparse", "prune"),
        (6, "lssvm.sparse", "PruningPath"),
    ]
    assert [s[0] for s in import_statements(text, doctest_only=True)] == [6, 6]
    # prune has two paths: the subpackage's is the documented one
    assert _violation("lssvm.sparse", "prune") is None
    assert "lssvm.sparse.prune" in _violation("lssvm.sparse.pruning", "prune")
    # an estimator of lssvm.__all__ that a subpackage also exports: the top level
    assert _violation("lssvm", "FixedSizeLSSVMRegressor") is None
    assert "lssvm.FixedSizeLSSVMRegressor" in _violation(
        "lssvm.sparse", "FixedSizeLSSVMRegressor"
    )
    assert _violation("lssvm", "bayes") is None
    assert _violation("lssvm", "LSSVMClassifier") is None
    assert "private" in _violation("lssvm.datasets", "_a_private_name")
    assert "does not import" in _violation("lssvm.sparse", "no_such_name")


@pytest.mark.parametrize(
    "source", SOURCES + ["docstrings"], ids=lambda s: getattr(s, "name", s)
)
def test_imports_use_the_documented_path(source):
    if source == "docstrings":
        files = [(p, import_statements(p.read_text(), doctest_only=True))
                 for p in DOCSTRING_SOURCES]  # fmt: skip
    else:
        files = [(source, import_statements(source.read_text()))]
    violations = [
        f"{path.relative_to(ROOT)}:{line}: from {module} import {name}: {why}"
        for path, statements in files
        for line, module, name in statements
        if (why := _violation(module, name))
    ]
    assert not violations, "\n".join(violations)
