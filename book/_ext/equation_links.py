"""Sphinx extension of the book: equation numbers in docstrings link to the chapters.

The docstrings of ``lssvm`` cite the equations of chapter 3 of Suykens et al. (2002)
in the book's citation form, "[S 3.24]" or "[S 3.24-3.27]" (defined on the landing
page). On the API page (autodoc) each such citation becomes a link to the chapter that
derives the (first) equation, so a reader can go from a function to its
derivation. Only plain prose is rewritten: lines with inline markup (backticks),
doctest lines and the bodies of literal or math blocks are left as they are.
"""

from __future__ import annotations

import re

# The book's equation numbers -> the chapter that derives them (its sections:
# 3.1 classification, 3.2 multiclass, 3.3 Fisher, 3.4.1 conjugate gradient,
# 3.5-3.6 function estimation and Gaussian processes, 3.7 pruning, [S 3.69] ARD).
CHAPTERS = [
    (1, 7, "classification"),
    (8, 14, "multiclass"),
    (15, 23, "fisher"),
    (24, 28, "conjugate_gradient"),
    (29, 51, "regression"),
    (52, 52, "pruning"),
    (53, 68, "regression"),
    (69, 69, "ard"),
]
CITATION = re.compile(r"(?<![\w`])\[S 3\.(\d+)((?:-3\.\d+)?)\](?![\w`])")


def chapter_of(number: int) -> str | None:
    """The chapter (document name in book/) deriving equation [S 3.number]."""
    for first, last, chapter in CHAPTERS:
        if first <= number <= last:
            return chapter
    return None


def _link(match: re.Match) -> str:
    chapter = chapter_of(int(match.group(1)))
    if chapter is None:
        return match.group(0)
    return f":doc:`[S 3.{match.group(1)}{match.group(2)}] </book/{chapter}>`"


def link_lines(lines: list[str]) -> list[str]:
    """The docstring lines with [S 3.N] citations in plain prose turned into links."""
    out, block_indent = [], None
    for line in lines:
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block_indent is not None:  # inside a literal or math block
            if stripped and indent <= block_indent:
                block_indent = None
            else:
                out.append(line)
                continue
        if stripped.startswith(".. ") or line.rstrip().endswith("::"):
            block_indent = indent
            out.append(line)
            continue
        plain = "`" not in line and not stripped.startswith((">>>", "..."))
        out.append(CITATION.sub(_link, line) if plain else line)
    return out


def process_docstring(app, what, name, obj, options, lines):
    lines[:] = link_lines(lines)


def setup(app):
    app.connect("autodoc-process-docstring", process_docstring)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
