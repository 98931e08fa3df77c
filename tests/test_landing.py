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
    assert summary[-1] == ["all chapters", "3", "0", "1", "5", "1"]
    assert (
        sum(int(x) for x in summary[-1][1:])
        == 10
        == sum(len(assembly.owned_rows(b)) for b in book)
    )
    assert not any(row[2].startswith("see ") for row in open_items)
    assert assembly.number_text(book, "entries") == "10"
    assert assembly.number_text(book, "rows") == "10"


def test_the_verdict_counts_entries_and_names_the_chapters_that_differ():
    sentences = assembly.verdict_sentences(_book(), TITLES)
    assert len(sentences) == 3
    text = assembly.sentence_text(sentences)
    assert "judge 10 ledger rows: 3 are reproduced and 5 are not;" in text
    assert "Each row is one entry of a source" in text
    assert "%" not in text  # rows of mixed granularity: no percentages
    assert "1 is an erratum in the source" in text and "1 were not attempted" in text
    # not reproduced: classification 1, multiclass 2, benchmarks 2: ties keep the order
    assert (
        "All 5 rows not reproduced lie in three chapters: Multiclass LS-SVMs and "
        "output codes (2 of its 4 rows), Benchmarking on the UCI data sets (2 of 3) "
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
    assert "Two chapters hold 4 of the 5 rows not reproduced: Multiclass" in text
    one = assembly.sentence_text(assembly.verdict_sentences(_book(), TITLES, top=1))
    assert "One chapter holds 2 of the 5 rows not reproduced" in one


def test_a_book_with_nothing_open():
    a = Ledger("classification")
    a.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    text = assembly.sentence_text(assembly.verdict_sentences([a.to_dict()], TITLES))
    assert text.startswith("The one chapter that reproduces a source judges 1 ledger")
    assert "1 ledger row: 1 are reproduced and 0 are not" in text
    assert "No chapter has a row" in text
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
    assert "judges 4 ledger rows" in text and "the counts mix granularities" in text
    assert (
        "2 rows of Benchmarking on the UCI data sets stand for 142 table entries: "
        "80 reproduced and 62 unresolved (no difference shown at the row's "
        "threshold, but not a reproduction; 24 of them beyond 2 SE)." in text
    )
    assert "1 are reproduced qualitatively (1 of them only unresolved" in text
    assert assembly.open_heading(d, "reproduced qualitatively") == (
        "Reproduced qualitatively: 1 row (one of them stands for 62 table entries)"
    )
    assert assembly.open_heading(d, "not attempted") == "Not attempted: 0 rows"


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
