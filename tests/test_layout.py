"""The package's layers: imports point down, ``lssvm.linalg`` imports no estimator.

The import graph is read from the source (every ``import``/``from`` of an lssvm
module, relative imports resolved), without importing anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "lssvm"

#: Modules that define estimators (or fit them): the linalg layer may import none.
ESTIMATOR_LAYERS = (
    "lssvm.classifier", "lssvm.regressor", "lssvm._base", "lssvm.model_selection",
    "lssvm.bayes", "lssvm.sparse", "lssvm.relatives", "lssvm.reporting", "lssvm.robust",
    "lssvm.timeseries", "lssvm.datasets",
)  # fmt: skip


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str, modules: set[str]) -> str:
    """The module an imported name lives in: ``lssvm.linalg.solvers.X`` -> its module."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def import_graph() -> dict[str, set[str]]:
    """module -> the lssvm modules it imports (submodules named in ``from . import``)."""
    files = {_module(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    root = ".".join(base + ([node.module] if node.module else []))
                else:
                    root = node.module or ""
                targets = [f"{root}.{a.name}" for a in node.names] + [root]
            else:
                continue
            for target in targets:
                found = _resolve(target, modules)
                if found.startswith("lssvm") and found != mod:
                    edges.add(found)
        # a package's own __init__ is implied by importing its modules; keep real edges
        graph[mod] = {e for e in edges if e != "lssvm" or mod == "lssvm"}
    return graph


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def _is_package_init(mod: str) -> bool:
    return (PACKAGE.parent / mod.replace(".", "/") / "__init__.py").exists()


def test_linalg_imports_no_estimator():
    graph = import_graph()
    bad = {
        mod: sorted(e for e in edges if e.startswith(ESTIMATOR_LAYERS))
        for mod, edges in graph.items()
        if mod.startswith("lssvm.linalg")
    }
    bad = {m: e for m, e in bad.items() if e}
    assert not bad, f"lssvm.linalg imports estimators: {bad}"


def test_the_module_graph_has_no_cycle():
    # a package __init__ that re-exports its modules is not a layer of its own:
    # contract each subpackage's __init__ edges into the modules they name
    graph = {m: {e for e in edges if not _is_package_init(e)} for m, edges in
             import_graph().items() if not _is_package_init(m)}
    assert _cycles(graph) == []


def test_the_core_never_imports_the_relatives_or_reporting():
    graph = import_graph()
    core = [m for m in graph if m.count(".") == 1 and m != "lssvm" and not _is_package_init(m)]
    below = ("lssvm.linalg", "lssvm.model_selection", "lssvm.sparse", "lssvm.bayes")
    bad = {}
    for mod in core + [m for m in graph if m.startswith(below)]:
        hits = sorted(e for e in graph[mod] if e.startswith(("lssvm.relatives", "lssvm.reporting")))
        if hits:
            bad[mod] = hits
    assert not bad, f"core modules import relatives/reporting: {bad}"


def test_cycle_detector_finds_a_fabricated_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_import_lssvm_loads_no_relative_and_no_matplotlib():
    """The core stands alone: relatives load on first use, figures only in the book."""
    import subprocess
    import sys

    code = (
        "import sys, lssvm\n"
        "assert not [m for m in sys.modules if m.startswith('lssvm.relatives')]\n"
        "assert 'matplotlib' not in sys.modules\n"
        "from lssvm import RLSSVMClassifier\n"
        "assert RLSSVMClassifier.__module__ == 'lssvm.relatives.rls_svm'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_no_module_imports_a_private_name_of_another():
    """What crosses a module line is public (no leading underscore) or a module.

    ``from ..kernels import _helper`` or ``evidence._helper(...)`` ties one module to
    another's internals; the layered package keeps those helpers public (without the
    underscore) when another module needs them. Importing a private *module*
    (``from .. import _validation``, ``from .._base import LSSVMBase``) is fine.
    """
    package = Path(__file__).resolve().parents[1] / "lssvm"
    modules = {p.stem for p in package.rglob("*.py")}
    offending = []
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text())
        imported_modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                for alias in node.names:
                    name = alias.name
                    if name.startswith("_") and name not in modules:
                        offending.append(f"{path.relative_to(package)}: import {name}")
                    if name in modules:
                        imported_modules.add(alias.asname or name)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported_modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                offending.append(f"{path.relative_to(package)}: {node.value.id}.{node.attr}")
    assert not offending, offending
