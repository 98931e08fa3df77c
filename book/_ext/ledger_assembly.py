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
source entries, not of ledger rows (:func:`entries`): most rows are one entry, a row
whose ``ours`` value begins with "N entries" summarises N entries of a table and
counts N (see :func:`group_size`), and a row whose cause begins "deviation:" records
where our protocol departs from the source's, is no entry of the source and counts
none (it is still listed with the open items).

The status table has one column per verdict, except that "reproduced qualitatively"
is split by its cause (:func:`column`): a row of that verdict whose cause begins
"consistent (unresolved), not a reproduction" (:data:`UNRESOLVED`: a difference the
row's threshold does not show, too uncertain to call the entry reproduced) is counted
in the column "Unresolved", not under "Reproduced qualitatively". No verdict is added:
the column is the part of one verdict that the verdict sentences also name apart.
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

UNRESOLVED = "consistent (unresolved), not a reproduction"  # how such a cause begins
UNRESOLVED_COLUMN = "unresolved"  # its column: a part of "reproduced qualitatively"
# The status table's columns: the verdicts, "reproduced qualitatively" split in two
COLUMNS = tuple(
    c
    for v in VERDICTS
    for c in ((v, UNRESOLVED_COLUMN) if v == "reproduced qualitatively" else (v,))
)
SUMMARY_HEADER = ["Chapter", *[c.capitalize() for c in COLUMNS]]
OPEN_HEADER = ["Chapter", "Item", "Source", "Ours", "Difference", "Cause"]
MAP_HEADER = ["Chapter", "Topic", "Reproduces"]
JSON_NAME = "reproduction.json"  # at the root of the HTML output
OPEN_ORDER = (  # the status page's tables: every column but "reproduced"
    "not reproduced",
    "reproduced qualitatively",
    UNRESOLVED_COLUMN,
    "erratum in source",
    "not attempted",
)
THRESHOLD = re.compile(r"^within (\d+(?:\.\d+)?) (?:predictive )?SE\b")
HOLM = re.compile(r"\bHolm\b\D*?(\d+) entries")  # "..., Holm over 337 entries"
# A row that summarises several entries says so at the start of its "ours" value:
# "80 entries (3 beyond 2 SE ...)". Every other row is one entry.
GROUP = re.compile(r"^(\d+) entries\b")
UNEXPLAINED = re.compile(r"(?:^|[;:,(]\s*)(?:the rest\s+)?unexplained\b", re.IGNORECASE)
# A row that records a deviation of our protocol from the source's (a coarser grid, a
# subsample) says so at the start of its cause: "deviation: ...". It is no entry.
DEVIATION = re.compile(r"^\s*deviation:", re.IGNORECASE)
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


def is_deviation(row: dict) -> bool:
    """The row records a deviation of our protocol from the source's (its cause
    begins "deviation:"), not an entry of the source."""
    return bool(DEVIATION.match(str(row.get("cause") or "")))


def entries(row: dict) -> int:
    """How many source entries a row counts: none for a deviation of our protocol
    (:func:`is_deviation`), N for a summary row (:func:`group_size`), else one (a row
    marked not attempted counts one unless its ``ours`` states how many it covers)."""
    if is_deviation(row):
        return 0
    size = group_size(row)
    return 1 if size is None else size


def is_unresolved(row: dict) -> bool:
    """The row is judged "reproduced qualitatively" and its cause begins
    "consistent (unresolved), not a reproduction" (:data:`UNRESOLVED`)."""
    cause = str(row.get("cause") or "").strip().lower()
    return row["verdict"] == "reproduced qualitatively" and cause.startswith(UNRESOLVED)


def column(row: dict) -> str:
    """The row's column of the status table (:data:`COLUMNS`): its verdict, or
    "unresolved" for a qualitative verdict whose cause is unresolved
    (:func:`is_unresolved`)."""
    return UNRESOLVED_COLUMN if is_unresolved(row) else row["verdict"]


def count_entries(rows: list[dict], verdict: str | None = None) -> int:
    """The source entries among ``rows`` (of ``verdict`` only, when given)."""
    return sum(entries(r) for r in rows if verdict is None or r["verdict"] == verdict)


def count_column(rows: list[dict], name: str) -> int:
    """The source entries among ``rows`` in the status table's column ``name``."""
    return sum(entries(r) for r in rows if column(r) == name)


def grouped(rows: list[dict]) -> tuple[int, int]:
    """(number of summary rows, entries they stand for) among ``rows``: every row
    whose ``ours`` begins "N entries" (:func:`group_size`), whichever its chapter,
    but a deviation of our protocol (which counts none)."""
    sizes = [
        g for r in rows if not is_deviation(r) for g in [group_size(r)] if g is not None
    ]
    return len(sizes), sum(sizes)


def rows_and_entries(rows: list[dict]) -> str:
    """ "3 rows, 80 entries": the rows and the source entries they count."""
    return (
        f"{count_words(len(rows), 'row', 'rows')}, "
        f"{count_words(count_entries(rows), 'entry', 'entries')}"
    )


def assemble(ledgers: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    """The status table's rows, and the open items, from the chapters' ledgers.

    Returns ``(summary, open_items)``: per chapter (in reading order) the number of
    source entries in each column (:data:`COLUMNS`: the verdicts, with the unresolved
    part of "reproduced qualitatively" apart; :func:`entries`: a summary row counts
    the entries it stands for, a deviation of our protocol none), then the line "all
    chapters"; and every row that is not "reproduced" as ``[chapter, item, verdict,
    cause]``.
    """
    summary, open_items = [], []
    for ledger in ledgers:
        rows = owned_rows(ledger)
        summary.append(
            [ledger["chapter"], *[str(count_column(rows, c)) for c in COLUMNS]]
        )
        for r in rows:
            if r["verdict"] != "reproduced":
                open_items.append(
                    [ledger["chapter"], r["item"], r["verdict"], r["cause"]]
                )
    total = [sum(int(s[i]) for s in summary) for i in range(1, len(COLUMNS) + 1)]
    summary.append(["all chapters", *[str(t) for t in total]])
    return summary, open_items


def open_item_tables(ledgers: list[dict]) -> dict[str, list[list[str]]]:
    """Per column of the status table other than "reproduced" (in
    :data:`OPEN_ORDER`: the verdicts, with the unresolved rows apart), its rows as
    ``[chapter, item, source, ours, difference (with its size in SE), cause]``."""
    tables = {v: [] for v in OPEN_ORDER}
    for ledger in ledgers:
        for r in owned_rows(ledger):
            if column(r) in tables:
                difference = (
                    (r.get("difference") or "") + se_suffix(r.get("n_se"))
                ) or "–"
                tables[column(r)].append(
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


OPEN_LABELS = {
    "reproduced qualitatively": "Reproduced qualitatively (not unresolved)",
    UNRESOLVED_COLUMN: (
        "Unresolved (verdict reproduced qualitatively, cause "
        f'"{UNRESOLVED}")'
    ),
}


def open_heading(ledgers: list[dict], name: str) -> str:
    """The heading of a column's table on the status page (``name``, a key of
    :data:`OPEN_ORDER`): its number of rows and of source entries, and what its
    summary rows and deviations count ("Not reproduced: 24 rows, 120 entries (2 rows
    stand for 98 table entries)")."""
    rows = [r for ledger in ledgers for r in owned_rows(ledger) if column(r) == name]
    head = f"{OPEN_LABELS.get(name, name.capitalize())}: "
    if not rows:
        return head + "0 rows, 0 entries"
    groups, n_grouped = grouped(rows)
    deviations = sum(map(is_deviation, rows))
    notes = []
    if groups:
        notes.append(
            f"{count_words(groups, 'row stands', 'rows stand')} for {n_grouped} "
            "table entries"
        )
    if deviations:
        notes.append(
            f"{count_words(deviations, 'row records', 'rows record')} a deviation "
            f"of our protocol and {'counts' if deviations == 1 else 'count'} none"
        )
    extra = f" ({'; '.join(notes)})" if notes else ""
    return f"{head}{rows_and_entries(rows)}{extra}"


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
    """The text of ``{reproduction-number}`key```.

    ``entries`` is the number of source entries (:func:`entries`), ``rows`` of ledger
    rows (both without the rows another chapter owns); ``<verdict>-entries`` and
    ``<verdict>-rows`` ("not-reproduced-entries") count one verdict (all of it:
    "reproduced-qualitatively-entries" includes the unresolved ones), and
    ``unresolved-entries`` and ``unresolved-rows`` the status table's column
    "Unresolved" (:func:`is_unresolved`); ``grouped-rows`` and ``grouped-entries``
    are the summary rows of all chapters and the entries they stand for
    (:func:`grouped`), ``deviation-rows`` the rows that record a deviation of our
    protocol.
    """
    stats = multiplicity(ledgers)
    owned = [r for ledger in ledgers for r in owned_rows(ledger)]
    per_verdict = {}
    for v in VERDICTS:
        slug = v.replace(" ", "-")
        per_verdict[f"{slug}-entries"] = str(count_entries(owned, v))
        per_verdict[f"{slug}-rows"] = str(sum(r["verdict"] == v for r in owned))
    per_verdict["unresolved-entries"] = str(count_column(owned, UNRESOLVED_COLUMN))
    per_verdict["unresolved-rows"] = str(sum(map(is_unresolved, owned)))
    values = {
        "entries": str(count_entries(owned)),
        "rows": str(len(owned)),
        **per_verdict,
        "grouped-rows": str(grouped(owned)[0]),
        "grouped-entries": str(grouped(owned)[1]),
        "deviation-rows": str(sum(map(is_deviation, owned))),
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
    that owns it; :func:`entries`: a summary row counts the entries it stands for, a
    deviation of our protocol none) and how many fall in each column of the status
    table (:data:`COLUMNS`: the unresolved part of "reproduced qualitatively" apart),
    what all summary rows of all chapters stand for (:func:`grouped`), which ``top``
    chapters hold most of the entries not reproduced, and how many of those are
    unexplained.
    """
    rows = [(ledger["chapter"], r) for ledger in ledgers for r in owned_rows(ledger)]
    plain = [r for _, r in rows]
    n = count_entries(plain)
    count = {v: count_entries(plain, v) for v in VERDICTS}
    failed = count["not reproduced"]
    chapters = (
        "The one chapter that reproduces a source judges"
        if len(ledgers) == 1
        else f"The {len(ledgers)} chapters that reproduce a source judge"
    )
    n_groups, n_grouped = grouped(plain)
    n_deviations = sum(map(is_deviation, plain))
    summaries = [(c, r) for c, r in rows if group_size(r) and not is_deviation(r)]
    group_chapters = list(dict.fromkeys(c for c, _ in summaries))
    qualitative = count_column(plain, "reproduced qualitatively")
    unresolved = count_column(plain, UNRESOLVED_COLUMN)
    verdicts = (
        f"{count['reproduced']} are reproduced and {failed} are not; "
        f"{qualitative} are reproduced qualitatively"
        + (
            f" and {unresolved} more unresolved (judged reproduced qualitatively, "
            "but consistent with the source, not a reproduction; counted apart)"
            if unresolved
            else ""
        )
        + ", "
        + count_words(count["erratum in source"], "is an erratum", "are errata")
        + f" in the source and {count['not attempted']} were not attempted."
    )
    notes = []
    if n_groups:
        parts = []
        for name in COLUMNS:
            mine = [r for _, r in summaries if column(r) == name]
            k = sum(map(group_size, mine))
            if not k:
                continue
            if name != UNRESOLVED_COLUMN:
                parts.append(f"{k} {name}")
                continue
            beyond = sum(
                int(m.group(1))
                for r in mine
                for m in [BEYOND_2SE.search(str(r["ours"]))]
                if m
            )
            parts.append(
                f"{k} unresolved (no difference shown at the row's threshold, but "
                "not a reproduction"
                + (f"; {beyond} of them beyond 2 SE" if beyond else "")
                + ")"
            )
        notes.append(
            f"{count_words(n_groups, 'row', 'rows')} of "
            + "".join(_names([short_title(titles.get(c, c)) for c in group_chapters]))
            + f" {'stands' if n_groups == 1 else 'stand'} for {n_grouped} table "
            "entries and "
            + ("counts" if n_groups == 1 else "count")
            + " them all: "
            + "".join(_names(parts))
        )
    if n_deviations:
        notes.append(
            f"{count_words(n_deviations, 'row records', 'rows record')} a deviation "
            "of our protocol from the source's (the cause begins \"deviation:\"), no "
            "entry of the source, and "
            + ("counts" if n_deviations == 1 else "count")
            + " none"
        )
    if notes:
        granularity = (
            "Each entry (an equation, a figure, a table entry or a claim) is judged "
            "and counted once, in the chapter that owns it, and most rows are one "
            "entry, but "
            + "; ".join(notes)
            + ". A row marked not attempted counts one entry unless it states how "
            "many it covers."
        )
    else:
        granularity = (
            "Each row is one entry of a source (an equation, a figure, a table entry "
            "or a claim), judged and counted once, in the chapter that owns it."
        )
    first = [
        f"{chapters} {count_words(n, 'source entry', 'source entries')}, from "
        f"{count_words(len(rows), 'ledger row', 'ledger rows')}: {verdicts} "
        f"{granularity}"
    ]
    per_chapter = []
    for ledger in ledgers:
        own = owned_rows(ledger)
        k = count_entries(own, "not reproduced")
        if k:
            per_chapter.append((k, count_entries(own), ledger["chapter"]))
    per_chapter.sort(key=lambda t: -t[0])  # stable: ties keep the reading order
    lead = per_chapter[:top]
    if not lead:
        second = ["No chapter has an entry that is not reproduced."]
    else:
        held = sum(k for k, _, _ in lead)
        named = [
            [(short_title(titles.get(c, c)), c), f" ({k} of its {total} entries)"]
            if i == 0
            else [(short_title(titles.get(c, c)), c), f" ({k} of {total})"]
            for i, (k, total, c) in enumerate(lead)
        ]
        if len(lead) == len(per_chapter):
            where = "one chapter" if len(lead) == 1 else f"{_word(len(lead))} chapters"
            second = [
                f"All {failed} entries not reproduced lie in {where}: ",
                *_names(named),
                ".",
            ]
        else:
            subject = "chapter holds" if len(lead) == 1 else "chapters hold"
            second = [
                f"{_word(len(lead)).capitalize()} {subject} {held} of the {failed} "
                "entries not reproduced: ",
                *_names(named),
                ".",
            ]
    unexplained = count_entries(
        [r for r in plain if _is_unexplained(r["cause"])], "not reproduced"
    )
    opening = (
        f"Of the entries not reproduced, {unexplained} have a cause that says "
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
    verdict "see <owner>"; ``counts`` and ``entry_counts`` skip it, as the book's
    tables do). ``counts`` holds the rows of each verdict, ``entry_counts`` the source
    entries (:func:`entries`) of each verdict, and ``column_entry_counts`` the source
    entries of each column of the status table (:data:`COLUMNS`: the verdicts, with
    the unresolved part of "reproduced qualitatively" apart), which the landing page
    shows.
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
    entry_counts = {v: count_entries(owned, v) for v in VERDICTS}
    column_counts = {c: count_column(owned, c) for c in COLUMNS}
    return {
        "description": (
            "Reproduction ledgers of the lssvm book: one row per entry of a source "
            "(item; a row whose ours begins 'N entries' summarises N table entries, "
            "and a row whose cause begins 'deviation:' records a deviation of our "
            "protocol from the source's, no entry), the source's value, ours, the "
            "difference, the difference in "
            'standard errors (n_se: a number, null without a spread, "inf" for a '
            "difference with standard error 0), the verdict, the rule it follows and "
            "the cause. A row with an owner is an entry owned by another chapter "
            '(verdict "see <owner>"), not counted. counts: the rows of each verdict; '
            "entry_counts: the source entries of each verdict (a summary row counts "
            "its N entries, a deviation none). column_entry_counts: the source "
            "entries of each column of the landing page's status table (columns): "
            "the verdicts, with 'unresolved' apart, the rows judged 'reproduced "
            f"qualitatively' whose cause begins '{UNRESOLVED}' (no verdict of its "
            "own: these rows are in entry_counts under 'reproduced qualitatively' "
            "and not in column_entry_counts under it). "
            "worktree_modified: "
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
        "entry_counts": entry_counts,
        "columns": list(COLUMNS),
        "column_entry_counts": column_counts,
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
