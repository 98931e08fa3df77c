"""The landing page: verdict, chapter map, rules, reproduction.json (book/_ext/ledger_assembly.py, placed by book/_ext/ledgers.py).

The assembly is made of pure functions of the chapters' ledgers, tested here without
a Sphinx build; ``tests/test_browser.py`` checks the built page against the ledger
files, and ``tests/test_landing_screenshot.py`` that the page opens with the verdict.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest
import yaml

from lssvm.reporting.ledger import VERDICTS, Ledger

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import ledger_assembly as assembly  # noqa: E402  (the pure part of the ledgers extension)

P_TWO_SE = math.erfc(2 / math.sqrt(2))  # P(|Z| > 2) = 0.0455


def _book() -> list[dict]:
    """Three small chapters: a shared entry, errata, SE rules of both kinds."""
    a = Ledger("classification")
    a.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    a.compare("[S Table 3.3] hea", 84.0, 84.5, source_se=0.5, ours_se=0.5, digits=1)
    a.compare("[S Table 3.3] snr", 73.1, 84.1, source_se=1.2, ours_se=1.0, digits=1,
              cause="unexplained")  # fmt: skip
    b = Ledger("multiclass")
    b.compare(
        "[S Table 3.4] veh",
        81.9,
        75.5,
        source_se=0.6,
        ours_se=0.8,
        digits=1,
        cause="explained by the assignment",
    )  # 6.4 SE
    b.compare("[S Table 3.4] iri", 96.6, 95.0, source_se=0.8, ours_se=0.6, digits=1)
    b.compare(
        "[P Table 4] a1a",
        84.0,
        81.0,
        ours_se=0.5,
        single_draw=4,
        digits=1,
        cause="unexplained (tuned on a subset)",
    )  # 3.0 / (0.5 sqrt 5) = 2.7 predictive SE
    b.claim("[S 3.11]", "γ", "γ_i", "erratum in source", "one constant per output")
    c = Ledger("benchmarks")
    c.refer("[S Table 3.4] veh", "81.9", "75.5", "multiclass", "judged there")
    c.compare(
        "[S Table 3.4] bld",
        70.2,
        73.2,
        source_se=1.0,
        ours_se=1.0,
        digits=1,
        cause="unexplained",
    )  # 2.1 SE: just past the threshold
    c.compare("[S Table 3.4] pid", 76.0, 70.0, source_se=1.0, ours_se=1.0, digits=1,
              k_se=3.2, rule_note="Holm, 3 entries", cause="data differ")  # fmt: skip
    c.not_attempted("[S Table 3.4] thy", "95.8", "not available offline")
    return [a.to_dict(), b.to_dict(), c.to_dict()]


TITLES = {"classification": "Classification",
          "multiclass": "Multiclass LS-SVMs and output codes",
          "benchmarks": "Benchmarking on the UCI data sets"}  # fmt: skip


def test_an_entry_owned_elsewhere_is_counted_once():
    book = _book()
    summary, open_items = assembly.assemble(book)
    assert assembly.SUMMARY_HEADER[1:] == [
        "Reproduced", "Reproduced qualitatively", "Unresolved", "Erratum in source",
        "Not reproduced", "Not attempted"]  # fmt: skip
    assert summary[-1] == ["all chapters", "3", "0", "0", "1", "5", "1"]
    assert (
        sum(int(x) for x in summary[-1][1:])
        == 10
        == sum(len(assembly.owned_rows(b)) for b in book)
    )
    assert not any(row[2].startswith("see ") for row in open_items)
    assert assembly.number_text(book, "entries") == "10"
    assert assembly.number_text(book, "rows") == "10"
    assert assembly.number_text(book, "not-reproduced-entries") == "5"
    assert assembly.number_text(book, "deviation-rows") == "0"


def test_the_verdict_counts_entries_and_names_the_chapters_that_differ():
    sentences = assembly.verdict_sentences(_book(), TITLES)
    assert len(sentences) == 3
    text = assembly.sentence_text(sentences)
    assert (
        "judge 10 source entries, from 10 ledger rows: 3 are reproduced and 5 are "
        "not;" in text
    )
    assert "Each row is one entry of a source" in text
    assert "%" not in text  # rows of mixed granularity: no percentages
    assert "1 is an erratum in the source" in text and "1 were not attempted" in text
    # not reproduced: classification 1, multiclass 2, benchmarks 2: ties keep the order
    assert (
        "All 5 entries not reproduced lie in three chapters: Multiclass LS-SVMs and "
        "output codes (2 of its 4 entries), Benchmarking on the UCI data sets (2 of 3) "
        "and "
        "Classification (1 of 3)." in text
    )
    assert "3 have a cause that says unexplained" in text  # snr, a1a, bld
    links = [s for sentence in sentences for s in sentence if not isinstance(s, str)]
    assert ("reproduction.json", "json") in links and links[-2][1] == "status"
    assert links[0] == ("Multiclass LS-SVMs and output codes", "multiclass")


def test_the_verdict_names_the_top_chapters_when_more_differ():
    sentences = assembly.verdict_sentences(_book(), TITLES, top=2)
    text = assembly.sentence_text(sentences)
    assert "Two chapters hold 4 of the 5 entries not reproduced: Multiclass" in text
    one = assembly.sentence_text(assembly.verdict_sentences(_book(), TITLES, top=1))
    assert "One chapter holds 2 of the 5 entries not reproduced" in one


def test_a_book_with_nothing_open():
    a = Ledger("classification")
    a.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    text = assembly.sentence_text(assembly.verdict_sentences([a.to_dict()], TITLES))
    assert text.startswith("The one chapter that reproduces a source judges 1 source")
    assert "1 source entry, from 1 ledger row: 1 are reproduced and 0 are not" in text
    assert "No chapter has an entry that is not reproduced" in text
    assert "Every row with another verdict is listed" in text


@pytest.mark.parametrize(
    ("rule", "k"),
    [("within 2 SE", 2.0), ("within 2 predictive SE (single-draw source)", 2.0),
     ("within 3.41 SE, Holm over 387 entries", 3.41), ("within ±0.5%", None),
     ("to the printed digits", None), ("stated", None), ("owned elsewhere", None)],
)  # fmt: skip
def test_se_threshold_reads_the_rule(rule, k):
    assert assembly.se_threshold(rule) == k


def test_multiplicity_expects_chance_flags_from_each_rows_threshold():
    stats = assembly.multiplicity(_book())
    # plain SE rules: hea, snr, iri, a1a (predictive), veh, bld (k = 2); veh is owned
    # by multiclass, so it is counted there once (the benchmarks row is skipped); pid
    # (k = 3.2, "Holm, 3 entries") is kept apart with the Holm-judged entries
    assert stats["se_entries"] == 6
    expected = 6 * P_TWO_SE
    assert stats["expected_flags"] == pytest.approx(expected)
    assert stats["rate"] == pytest.approx(100 * expected / 6)
    # failed: snr (7.0 SE), veh (6.4), a1a (2.7), bld (2.1); near: a1a and bld
    assert stats["flagged"] == 4 and stats["flagged_near"] == 2
    assert assembly.number_text(_book(), "chance-rate") == f"{100 * expected / 6:.1f}%"
    # Holm: one family of 3 entries, its one listed row (pid, 4.24 SE > 3.2) flagged
    assert (stats["holm_entries"], stats["holm_tables"], stats["holm_flagged"]) == (
        3, 1, 1)  # fmt: skip
    assert assembly.number_text(_book(), "holm-k-max") == "3.2"


def test_holm_families_are_counted_once_and_summary_rows_by_their_entries():
    book = Ledger("benchmarks")
    for i, n_se in enumerate([4.0, 1.0]):
        book.compare(f"[S Table 3.3] e{i}", 80.0, 80.0 + n_se * math.sqrt(2),
                     source_se=1.0, ours_se=1.0, k_se=3.5 - i, digits=1,
                     rule_note="Holm, 337 entries", cause="unexplained")  # fmt: skip
    book.claim(
        "[S Table 3.3] passing entries",
        "161 entries judged here",
        "80 entries (3 beyond 2 SE)",
        "reproduced",
    )
    book.claim(
        "[S Table 3.3] unresolved entries",
        "161 entries judged here",
        "62 entries, up to 8.1 points apart (24 beyond 2 SE without the correction)",
        "reproduced qualitatively",
        "consistent (unresolved), not a reproduction: bands up to 10 points",
    )
    d = [book.to_dict()]
    stats = assembly.multiplicity(d)
    assert stats["holm_entries"] == 337 and stats["holm_tables"] == 1
    assert stats["holm_flagged"] == 1 and stats["se_entries"] == 0
    assert assembly.number_text(d, "grouped-rows") == "2"
    assert assembly.number_text(d, "grouped-entries") == "142"
    text = assembly.sentence_text(assembly.verdict_sentences(d, TITLES))
    # e0 (not reproduced) and e1 (reproduced) are one entry each, the two summary
    # rows 80 and 62
    assert "judges 144 source entries, from 4 ledger rows" in text
    # the summary row of 62 is judged reproduced qualitatively, and its cause begins
    # "consistent (unresolved), not a reproduction": it is counted as unresolved
    assert (
        "81 are reproduced and 1 are not; 0 are reproduced qualitatively and 62 more "
        "unresolved (judged reproduced qualitatively, but consistent with the "
        "source, not a reproduction; counted apart)" in text
    )
    assert (
        "2 rows of Benchmarking on the UCI data sets stand for 142 table entries and "
        "count them all: 80 reproduced and 62 unresolved (no difference shown at the "
        "row's threshold, but not a reproduction; 24 of them beyond 2 SE)." in text
    )
    assert assembly.open_heading(d, assembly.UNRESOLVED_COLUMN) == (
        'Unresolved (verdict reproduced qualitatively, cause "consistent '
        '(unresolved), not a reproduction"): 1 row, 62 entries (1 row stands for 62 '
        "table entries)"
    )
    assert assembly.open_heading(d, "reproduced qualitatively") == (
        "Reproduced qualitatively (not unresolved): 0 rows, 0 entries"
    )
    assert assembly.open_heading(d, "not attempted") == (
        "Not attempted: 0 rows, 0 entries"
    )


def _summarised_book() -> list[dict]:
    """A summary row of 5 entries, one of 3 not reproduced, a protocol deviation."""
    c = Ledger("benchmarks")
    c.claim("[S Table 3.4] passing entries", "judged here", "5 entries (1 beyond 2 SE)",
            "reproduced")  # fmt: skip
    c.compare("[S Table 3.4] bld", 70.2, 75.2, source_se=1.0, ours_se=1.0, digits=1,
              cause="unexplained")  # fmt: skip
    c.compare("[S Table 3.4] pid", 76.0, 70.0, source_se=1.0, ours_se=1.0, digits=1,
              cause="data differ")  # fmt: skip
    c.claim("[S Table 3.4] ims rows", "judged here", "3 entries (all beyond 2 SE)",
            "not reproduced", "unexplained")  # fmt: skip
    deviation = "deviation: a coarser grid; its effect not measured"
    c.claim("[S §3.4.2] SVM grid", "shrinking grid", "one 5 x 4 grid",
            "not reproduced", deviation)  # fmt: skip
    c.not_attempted("[S Table 3.4] adu rows", "10 entries", "not available offline")
    a = Ledger("classification")
    a.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    a.refer("[S Table 3.4] bld", "70.2", "75.2", "benchmarks", "judged there")
    return [c.to_dict(), a.to_dict()]


def test_a_summary_row_counts_its_entries_and_a_deviation_none():
    book = _summarised_book()
    rows = [r for b in book for r in assembly.owned_rows(b)]
    assert [assembly.entries(r) for r in rows] == [5, 1, 1, 3, 0, 1, 1]
    summary, open_items = assembly.assemble(book)
    # reproduced 5 + 1, not reproduced bld + pid + 3 (the deviation counts none)
    assert summary == [
        ["benchmarks", "5", "0", "0", "0", "5", "1"],
        ["classification", "1", "0", "0", "0", "0", "0"],
        ["all chapters", "6", "0", "0", "0", "5", "1"],
    ]
    # the totals are the sum of the rows' entries, not the number of rows (7)
    total = sum(int(x) for x in summary[-1][1:])
    assert total == 12 == sum(map(assembly.entries, rows))
    assert len(open_items) == 5  # the deviation is still listed with the open items
    values = {k: assembly.number_text(book, k) for k in (
        "entries", "rows", "reproduced-entries", "reproduced-rows",
        "not-reproduced-entries", "not-reproduced-rows", "grouped-rows",
        "grouped-entries", "deviation-rows")}  # fmt: skip
    assert values == {
        "entries": "12", "rows": "7", "reproduced-entries": "6",
        "reproduced-rows": "2", "not-reproduced-entries": "5",
        "not-reproduced-rows": "4", "grouped-rows": "2", "grouped-entries": "8",
        "deviation-rows": "1",
    }  # fmt: skip
    record = assembly.reproduction_record(
        book, commit="abc", dirty=False, date="2026-11-27", version="0.1.0"
    )
    assert record["entry_counts"] == dict(zip(VERDICTS, [6, 0, 0, 5, 1]))
    assert record["counts"] == dict(zip(VERDICTS, [2, 0, 0, 4, 1]))
    assert assembly.open_heading(book, "not reproduced") == (
        "Not reproduced: 4 rows, 5 entries (1 row stands for 3 table entries; 1 row "
        "records a deviation of our protocol and counts none)"
    )
    assert assembly.open_heading(book, "not attempted") == (
        "Not attempted: 1 row, 1 entry"
    )


def test_the_verdict_counts_the_entries_of_summary_rows():
    text = assembly.sentence_text(
        assembly.verdict_sentences(_summarised_book(), TITLES)
    )
    assert (
        "The 2 chapters that reproduce a source judge 12 source entries, from 7 "
        "ledger rows: 6 are reproduced and 5 are not; 0 are reproduced "
        "qualitatively, 0 are errata in the source and 1 were not attempted." in text
    )
    assert (
        "2 rows of Benchmarking on the UCI data sets stand for 8 table entries and "
        "count them all: 5 reproduced and 3 not reproduced; 1 row records a "
        "deviation of our protocol from the source's" in text
    )
    assert "A row marked not attempted counts one entry unless" in text
    assert (
        "All 5 entries not reproduced lie in one chapter: Benchmarking on the UCI "
        "data sets (5 of its 11 entries)." in text
    )
    # the rule is unchanged (_is_unexplained); the count is of entries: bld and the
    # 3 entries of the ims row; pid gives a cause and the deviation is no entry
    assert "Of the entries not reproduced, 4 have a cause that says unexplained" in text


def _unresolved_book() -> list[dict]:
    """Qualitative rows with and without an unresolved cause, in two chapters, each
    with a summary row; a deviation whose ours also begins "N entries"."""
    unresolved = "consistent (unresolved), not a reproduction"
    q = "reproduced qualitatively"
    a = Ledger("multiclass")
    a.claim("[S Table 3.4] iri", "96.6", "95.0", q, f"{unresolved}: 1.4 SE")
    a.claim("[S Table 3.4] win", "98.9", "97.7", q, f"C{unresolved[1:]}: within 2 SE")
    a.claim("[S Table 3.2] n_y", "19 entries", "19 entries equal to our code sizes",
            "reproduced")  # fmt: skip
    a.claim("[S Table 3.4] order", "stated", "the same order", q,
            "the order holds, not the values")  # fmt: skip
    b = Ledger("benchmarks")
    b.claim("[S Table 3.3] Holm band", "161 entries judged here",
            "63 entries, up to 8.1 points apart (22 beyond 2 SE without the "
            "correction)", q, f"{unresolved}: bands up to 10 points")  # fmt: skip
    b.claim("[S Table 3.4] regenerated", "176 entries judged here", "17 entries", q,
            f"regenerated data: at most qualitative; all {unresolved}")  # fmt: skip
    b.claim("[S Table 3.3] snr", "77.3", "84.1", "not reproduced",
            f"{unresolved}: scaling gives 79.3")  # fmt: skip
    b.claim("[S §3.4.2] grid", "shrinking grid", "4 entries on one 5 x 4 grid",
            "not reproduced", "deviation: a coarser grid")  # fmt: skip
    return [a.to_dict(), b.to_dict()]


def test_unresolved_entries_have_their_own_column_of_one_verdict():
    book = _unresolved_book()
    rows = [r for b in book for r in assembly.owned_rows(b)]
    # only a qualitative verdict whose cause begins the phrase (in any case) is
    # unresolved; a "not reproduced" row keeps its column, and a cause that has the
    # phrase later (not at its start) is not unresolved
    assert [assembly.column(r) for r in rows] == [
        "unresolved", "unresolved", "reproduced", "reproduced qualitatively",
        "unresolved", "reproduced qualitatively", "not reproduced", "not reproduced",
    ]  # fmt: skip
    summary, _ = assembly.assemble(book)
    assert summary == [
        ["multiclass", "19", "1", "2", "0", "0", "0"],
        ["benchmarks", "0", "17", "63", "0", "1", "0"],
        ["all chapters", "19", "18", "65", "0", "1", "0"],
    ]
    # the columns split the verdicts: together they count every entry once
    assert sum(int(x) for x in summary[-1][1:]) == 103 == assembly.count_entries(rows)
    assert assembly.count_entries(rows, "reproduced qualitatively") == 18 + 65
    assert {k: assembly.number_text(book, k) for k in (
        "unresolved-entries", "unresolved-rows", "reproduced-qualitatively-entries",
        "reproduced-qualitatively-rows")} == {
        "unresolved-entries": "65", "unresolved-rows": "3",
        "reproduced-qualitatively-entries": "83",
        "reproduced-qualitatively-rows": "5"}  # fmt: skip
    record = assembly.reproduction_record(
        book, commit="abc", dirty=False, date="2026-11-27", version="0.1.0"
    )
    assert record["entry_counts"]["reproduced qualitatively"] == 83
    assert record["column_entry_counts"] == {
        "reproduced": 19, "reproduced qualitatively": 18, "unresolved": 65,
        "erratum in source": 0, "not reproduced": 1, "not attempted": 0}  # fmt: skip
    tables = assembly.open_item_tables(book)
    assert [r[1] for r in tables["unresolved"]] == [
        "[S Table 3.4] iri", "[S Table 3.4] win",
        "[S Table 3.3] Holm band"]  # fmt: skip
    assert [r[1] for r in tables["reproduced qualitatively"]] == [
        "[S Table 3.4] order", "[S Table 3.4] regenerated"]  # fmt: skip
    assert assembly.open_heading(book, "reproduced qualitatively") == (
        "Reproduced qualitatively (not unresolved): 2 rows, 18 entries (1 row stands "
        "for 17 table entries)"
    )
    assert assembly.open_heading(book, "not reproduced") == (
        "Not reproduced: 2 rows, 1 entry (1 row records a deviation of our protocol "
        "and counts none)"
    )


def test_the_verdict_names_every_summary_row_of_every_chapter():
    text = assembly.sentence_text(
        assembly.verdict_sentences(_unresolved_book(), TITLES)
    )
    assert (
        "judge 103 source entries, from 8 ledger rows: 19 are reproduced and 1 are "
        "not; 18 are reproduced qualitatively and 65 more unresolved" in text
    )
    # the summary rows of both chapters (n_y 19, Holm band 63, regenerated 17); the
    # deviation's "4 entries" is no summary row: it counts none
    assert assembly.grouped([r for b in _unresolved_book() for r in b["rows"]]) == (
        3, 99)  # fmt: skip
    assert (
        "3 rows of Multiclass LS-SVMs and output codes and Benchmarking on the UCI "
        "data sets stand for 99 table entries and count them all: 19 reproduced, 17 "
        "reproduced qualitatively and 63 unresolved (no difference shown at the "
        "row's threshold, but not a reproduction; 22 of them beyond 2 SE)" in text
    )
    assert assembly.number_text(_unresolved_book(), "grouped-entries") == "99"
    assert assembly.number_text(_unresolved_book(), "grouped-rows") == "3"


def test_every_column_of_the_status_table_is_explained_on_the_landing_page():
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    prose = re.sub(r"\s+", " ", text)
    for header in assembly.SUMMARY_HEADER[1:]:
        assert f"*{header.lower()}*" in prose.lower(), header
    assert "*Unresolved*" in prose and f"*{assembly.UNRESOLVED}*" in prose
    status = (ROOT / "book" / "reproduction_status.md").read_text(encoding="utf-8")
    assert f"*{assembly.UNRESOLVED}*" in re.sub(r"\s+", " ", status)


@pytest.mark.parametrize(
    ("cause", "deviation"),
    [("deviation: a coarser grid", True), ("Deviation: two values of tau", True),
     ("unexplained; deviation: the grid", False), ("the standard deviation", False),
     ("", False)],
)  # fmt: skip
def test_a_deviation_is_a_cause_that_begins_so(cause, deviation):
    assert assembly.is_deviation({"cause": cause}) is deviation


@pytest.mark.parametrize(
    ("cause", "unexplained"),
    [("unexplained", True), ("Unexplained: the grid", True),
     ("tests passed ...; unexplained where the printed means pass both", True),
     ("data differ (unexplained in part)", True), ("cause not shown, the rest unexplained", True), ("explained by the codes", False),
     ("the gap is not unexplained noise", False)],
)  # fmt: skip
def test_unexplained_is_a_clause_of_the_cause(cause, unexplained):
    assert assembly._is_unexplained(cause) is unexplained


def test_chance_flags_at_two_se_are_about_five_percent_of_the_entries():
    big = Ledger("benchmarks")
    for i in range(400):
        big.compare(f"e{i}", 80.0, 80.0, source_se=1.0, ours_se=1.0)
    book = [big.to_dict()]
    assert assembly.number_text(book, "chance-flags") == f"{400 * P_TWO_SE:.0f}" == "18"
    assert assembly.number_text(book, "chance-rate") == "4.6%"
    with pytest.raises(ValueError, match="unknown key 'flags'"):
        assembly.number_text(book, "flags")


def test_open_items_skip_owned_entries_and_show_the_size_in_se():
    tables = assembly.open_item_tables(_book())
    assert list(tables) == list(assembly.OPEN_ORDER)
    not_reproduced = tables["not reproduced"]
    assert [r[:2] for r in not_reproduced] == [
        ["classification", "[S Table 3.3] snr"], ["multiclass", "[S Table 3.4] veh"],
        ["multiclass", "[P Table 4] a1a"], ["benchmarks", "[S Table 3.4] bld"],
        ["benchmarks", "[S Table 3.4] pid"],
    ]  # fmt: skip
    assert not_reproduced[1][4] == "-6.4 (6.4 SE)"
    assert tables["erratum in source"] == [
        ["multiclass", "[S 3.11]", "γ", "γ_i", "–", "one constant per output"]
    ]
    assert [r[1] for r in tables["not attempted"]] == ["[S Table 3.4] thy"]


def test_reproduction_json_holds_every_row_and_the_provenance():
    book = _book()
    book[0]["rows"][1]["n_se"] = math.inf  # a difference with standard error 0
    record = assembly.reproduction_record(
        book,
        commit="abc",
        dirty=False,
        date="2026-11-26T12:00:00+00:00",
        version="0.1.0",
        titles=TITLES,
    )
    text = json.dumps(record, allow_nan=False)  # strict JSON: no NaN or Infinity
    back = json.loads(text)
    assert (back["commit"], back["date"], back["lssvm_version"]) == (
        "abc",
        "2026-11-26T12:00:00+00:00",
        "0.1.0",
    )
    assert len(back["rows"]) == 11  # the referred row too, with its owner
    fields = {"chapter", "item", "source", "ours", "difference", "n_se", "verdict",
              "rule", "cause", "owner"}  # fmt: skip
    assert all(set(r) == fields for r in back["rows"])
    owned = [r for r in back["rows"] if r["owner"]]
    assert owned == [{"chapter": "benchmarks", "item": "[S Table 3.4] veh",
                      "source": "81.9", "ours": "75.5", "difference": "", "n_se": None,
                      "verdict": "see multiclass", "rule": "owned elsewhere",
                      "cause": "judged there", "owner": "multiclass"}]  # fmt: skip
    assert back["rows"][1]["n_se"] == "inf"
    assert back["counts"] == dict(zip(VERDICTS, [3, 0, 1, 5, 1]))
    assert back["entry_counts"] == back["counts"]  # every row here is one entry
    assert back["columns"] == list(assembly.COLUMNS)
    # no row here is unresolved: the columns are the verdicts, "unresolved" empty
    assert back["column_entry_counts"] == {**back["entry_counts"], "unresolved": 0}
    assert [c["title"] for c in back["chapters"]] == list(TITLES.values())


def test_git_commit_of_the_repository_and_outside_one(tmp_path):
    commit, _ = assembly.git_commit(ROOT)
    assert commit == "unknown" or re.fullmatch(r"[0-9a-f]{40}", commit)
    assert assembly.git_commit(tmp_path) == ("unknown", None)


def test_chapter_map_follows_the_toc_and_reports_drift():
    described, errors = assembly.parse_chapter_map(
        [
            "a | topic A | [S Fig. 3.1]",
            "",
            "b | topic B |",
            "c | topic C | x",
            "bad line",
        ]
    )
    assert described == {"a": ("topic A", "[S Fig. 3.1]"), "b": ("topic B", "–"),
                         "c": ("topic C", "x")}  # fmt: skip
    assert errors == [
        "chapter-map: expected '<page> | <topic> | <reproduces>'; got 'bad line'"
    ]
    rows, problems = assembly.chapter_map_rows(
        ["book/b", "book/a", "book/d"],
        described,
        {"book/b": "1", "book/a": "2"},
        {"book/a": "Alpha", "book/b": "Beta: the long part"},
    )
    assert rows == [
        ("book/b", "1. Beta: the long part", "b"),
        ("book/a", "2. Alpha", "a"),
    ]
    assert problems == [
        "chapter-map: book/d is in the table of contents but not described",
        "chapter-map: 'c' is described but not in the table of contents",
    ]
    assert (
        assembly.short_title("Relatives II: semi-supervised LS-SVMs") == "Relatives II"
    )
    assert assembly.short_title("Classification") == "Classification"


def _toc_pages() -> list[str]:
    def files(node):
        if isinstance(node, dict):
            return ([node["file"]] if "file" in node else []) + [
                f for k, v in node.items() if k != "file" for f in files(v)
            ]
        return (
            [f for item in node for f in files(item)] if isinstance(node, list) else []
        )

    return files(yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")))


def test_the_landing_pages_chapter_map_describes_every_page_of_the_toc():
    """The same check the build makes (a warning there), without building."""
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    body = re.search(r"```\{chapter-map\}\n(.*?)\n```", text, re.S).group(1)
    described, errors = assembly.parse_chapter_map(body.splitlines())
    assert not errors
    _, problems = assembly.chapter_map_rows(_toc_pages(), described, {}, {})
    assert not problems, "; ".join(problems)


def test_the_landing_page_uses_the_directives_and_the_predictive_rule():
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    body = text[text.index("\n# ") :]
    assert body.index("{reproduction-verdict}") < body.index("A support vector machine")
    assert body.index("{chapter-map}") < body.index("{reproduction-status}")
    assert "{reproduction-open-items}" not in text  # the long list has its own page
    status = (ROOT / "book" / "reproduction_status.md").read_text(encoding="utf-8")
    assert "{reproduction-open-items}" in status
    assert (
        r"s_o\sqrt{1 + 1/k}" in text and "{reproduction-number}`chance-flags`" in text
    )
    for key in re.findall(r"\{reproduction-number\}`([^`]+)`", text):
        assembly.number_text([], key)  # every key the page uses exists
