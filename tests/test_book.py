"""The book's structure: what every chapter must carry (checked without executing it).

Execution itself is tested by nbval (`pytest book --nbval-lax`) and by the book
build; these checks catch the omissions a build does not report.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def _toc_files() -> list[str]:
    """The root page and every chapter listed in _toc.yml."""
    return re.findall(r"(?:file|root):\s*(\S+)", (ROOT / "_toc.yml").read_text())


def _chapters() -> list[Path]:
    """MyST notebooks: book/*.md files with a jupytext + kernelspec header."""
    out = []
    for path in sorted(BOOK.glob("*.md")):
        head = path.read_text(encoding="utf-8")[:2000]
        if head.startswith("---") and "jupytext" in head and "kernelspec" in head:
            out.append(path)
    return out


def test_every_chapter_is_in_the_toc_and_every_toc_entry_exists():
    listed = set(_toc_files())
    for chapter in _chapters():
        assert f"book/{chapter.stem}" in listed, f"{chapter.name} is not in _toc.yml"
    for entry in listed:
        assert (ROOT / f"{entry}.md").exists(), f"_toc.yml lists missing {entry}"
    assert _chapters(), "no chapter found in book/"


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_chapter_has_a_hidden_assert_cell(chapter):
    cells = re.findall(r"```\{code-cell\}.*?\n(.*?)```", chapter.read_text(), re.S)
    hidden = [c for c in cells if "remove-cell" in c and "assert " in c]
    assert hidden, f"{chapter.name}: no hidden cell asserting the quoted numbers"


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_every_glued_name_in_the_text_is_glued_by_code(chapter):
    text = chapter.read_text()
    used = set(re.findall(r"\{glue:(?:text|any|math|md)\}`([A-Za-z0-9_]+)", text))
    glued = set(re.findall(r"glue\(\s*[\"']([A-Za-z0-9_]+)[\"']", text))
    # names glued in a loop: ("name", value) pairs, or glue(f"prefix_{i}", ...)
    glued |= set(re.findall(r"\(\s*[\"']([A-Za-z0-9_]+)[\"']\s*,", text))
    prefixes = re.findall(r"glue\(\s*f[\"']([A-Za-z0-9_]*)\{", text)
    used = {u for u in used if not any(p and u.startswith(p) for p in prefixes)}
    assert used <= glued, f"{chapter.name}: text uses unglued {sorted(used - glued)}"


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_every_equation_reference_has_a_label(chapter):
    # equation labels are global in Sphinx: a chapter may cite another's equation
    labels = {
        label
        for other in _chapters()
        for label in re.findall(r":label:\s*(\S+)", other.read_text())
    }
    refs = set(re.findall(r"\{eq\}`([^`]+)`", chapter.read_text()))
    assert refs <= labels, f"{chapter.name}: {sorted(refs - labels)} are not labelled"


def test_no_committed_notebooks_with_outputs():
    assert not list(BOOK.glob("*.ipynb")), "chapters are MyST .md text notebooks"


def test_bibliography_keys_cited_exist():
    bib = (BOOK / "references.bib").read_text()
    keys = set(re.findall(r"@\w+\{([^,]+),", bib))
    for path in BOOK.glob("*.md"):
        for group in re.findall(r"\{cite(?::[tp])?\}`([^`]+)`", path.read_text()):
            for key in group.split(","):
                assert key.strip() in keys, f"{path.name} cites unknown {key!r}"


# --- hidden asserts guard computed values (CONTRIBUTING.md) ---------------------------

# Names that compute nothing by themselves: builtins and modules.
_NEUTRAL = {
    "abs", "len", "min", "max", "round", "all", "any", "sum", "int", "float", "bool",
    "str", "set", "list", "tuple", "dict", "sorted", "isinstance", "range", "zip",
    "np", "math", "pd", "True", "False", "None",
}


def _code_cells(chapter: Path) -> list[str]:
    cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", chapter.read_text(), re.S)
    out = []
    for cell in cells:
        lines = cell.splitlines()
        if lines and lines[0] == "---":  # YAML options block
            lines = lines[lines.index("---", 1) + 1 :]
        out.append("\n".join(l for l in lines if not re.match(r"^:\w+:", l)))
    return out


def _is_literal(node) -> bool:
    """An expression built from literals only (and neutral builtins)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return names <= _NEUTRAL


def weak_asserts(code_cells: list[str]) -> list[str]:
    """Asserts that cannot fail on a computed value: constants only, or x == x."""
    trees = []
    for cell in code_cells:
        try:
            trees.append(ast.parse(cell))
        except SyntaxError:
            continue
    # a constant: a name only ever bound to literals and never changed in place
    literal, changed = set(), set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                (literal if _is_literal(node.value) else changed).update(names)
                for t in node.targets:  # x[k] = ..., x.a = ..., a, b = ...
                    if not isinstance(t, ast.Name):
                        changed |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.withitem, ast.NamedExpr)):
                target = getattr(node, "target", None) or getattr(node, "optional_vars", None)
                if target is not None:
                    changed |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base = node.func.value  # x.append(...), x.update(...)
                if isinstance(base, ast.Name):
                    changed.add(base.id)
            elif isinstance(node, ast.Delete):
                changed |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    constants = literal - changed
    found = []
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assert):
                continue
            # each conjunct of "assert a and b" must guard something on its own
            tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And) else [node.test]
            for test in tests:
                names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
                text = ast.unparse(test)[:100]
                if not names - _NEUTRAL - constants:
                    found.append(f"no computed value: assert {text}")
                    continue
                for cmp in ast.walk(test):
                    if isinstance(cmp, ast.Compare):
                        dumps = [ast.dump(s) for s in (cmp.left, *cmp.comparators)]
                        if len(set(dumps)) < len(dumps):
                            found.append(f"compares a value with itself: assert {text}")
                            break
    return found


def test_weak_asserts_are_detected():
    cells = [
        "N = 200_000\nLIMIT = 320\nx = compute()\n",
        "assert 8 * 200_000**2 / 1e9 == 320\nassert 8 * N**2 / 1e9 == LIMIT\n"
        "assert x == x\nassert abs(x - 0.5) < 0.1\nassert len(x) == N\n"
        "assert len(x) == N and 2 * 3 == 6\n",
    ]
    found = weak_asserts(cells)
    assert len(found) == 4, found
    assert found[3] == "no computed value: assert 2 * 3 == 6"
    assert found[0].startswith("no computed value: assert 8 * 200000")
    assert found[1].startswith("no computed value: assert 8 * N")
    assert found[2].startswith("compares a value with itself")


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_hidden_asserts_guard_computed_values(chapter):
    found = weak_asserts(_code_cells(chapter))
    assert not found, f"{chapter.name}: asserts that guard nothing:\n  " + "\n  ".join(found)


def _cell_sources(text: str) -> list[str]:
    """The code of each code cell, without its option lines (``:tags:``, ``---``)."""
    out = []
    for body in re.findall(r"```\{code-cell\}.*?\n(.*?)```", text, re.S):
        lines = body.splitlines()
        if lines and lines[0].strip() == "---":  # a YAML options block
            end = lines.index("---", 1) if "---" in lines[1:] else 0
            lines = lines[end + 1 :]
        lines = [ln for ln in lines if not re.match(r"^:\w[\w-]*:", ln)]
        out.append("\n".join(ln for ln in lines if not ln.lstrip().startswith("%")))
    return out


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_every_numbered_table_is_shown(chapter):
    # lssvm.reporting.ledger.table returns a display object: only a cell's last expression is
    # shown, so a table(...) statement anywhere else is silently dropped (its
    # {numref} then points nowhere); wrap it in display(...)
    import ast

    dropped = []
    for source in _cell_sources(chapter.read_text()):
        try:
            body = ast.parse(source).body
        except SyntaxError:
            continue
        for stmt in body[:-1]:
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "table":
                dropped.append(ast.get_source_segment(source, stmt).splitlines()[0])
    assert not dropped, f"{chapter.name}: table(...) not shown: {dropped}"
