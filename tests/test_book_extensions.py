"""The book's two small Sphinx extensions (book/_ext), tested without a build."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
import equation_links  # noqa: E402


@pytest.mark.parametrize(
    ("number", "chapter"),
    [(5, "classification"), (13, "multiclass"), (23, "fisher"),
     (25, "conjugate_gradient"), (34, "regression"), (52, "pruning"),
     (62, "regression"), (69, "ard"), (99, None)],
)  # fmt: skip
def test_equation_numbers_map_to_the_deriving_chapter(number, chapter):
    assert equation_links.chapter_of(number) == chapter


def test_only_plain_prose_is_linked():
    lines = [
        "Solve [S 3.24] by [S 3.25].",
        "with ``H [S 3.24]`` in a literal",
        ".. math::",
        "",
        "   K [S 3.13] inside the block",
        "back to prose [S 3.62-3.63], not 3.7 or (3.5) or f[S 3.5]",
        ">>> g([S 3.1])",
        "Example::",
        "    [S 3.5] literal",
        "[S 3.99] is no equation of the book",
    ]
    out = equation_links.link_lines(lines)
    assert out[0] == (
        "Solve :doc:`[S 3.24] </book/conjugate_gradient>` by "
        ":doc:`[S 3.25] </book/conjugate_gradient>`."
    )
    assert out[1:5] == lines[1:5]  # literal and math block untouched
    assert out[5] == (
        "back to prose :doc:`[S 3.62-3.63] </book/regression>`, "
        "not 3.7 or (3.5) or f[S 3.5]"
    )  # a range links to the chapter of its first equation; no link inside f[...]
    assert out[6:] == lines[6:]


def test_the_ledgers_extension_imports_what_the_assembly_defines():
    """book/_ext/ledgers.py places what ledger_assembly computes: every name it
    imports exists, and its status table has one column per verdict with the
    unresolved part of "reproduced qualitatively" apart."""
    pytest.importorskip("sphinx")
    import ledger_assembly
    import ledgers

    assert ledgers.SUMMARY_HEADER == ledger_assembly.SUMMARY_HEADER
    assert ledgers.SUMMARY_HEADER[1:] == [
        "Reproduced", "Reproduced qualitatively", "Unresolved", "Erratum in source",
        "Not reproduced", "Not attempted"]  # fmt: skip
    assert ledgers.column is ledger_assembly.column
    assert ledgers.rows_and_entries is ledger_assembly.rows_and_entries
