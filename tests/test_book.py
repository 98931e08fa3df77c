"""The book's structure: what every chapter must carry (checked without executing it).

Execution itself is tested by nbval (`pytest book --nbval-lax`) and by the book
build; these checks catch the omissions a build does not report.
"""

from __future__ import annotations

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
