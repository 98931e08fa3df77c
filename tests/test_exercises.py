"""Every chapter's exercises and "What you will learn" box (checked without executing).

The chapters use sphinx-exercise: an ``{exercise}`` directive with a ``:label:``, and
for each one a solution, either a plain ``{solution} label`` block (text) or the gated
``{solution-start} label`` ... ``{solution-end}`` pair that may hold code cells. The
code of those solutions runs with the chapter (nbval, the book build); these checks
catch what a build would only warn about, or not notice at all: an exercise without a
solution, a duplicated label, an unclosed gate, exercises placed after the final
hidden assert cell.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_book import (
    _chapters,
)  # tests/ is on sys.path (pytest's rootdir-relative import)

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
# Pages that are not chapters with exercises: the front page, the practical guide
# (a how-to without derivations, outside the numbered chapters), the API reference
# and the bibliography.
NO_EXERCISES = {"intro", "guide", "api", "references"}
MIN_EXERCISES = 2

FENCE = re.compile(r"^(`{3,}|~{3,})\{([\w-]+)\}[ \t]*(.*)$", re.M)
LABEL = re.compile(r"^:label:\s*(\S+)", re.M)


def _with_exercises() -> list[Path]:
    return [p for p in _chapters() if p.stem not in NO_EXERCISES]


def _directives(text: str) -> list[tuple[int, str, str, str]]:
    """(offset, name, argument, body up to its closing fence) of each directive."""
    out = []
    for match in FENCE.finditer(text):
        fence = match.group(1)
        close = re.compile(rf"^{re.escape(fence)}[ \t]*$", re.M)
        end = close.search(text, match.end())
        body = text[match.end() : end.start() if end else len(text)]
        out.append((match.start(), match.group(2), match.group(3).strip(), body))
    return out


def exercise_labels(text: str) -> list[str]:
    labels = []
    for _, name, _, body in _directives(text):
        if name == "exercise":
            found = LABEL.search(body)
            labels.append(found.group(1) if found else "")
    return labels


def problems(text: str) -> list[str]:
    """Everything wrong with one chapter's exercises; empty when all is well."""
    found = []
    directives = _directives(text)
    heading = re.search(r"^## Exercises[ \t]*$", text, re.M)
    if heading is None:
        found.append("no '## Exercises' section")
    if not re.search(r"^`{3,}\{admonition\}\s+What you will learn", text, re.M):
        found.append("no 'What you will learn' admonition")

    labels = exercise_labels(text)
    if "" in labels:
        found.append("an exercise has no :label:")
    if len(labels) < MIN_EXERCISES:
        found.append(f"{len(labels)} exercises, fewer than {MIN_EXERCISES}")
    if len(set(labels)) != len(labels):
        found.append(f"duplicated exercise labels {sorted(labels)}")
    exercises_at = [o for o, n, _, _ in directives if n == "exercise"]
    if heading is not None and any(o < heading.start() for o in exercises_at):
        found.append("an exercise comes before the '## Exercises' heading")

    solved = [arg for _, n, arg, _ in directives if n in ("solution", "solution-start")]
    for label in labels:
        if label and solved.count(label) != 1:
            found.append(f"exercise {label!r} has {solved.count(label)} solutions")
    for label in set(solved) - set(labels):
        found.append(f"solution {label!r} answers no exercise of this chapter")
    if not any(n == "solution" for _, n, _, _ in directives):
        found.append("no text solution ({solution} block)")

    # gates: solution-start / solution-end strictly alternate; each gated solution
    # holds a code cell with an assert, so a wrong solution fails the chapter's run
    open_at, n_code_solutions = None, 0
    for offset, name, _, _ in directives:
        if name == "solution-start":
            if open_at is not None:
                found.append("solution-start inside an open solution-start")
            open_at = offset
        elif name == "solution-end":
            if open_at is None:
                found.append("solution-end without solution-start")
                continue
            gated = [
                b
                for o, n, _, b in directives
                if open_at < o < offset and n == "code-cell"
            ]
            if not any("assert" in b for b in gated):
                found.append("a gated solution without a code cell that asserts")
            n_code_solutions += bool(gated)
            open_at = None
    if open_at is not None:
        found.append("solution-start without solution-end")
    if n_code_solutions == 0:
        found.append("no computational solution (code cell between solution gates)")

    cells = [(o, b) for o, n, _, b in directives if n == "code-cell"]
    last_offset, last_body = cells[-1] if cells else (-1, "")
    if not ("remove-cell" in last_body and "assert " in last_body):
        found.append("the last code cell is not the hidden assert cell")
    exercise_parts = [
        o
        for o, n, _, _ in directives
        if n in ("exercise", "solution", "solution-start", "solution-end")
    ]
    if exercise_parts and last_offset < max(exercise_parts):
        found.append("the hidden assert cell comes before the end of the exercises")
    return found


def test_there_are_chapters_to_check():
    assert len(_with_exercises()) >= 9, [p.stem for p in _with_exercises()]


@pytest.mark.parametrize("chapter", _with_exercises(), ids=lambda p: p.stem)
def test_chapter_exercises(chapter):
    assert problems(chapter.read_text(encoding="utf-8")) == [], chapter.name


def test_exercise_labels_are_unique_across_the_book():
    seen: dict[str, str] = {}
    for chapter in _chapters():
        for label in exercise_labels(chapter.read_text(encoding="utf-8")):
            assert label not in seen, f"{label!r} in {chapter.name} and {seen[label]}"
            seen[label] = chapter.name
    # equation and figure labels share Sphinx's namespace with exercises
    other = set()
    for chapter in _chapters():
        text = chapter.read_text(encoding="utf-8")
        other |= set(LABEL.findall(text)) - set(exercise_labels(text))
        other |= set(re.findall(r"^\s*name:\s*(\S+)", text, re.M))
    assert not set(seen) & other, sorted(set(seen) & other)


# The checker itself must be able to fail: a small chapter, then ways to break it.
GOOD = """\
# Title

Introduction.

```{admonition} What you will learn
- a thing
```

```{code-cell} ipython3
x = 1
```

## Exercises

```{exercise}
:label: demo-ex-1

Show it.
```

```{solution} demo-ex-1
:class: dropdown

Because.
```

```{exercise}
:label: demo-ex-2

Compute it.
```

```{solution-start} demo-ex-2
:class: dropdown
```

```{code-cell} ipython3
ex_value = 2
assert ex_value == 2
```

```{solution-end}
```

```{code-cell} ipython3
:tags: [remove-cell]

assert x == 1
```
"""

HIDDEN = "```{code-cell} ipython3\n:tags: [remove-cell]\n\nassert x == 1\n```\n"
BREAKAGES = {
    "no heading": lambda s: s.replace("## Exercises\n", ""),
    "no box": lambda s: s.replace("What you will learn", "Overview"),
    "one exercise": lambda s: s.replace(
        "```{exercise}\n:label: demo-ex-2", "```{note}"
    ),
    "unanswered": lambda s: s.replace("{solution} demo-ex-1", "{solution} demo-ex-9"),
    "answered twice": lambda s: s.replace(
        "```{solution-start} demo-ex-2",
        "```{solution} demo-ex-2\n```\n\n```{solution-start} demo-ex-2",
    ),
    "unclosed gate": lambda s: s.replace("```{solution-end}\n```\n", ""),
    "gate without assert": lambda s: s.replace("assert ex_value == 2\n", ""),
    "no text solution": lambda s: s.replace(
        "```{solution} demo-ex-1\n:class: dropdown\n\nBecause.\n```",
        "```{solution-start} demo-ex-1\n```\n\n"
        "```{code-cell} ipython3\nassert 1\n```\n\n"
        "```{solution-end}\n```",
    ),
    "duplicate label": lambda s: s.replace("demo-ex-2", "demo-ex-1"),
    "asserts before exercises": lambda s: s.replace(HIDDEN, "").replace(
        "## Exercises", HIDDEN + "\n## Exercises"
    ),
}


def test_the_checker_accepts_a_good_chapter():
    assert problems(GOOD) == []


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_the_checker_rejects_a_broken_chapter(breakage):
    broken = BREAKAGES[breakage](GOOD)
    assert broken != GOOD, "the breakage did not apply"
    assert problems(broken), breakage
