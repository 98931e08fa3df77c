"""Every citation of a source names its source (the book's citation form).

Our chapters are numbered, so a bare "(3.5)" could be Suykens et al.'s equation or
our chapter 3's fifth equation. The book therefore cites the sources only in the
tagged form defined on the landing page (``book/intro.md``, "How we cite"):

    [S 3.24]  [S 3.24-3.27]  [S Fig. 3.2]  [S Table 3.4]  [S §3.4.2]
    [SLV Fig. 2]  [P 48]  [P Table 4]  [VG 11]  [C8 §8.4.4]

and refers to its own equations, figures and tables only through ``{eq}`` and
``{numref}`` roles. This test scans the prose and captions of every chapter, the
comments and strings of their code cells, and the docstrings and comments of the
package, and fails on any bare source-style number outside that form.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TAGS = ("S", "SLV", "P", "VG", "C8", "RW")
# A well-formed citation: one tag, then equation numbers, or Fig./Table/§ items.
_ITEM = r"(?:\d+(?:\.\d+)*[a-z]?)"
_ITEMS = rf"{_ITEM}(?:\s*(?:-|–|,|and)\s*{_ITEM})*"
CITATION = re.compile(
    rf"\[(?:{'|'.join(TAGS)}) (?:(?:Figs?\.|Tables?|§) ?)?{_ITEMS}"
    rf"(?:,? (?:(?:Figs?\.|Tables?|§) ?)?{_ITEMS})*\]"
)
# What a bare citation of a source looks like once the tagged ones are removed.
BARE = re.compile(
    r"\(\d+\.\d+\)"  # (3.12)
    r"|\bFigs?\.\s*\d+(?:\.\d+)?"  # Fig. 3.2, Fig. 2
    r"|\bTables?\s+\d+(?:\.\d+)?"  # Table 3.4, Table 4
    r"|\b[Ss]ections?\s+\d+(?:\.\d+)+"  # section 3.4.1
    r"|§\s*\d+(?:\.\d+)*"  # §3.7
    r"|\b(?:eqs?\.|equations?)\s*\(?\d+\)?"  # eq. (48), equation 11
)
# Peng et al. and Van Gestel et al. number their equations (1), (2), ...: in the
# chapters and modules built on them a bare "(48)" outside math is a citation too.
INTEGER_NUMBERED = {"rls_svm", "ard", "bayes"}
BARE_INTEGER = re.compile(r"(?<![\w^_{])\(\d{1,2}\)")
INLINE_MATH = re.compile(r"\$[^$\n]*\$")
INLINE_CODE = re.compile(r"`[^`\n]*`")
MYST_ROLE = re.compile(r"\{[a-z:]+\}`[^`]*`")


def bare_citations(text: str, integer_numbered: bool = False) -> list[str]:
    """The bare source-style numbers in a piece of prose."""
    text = MYST_ROLE.sub(" ", text)
    text = INLINE_CODE.sub(" ", text)
    text = CITATION.sub(" ", text)
    hits = [m.group(0) for m in BARE.finditer(text)]
    if integer_numbered:
        text = INLINE_MATH.sub(" ", text)
        hits += [m.group(0) for m in BARE_INTEGER.finditer(text)]
    return hits


def _python_text(source: str) -> list[tuple[int, str]]:
    """(line, text) of the comments and string literals of Python source."""
    out = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [(i + 1, line) for i, line in enumerate(source.splitlines())]
    kinds = {tokenize.COMMENT, tokenize.STRING}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", -1)}
    for tok in tokens:
        if tok.type in kinds:
            for offset, line in enumerate(tok.string.splitlines()):
                if not line.lstrip().startswith((">>>", "... ")):  # doctest code
                    out.append((tok.start[0] + offset, line))
    return out


def _markdown_text(source: str) -> list[tuple[int, str]]:
    """(line, text) of a MyST chapter: prose and captions, and its code's comments."""
    out, code, start = [], None, 0
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if code is None and re.match(r"^```\{code-cell\}", line):
            code, start = [], i + 1
            continue
        if code is not None:
            if line.startswith("```"):
                out += [(start + n, t) for n, t in _python_text("\n".join(code) + "\n")]
                code = None
            else:
                code.append(line)
            continue
        out.append((i + 1, line))
    return out


def _sources() -> list[Path]:
    book = sorted((ROOT / "book").glob("*.md"))
    return book + sorted((ROOT / "lssvm").rglob("*.py"))


def find_bare(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    parts = _markdown_text(source) if path.suffix == ".md" else _python_text(source)
    return [
        f"{path.relative_to(ROOT)}:{line}: {hit!r} in {text.strip()[:90]!r}"
        for line, text in parts
        for hit in bare_citations(text, path.stem in INTEGER_NUMBERED)
    ]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
def test_sources_are_cited_in_the_tagged_form(path):
    found = find_bare(path)
    assert not found, (
        "bare source-style numbers (cite them as [S 3.24], [S Fig. 3.2], [P 48], "
        "... as defined in book/intro.md; our own equations only through {eq}/"
        "{numref}):\n  " + "\n  ".join(found[:40])
    )


def test_the_check_flags_bare_forms_and_accepts_tagged_ones():
    bare = (
        "this is (3.9); see Fig. 3.2, Table 3.4, section 3.4.2, §3.7, eq. (48), "
        "Figs. 1.2, Table 4"
    )
    assert bare_citations(bare) == [
        "(3.9)", "Fig. 3.2", "Table 3.4", "section 3.4.2", "§3.7", "eq. (48)",
        "Figs. 1.2", "Table 4",
    ]
    tagged = (
        "[S 3.9], [S 3.24-3.27], [S Fig. 3.2], [S Table 3.4], [S Tables 3.1-3.2], "
        "[S §3.4.2], [SLV Fig. 2], [P 48], [P 61-64], [P Table 4], [VG 11], "
        "[C8 §8.4.4], {eq}`kkt-classifier`, {numref}`fig-spirals`, `Table 3.4`"
    )
    assert bare_citations(tagged) == []
    assert bare_citations("the paper's (48) and $\\mu^{(1)}$", True) == ["(48)"]
    assert bare_citations("the paper's (48)") == []


def test_the_landing_page_defines_every_tag():
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    for tag in TAGS:
        assert re.search(rf"\[{tag}\b", intro), f"intro.md does not define [{tag} ...]"
