"""Every code cell of the book is at most 80 lines (CONTRIBUTING.md).

A chapter's argument runs from the equation to the evidence; a cell of a hundred lines
between them hides it. Long computations live in tested modules (``lssvm``,
``benchmarks``), the numbers the text quotes are glued in hidden cells, and a cell
that still grows past the limit is split where its steps are.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
MAX_LINES = 80


def code_cells(text: str) -> list[tuple[int, int]]:
    """(first line, number of code lines) of each code cell of a MyST notebook.

    The options (a ``---`` YAML block or ``:key: value`` lines) are not code.
    """
    cells = []
    for match in re.finditer(r"```\{code-cell\}[^\n]*\n(.*?)```", text, re.S):
        lines = match.group(1).splitlines()
        if lines and lines[0] == "---":
            lines = lines[lines.index("---", 1) + 1 :]
        while lines and lines[0].startswith(":"):
            lines = lines[1:]
        cells.append((text.count("\n", 0, match.start()) + 1, len(lines)))
    return cells


def test_code_cells_counts_options_apart():
    text = "```{code-cell} ipython3\n:tags: [remove-cell]\n\nx = 1\n```\n"
    assert code_cells(text) == [(1, 2)]
    text = "```{code-cell} ipython3\n---\ntags: [hide-input]\n---\nx = 1\n```\n"
    assert code_cells(text) == [(1, 1)]


@pytest.mark.parametrize("chapter", sorted(p.name for p in BOOK.glob("*.md")))
def test_code_cells_are_short(chapter):
    long = [(line, n) for line, n in code_cells((BOOK / chapter).read_text())
            if n > MAX_LINES]
    assert not long, (
        f"{chapter}: code cells over {MAX_LINES} lines (first line, length): {long}; "
        "split them where their steps are, and glue the quoted numbers in a "
        "remove-cell cell"
    )
