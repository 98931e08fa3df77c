"""The book's reproduction status, assembled from the chapters' ledgers: pure functions.

Every chapter that reproduces a source writes its ledger
(:class:`lssvm.reporting.ledger.Ledger`) to ``_build/ledgers/<chapter>.json``. The
functions here turn those dicts into what the landing page and the status page show:
the per-chapter counts (:func:`assemble`), the open items (:func:`open_item_tables`),
the verdict sentences (:func:`verdict_sentences`), the multiplicity numbers
(:func:`multiplicity`, :func:`number_text`), the chapter map (:func:`chapter_map_rows`)
and the machine-readable record (:func:`reproduction_record`). They read no files but
the git commit and import no Sphinx: ``tests/test_landing.py`` tests them without a
build, and the Sphinx extension :mod:`ledgers` only places their results in the pages.

Every source entry is counted once: a row with an ``owner`` (an entry that another
chapter owns, shown with "see <owner>") is skipped everywhere. The counts are of
ledger rows: most rows are one entry, but a row whose ``ours`` value begins with
"N entries" summarises N entries of a table (see :func:`group_size`).
"""

from __future__ import annotations

import math
import os
import posixpath
import re
import subprocess

from lssvm.reporting.ledger import (
    VERDICTS,  # the one list of verdicts
    se_suffix,  # ' (2.9 SE)', as the chapters print it
)

SUMMARY_HEADER = ["Chapter", *[v.capitalize() for v in VERDICTS]]
OPEN_HEADER = ["Chapter", "Item", "Source", "Ours", "Difference", "Cause"]
MAP_HEADER = ["Chapter", "Topic", "Reproduces"]
JSON_NAME = "reproduction.json"  # at the root of the HTML output
OPEN_ORDER = (
    "not reproduced",
    "reproduced qualitatively",
    "erratum in source",
    "not attempted",
)
THRESHOLD = re.compile(r"^within (\d+(?:\.\d+)?) (?:predictive )?SE\b")
HOLM = re.compile(r"\bHolm\b\D*?(\d+) entries")  # "..., Holm over 337 entries"
# A row that summarises several entries says so at the start of its "ours" value:
# "80 entries (3 beyond 2 SE ...)". Every other row is one entry.
GROUP = re.compile(r"^(\d+) entries\b")
UNEXPLAINED = re.compile(r"(?:^|[;:,(]\s*)(?:the rest\s+)?unexplained\b", re.IGNORECASE)
UNRESOLVED = "consistent (unresolved)"  # a cause that says: not a reproduction
BEYOND_2SE = re.compile(r"\((\d+) beyond 2 SE")  # "65 entries, ... (24 beyond 2 SE ..."


# --- from ledgers to tables and sentences (pure functions) ----------------------------


def owned_rows(ledger: dict) -> list[dict]:
    """The rows a chapter counts: an entry owned by another chapter is counted there."""
    return [r for r in ledger["rows"] if not r.get("owner")]


def group_size(row: dict) -> int | None:
    """How many source entries a summary row stands for: N where its ``ours`` value
    begins with "N entries" (for example "80 entries (3 beyond 2 SE ...)"); None for
    a row that is one entry."""
    match = GROUP.match(str(row.get("ours") or ""))
    return int(match.group(1)) if match else None


def grouped(rows: list[dict]) -> tuple[int, int]:
    """(number of summary rows, entries they stand for) among ``rows``."""
    sizes = [g for g in map(group_size, rows) if g is not None]
    return len(sizes), sum(sizes)


def assemble(ledgers: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    """The status table's rows, and the open items, from the chapters' ledgers.

    Returns ``(summary, open_items)``: per chapter (in reading order) the number of
    entries of each verdict, then the line "all chapters"; and every entry that is not
    "reproduced" as ``[chapter, item, verdict, cause]``.
    """
    summary, open_items = [], []
    for ledger in ledgers:
        rows = owned_rows(ledger)
        summary.append(
            [
                ledger["chapter"],
                *[str(sum(r["verdict"] == v for r in rows)) for v in VERDICTS],
            ]
        )
        for r in rows:
            if r["verdict"] != "reproduced":
                open_items.append(
                    [ledger["chapter"], r["item"], r["verdict"], r["cause"]]
                )
    total = [sum(int(s[i]) for s in summary) for i in range(1, len(VERDICTS) + 1)]
    summary.append(["all chapters", *[str(t) for t in total]])
    return summary, open_items


def open_item_tables(ledgers: list[dict]) -> dict[str, list[list[str]]]:
    """Per verdict other than "reproduced" (in :data:`OPEN_ORDER`), its entries as
    ``[chapter, item, source, ours, difference (with its size in SE), cause]``."""
    tables = {v: [] for v in OPEN_ORDER}
    for ledger in ledgers:
        for r in owned_rows(ledger):
            if r["verdict"] in tables:
                difference = (
                    (r.get("difference") or "") + se_suffix(r.get("n_se"))
                ) or "–"
                tables[r["verdict"]].append(
                    [
                        ledger["chapter"],
                        r["item"],
                        r["source"],
                        r["ours"],
                        difference,
                        r["cause"],
                    ]
                )
    return tables


def open_heading(ledgers: list[dict], verdict: str) -> str:
    """The heading of a verdict's table on the status page: its number of rows, and
    how many table entries its summary rows stand for ("Reproduced qualitatively: 24
    rows (2 of them stand for 98 table entries)")."""
    rows = [
        r for ledger in ledgers for r in owned_rows(ledger) if r["verdict"] == verdict
    ]
    groups, entries = grouped(rows)
    extra = (
        f" ({_word(groups)} of them {'stands' if groups == 1 else 'stand'} for "
        f"{entries} table entries)"
        if groups
        else ""
    )
    return f"{verdict.capitalize()}: {count_words(len(rows), 'row', 'rows')}{extra}"


def short_title(title: str) -> str:
    """A chapter's title for a narrow column: "Relatives II: semi-supervised ..." ->
    "Relatives II" (the part before a colon), else the title itself."""
    head, colon, _ = title.partition(":")
    return head.strip() if colon and head.strip() else title.strip()


def se_threshold(rule: str) -> float | None:
    """The number of standard errors of a rule "within 2 SE", "within 2 predictive SE
    (single-draw source)", "within 3.4 SE, Holm over 387 entries"; None for a rule
    that is not a standard-error rule."""
    match = THRESHOLD.match(rule or "")
    return float(match.group(1)) if match else None


def multiplicity(ledgers: list[dict]) -> dict:
    """How many entries a standard-error rule flags by chance alone.

    Rows judged by a plain rule "within k SE" (each entry its own row, none left out):
    for an entry whose difference is noise (normal, with the standard error the row
    uses), the rule fails with probability erfc(k / sqrt 2) (4.55% at k = 2).
    Returns ``se_entries`` (owned rows judged by such a rule), ``expected_flags`` (the
    sum of those probabilities: the expected number of failures if every one were
    reproduced), ``rate`` (their mean, in %), ``flagged`` (the rows whose difference
    exceeds their threshold) and ``flagged_near`` (those of them within one SE beyond
    it, k < n_se <= k + 1, where nearly all chance failures fall: 94% at k = 2).

    Rows judged with Holm's correction ("within 3.79 SE, Holm over 337 entries") are
    kept apart: a table's passing entries may be summarised in one row, so the rows
    are not all of the family. ``holm_entries`` is the size of the families (each
    counted once), ``holm_flagged`` the rows beyond their threshold and ``holm_k_max``
    the largest threshold (Holm's first step; later steps are lower, never below the
    uncorrected one). Holm keeps the chance that any entry of a family is flagged by
    noise alone at 5%; its thresholds are looser than 2 SE, so an entry that passes
    them shows only that no difference was detected.
    """
    n = flagged = near = holm_flagged = 0
    expected, holm_k_max = 0.0, 0.0
    families = {}
    for ledger in ledgers:
        for r in owned_rows(ledger):
            rule = r.get("rule", "") or ""
            k = se_threshold(rule)
            if k is None or r.get("n_se") is None:
                continue
            holm = HOLM.search(rule)
            if holm:
                families[(ledger["chapter"], int(holm.group(1)))] = int(holm.group(1))
                holm_flagged += r["n_se"] > k
                holm_k_max = max(holm_k_max, k)
                continue
            n += 1
            expected += math.erfc(k / math.sqrt(2.0))  # P(|Z| > k)
            if r["n_se"] > k:
                flagged += 1
                near += r["n_se"] <= k + 1
    return {
        "se_entries": n,
        "expected_flags": expected,
        "rate": 100.0 * expected / n if n else 0.0,
        "flagged": flagged,
        "flagged_near": near,
        "holm_entries": sum(families.values()),
        "holm_tables": len(families),
        "holm_flagged": holm_flagged,
        "holm_k_max": holm_k_max,
    }


def number_text(ledgers: list[dict], key: str) -> str:
    """The text of ``{reproduction-number}`key```."""
    stats = multiplicity(ledgers)
    owned = [r for ledger in ledgers for r in owned_rows(ledger)]
    values = {
        "entries": str(len(owned)),
        "rows": str(len(owned)),
        "grouped-rows": str(grouped(owned)[0]),
        "grouped-entries": str(grouped(owned)[1]),
        "holm-entries": str(stats["holm_entries"]),
        "holm-tables": _word(stats["holm_tables"]),
        "holm-flagged": str(stats["holm_flagged"]),
        "holm-k-max": f"{stats['holm_k_max']:.1f}",
        "se-entries": str(stats["se_entries"]),
        "chance-flags": f"{stats['expected_flags']:.0f}",
        "chance-rate": f"{stats['rate']:.1f}%",
        "se-flagged": str(stats["flagged"]),
        "se-flagged-near": str(stats["flagged_near"]),
    }
    if key not in values:
        raise ValueError(
            f"reproduction-number: unknown key {key!r}; allowed: {sorted(values)}."
        )
    return values[key]


def _is_unexplained(cause: str) -> bool:
    """The cause says "unexplained" as a clause of its own: at its start or after
    ";", ":", "," or "(", alone or as "the rest unexplained" ("unexplained",
    "...; unexplained where ...", "..., the rest unexplained")."""
    return bool(UNEXPLAINED.search((cause or "").strip()))


def count_words(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _word(n: int) -> str:
    """0-10 in words, larger numbers in digits."""
    words = "zero one two three four five six seven eight nine ten".split()
    return words[n] if 0 <= n < len(words) else str(n)


def _names(parts: list) -> list:
    """["a"], ["a", " and ", "b"], ["a", ", ", "b", " and ", "c"]: list segments."""
    out = []
    for i, part in enumerate(parts):
        if i:
            out.append(" and " if i == len(parts) - 1 else ", ")
        out.extend(part if isinstance(part, list) else [part])
    return out


def verdict_sentences(
    ledgers: list[dict], titles: dict[str, str], top: int = 3
) -> list[list]:
    """The landing page's verdict: three sentences, each a list of segments.

    A segment is text or a link ``(text, target)``, where ``target`` is a chapter's
    name (a key of the ledgers), ``"status"`` (the page of open items) or ``"json"``
    (``reproduction.json``). ``titles`` maps chapter names to titles. The sentences
    say how many source entries are reproduced (each counted once, in the chapter
    that owns it), which ``top`` chapters hold most of those not reproduced, and how
    many of those are unexplained.
    """
    rows = [(ledger["chapter"], r) for ledger in ledgers for r in owned_rows(ledger)]
    n = len(rows)
    count = {v: sum(r["verdict"] == v for _, r in rows) for v in VERDICTS}
    failed = count["not reproduced"]
    chapters = (
        "The one chapter that reproduces a source judges"
        if len(ledgers) == 1
        else f"The {len(ledgers)} chapters that reproduce a source judge"
    )
    n_groups, n_grouped = grouped([r for _, r in rows])
    group_chapters = list(
        dict.fromkeys(c for c, r in rows if group_size(r) is not None)
    )
    by_verdict = [
        (v, grouped([r for _, r in rows if r["verdict"] == v])[1]) for v in VERDICTS
    ]
    unresolved = sum(
        r["verdict"] == "reproduced qualitatively" and UNRESOLVED in (r["cause"] or "")
        for _, r in rows
    )
    verdicts = (
        f"{count['reproduced']} are reproduced and {failed} are not; "
        f"{count['reproduced qualitatively']} are reproduced qualitatively"
        + (
            f" ({unresolved} of them only unresolved: consistent with the source, "
            "not a reproduction)"
            if unresolved
            else ""
        )
        + ", "
        + count_words(count["erratum in source"], "is an erratum", "are errata")
        + f" in the source and {count['not attempted']} were not attempted."
    )
    if n_groups:
        parts = []
        for v, k in by_verdict:
            if not k:
                continue
            mine = [r for _, r in rows if r["verdict"] == v and group_size(r)]
            if v != "reproduced qualitatively":
                parts.append(f"{k} {v}")
                continue
            unresolved_rows = [r for r in mine if UNRESOLVED in (r["cause"] or "")]
            n_unresolved = sum(group_size(r) for r in unresolved_rows)
            if n_unresolved:
                beyond = sum(
                    int(m.group(1))
                    for r in unresolved_rows
                    for m in [BEYOND_2SE.search(str(r["ours"]))]
                    if m
                )
                parts.append(
                    f"{n_unresolved} unresolved (no difference shown at the row's "
                    "threshold, but not a reproduction"
                    + (f"; {beyond} of them beyond 2 SE" if beyond else "")
                    + ")"
                )
            if k > n_unresolved:
                parts.append(f"{k - n_unresolved} reproduced qualitatively")
        granularity = (
            "Most rows are one entry of a source (an equation, a figure, a table "
            "entry or a claim), judged in the one chapter that owns it, but the "
            f"counts mix granularities: {count_words(n_groups, 'row', 'rows')} of "
            + ", ".join(short_title(titles.get(c, c)) for c in group_chapters)
            + f" stand for {n_grouped} table entries: "
            + "".join(_names(parts))
            + ". A row marked not attempted may cover several entries."
        )
    else:
        granularity = (
            "Each row is one entry of a source (an equation, a figure, a table entry "
            "or a claim), judged in the one chapter that owns it."
        )
    first = [
        f"{chapters} {count_words(n, 'ledger row', 'ledger rows')}: {verdicts} "
        f"{granularity}"
    ]
    per_chapter = []
    for ledger in ledgers:
        own = owned_rows(ledger)
        k = sum(r["verdict"] == "not reproduced" for r in own)
        if k:
            per_chapter.append((k, len(own), ledger["chapter"]))
    per_chapter.sort(key=lambda t: -t[0])  # stable: ties keep the reading order
    lead = per_chapter[:top]
    if not lead:
        second = ["No chapter has a row that is not reproduced."]
    else:
        held = sum(k for k, _, _ in lead)
        named = [
            [(short_title(titles.get(c, c)), c), f" ({k} of its {total} rows)"]
            if i == 0
            else [(short_title(titles.get(c, c)), c), f" ({k} of {total})"]
            for i, (k, total, c) in enumerate(lead)
        ]
        if len(lead) == len(per_chapter):
            where = "one chapter" if len(lead) == 1 else f"{_word(len(lead))} chapters"
            second = [
                f"All {failed} rows not reproduced lie in {where}: ",
                *_names(named),
                ".",
            ]
        else:
            subject = "chapter holds" if len(lead) == 1 else "chapters hold"
            second = [
                f"{_word(len(lead)).capitalize()} {subject} {held} of the {failed} "
                "rows not reproduced: ",
                *_names(named),
                ".",
            ]
    unexplained = sum(
        r["verdict"] == "not reproduced" and _is_unexplained(r["cause"])
        for _, r in rows
    )
    opening = (
        f"Of the rows not reproduced, {unexplained} have a cause that says "
        "unexplained (for the whole entry or a part of it) and the others give the "
        "cause their chapter measured or suspects; every row not reproduced is "
        "listed with its cause on "
        if failed
        else "Every row with another verdict is listed with its cause on "
    )
    third = [
        opening,
        ("the reproduction status page", "status"),
        ", and every ledger row is in the machine-readable file ",
        (JSON_NAME, "json"),
        ".",
    ]
    return [first, second, third]


def sentence_text(sentences: list[list]) -> str:
    """The verdict as plain text (links as their text)."""
    return " ".join(
        "".join(s if isinstance(s, str) else s[0] for s in sentence)
        for sentence in sentences
    )


def parse_chapter_map(lines: list[str]) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Lines ``<page> | <topic> | <reproduces>`` -> ({page: (topic, sources)}, errors).

    ``page`` is the document's name without its folder ("classification"); an empty
    ``reproduces`` is shown as "–".
    """
    out, errors = {}, []
    for line in lines:
        if not line.strip():
            continue
        parts = [p.strip() for p in re.split(r"\s\|(?:\s|$)", line.strip(), maxsplit=2)]
        if len(parts) != 3 or not parts[0]:
            errors.append(
                f"chapter-map: expected '<page> | <topic> | <reproduces>'; got {line!r}"
            )
            continue
        if parts[0] in out:
            errors.append(f"chapter-map: {parts[0]!r} is described twice")
        out[parts[0]] = (parts[1], parts[2] or "–")
    return out, errors


def chapter_map_rows(
    order: list[str], described: dict, numbers: dict[str, str], titles: dict[str, str]
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """The chapter map: ``(docname, "3. Title", page)`` for every page of the table of
    contents, in its order, and the problems (a page without a description, a
    description of a page that is not in the table of contents)."""
    pages = {posixpath.basename(d): d for d in order}
    rows, problems = [], []
    for docname in order:
        page = posixpath.basename(docname)
        if page not in described:
            problems.append(
                f"chapter-map: {docname} is in the table of contents but not described"
            )
            continue
        number = numbers.get(docname)
        title = titles.get(docname, page)
        rows.append((docname, f"{number}. {title}" if number else title, page))
    problems += [
        f"chapter-map: {page!r} is described but not in the table of contents"
        for page in described
        if page not in pages
    ]
    return rows, problems


def git_commit(folder: str | os.PathLike) -> tuple[str, bool | None]:
    """(``git rev-parse HEAD`` of the repository holding ``folder``, whether tracked
    files differ from it); ("unknown", None) without git or outside a repository."""

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=20,
        )

    try:
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return "unknown", None
        status = git("status", "--porcelain", "--untracked-files=no")
        dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
        return head.stdout.strip(), dirty
    except (OSError, subprocess.SubprocessError):
        return "unknown", None


def _json_number(value):
    """n_se as JSON: a number, null (no spread), or "inf" (a difference with SE 0)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return "inf" if math.isinf(value) else float(value)


def reproduction_record(
    ledgers: list[dict],
    *,
    commit: str,
    dirty: bool | None,
    date: str,
    version: str,
    titles: dict[str, str] | None = None,
) -> dict:
    """Every row of every ledger, with the build's provenance, as one JSON object.

    ``rows`` holds all rows (an entry another chapter owns has ``owner`` set and
    verdict "see <owner>"; ``counts`` skips it, as the book's tables do).
    """
    titles = titles or {}
    fields = (
        "item",
        "source",
        "ours",
        "difference",
        "n_se",
        "verdict",
        "rule",
        "cause",
        "owner",
    )
    rows = [
        {"chapter": ledger["chapter"],
         **{f: (_json_number(r.get(f)) if f == "n_se" else r.get(f)) for f in fields}}
        for ledger in ledgers
        for r in ledger["rows"]
    ]  # fmt: skip
    owned = [r for ledger in ledgers for r in owned_rows(ledger)]
    counts = {v: sum(r["verdict"] == v for r in owned) for v in VERDICTS}
    return {
        "description": (
            "Reproduction ledgers of the lssvm book: one row per entry of a source "
            "(item), the source's value, ours, the difference, the difference in "
            'standard errors (n_se: a number, null without a spread, "inf" for a '
            "difference with standard error 0), the verdict, the rule it follows and "
            "the cause. A row with an owner is an entry owned by another chapter "
            '(verdict "see <owner>"), not counted in counts. worktree_modified: '
            "true when the build ran on a working tree with changes not committed "
            "(the commit alone does not then reproduce this file; a release is built "
            "from a clean commit). chapters[].ledger_matches_source: false when the "
            "chapter's source changed after the run that wrote its ledger (the build "
            "then warns; under -W, as in make book, it fails)."
        ),
        "commit": commit,
        "worktree_modified": dirty,
        "date": date,
        "lssvm_version": version,
        "verdicts": list(VERDICTS),
        "counts": counts,
        "chapters": [
            {
                "chapter": ledger["chapter"],
                "title": titles.get(ledger["chapter"]),
                "ledger_matches_source": ledger.get("matches_source"),
            }
            for ledger in ledgers
        ],  # fmt: skip
        "rows": rows,
    }
