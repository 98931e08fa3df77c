"""lssvm.reporting.ledger: numbered tables and reproduction ledgers; the landing page's assembly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lssvm.reporting.ledger import VERDICTS, Ledger, markdown_table, table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
import ledger_assembly as ledgers  # noqa: E402  (the pure part of the ledgers extension)


def test_markdown_table_uses_each_columns_format():
    frame = pd.DataFrame({"N": [20000, 200000], "residual": [2.845398e-11, 1e-3],
                          "rate": [450.00000000000006, 1.5], "name": ["a|b", "c"]})
    md = markdown_table(frame, {"N": ",d", "residual": ".1e", "rate": ".1f"})
    lines = md.splitlines()
    assert lines[0] == "| N | residual | rate | name |"
    assert lines[2] == "| 20,000 | 2.8e-11 | 450.0 | a\\|b |"
    assert "450.00000000000006" not in md and "2.845398e-11" not in md


def test_table_is_a_numbered_myst_table():
    out = table(pd.DataFrame({"a": [1.0]}), "Caption with $x$.", "tab-x", {"a": ".2f"})
    text = out.data
    assert text.startswith(":::{table} Caption with $x$.\n:name: tab-x\n")
    assert "| 1.00 |" in text and text.rstrip().endswith(":::")


def test_compare_follows_its_rule():
    ledger = Ledger("chap")
    assert ledger.compare("[S Table 3.3] a", 84.4, 84.9, source_se=0.3,
                          ours_se=0.2).verdict == "reproduced"  # 1.4 SE
    row = ledger.compare("[S Table 3.3] b", 84.4, 86.0, source_se=0.3, ours_se=0.2,
                         cause="sonar's data differ")
    assert row.verdict == "not reproduced" and row.n_se == pytest.approx(1.6 / np.hypot(0.3, 0.2))
    assert ledger.compare("[P Table 1] b", -0.9999, -0.99991, digits=4).verdict == "reproduced"
    assert ledger.compare("[P Table 1] w", 1.9996, 1.9990, digits=4, cause="x").verdict == "not reproduced"
    assert ledger.compare("t", 1.0, 1.05, tol=0.1).verdict == "reproduced"
    q = ledger.compare("q", 1.0, 2.0, tol=0.1, qualitative=True, cause="same ranking")
    assert q.verdict == "reproduced qualitatively"


def test_a_failed_rule_needs_a_cause_and_is_never_upgraded():
    ledger = Ledger("chap")
    with pytest.raises(ValueError, match="needs a cause"):
        ledger.compare("x", 1.0, 2.0, tol=0.1)
    with pytest.raises(ValueError, match="needs a cause"):
        ledger.not_attempted("x", "3.1", "")
    with pytest.raises(ValueError, match="verdict must be one of"):
        ledger.claim("x", "a", "b", "mostly")
    assert ledger.compare("x", 1.0, 2.0, tol=0.1, cause="unexplained").verdict == "not reproduced"


def test_show_saves_the_ledger(tmp_path, monkeypatch):
    monkeypatch.setenv("LSSVM_LEDGER_DIR", str(tmp_path))
    ledger = Ledger("chap")
    ledger.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    ledger.not_attempted("[S Table 3.4] thy", "95.8", "thyroid is not available offline")
    out = ledger.show("Reproduction ledger.", "tab-chap-ledger")
    assert ":name: tab-chap-ledger" in out.data and "not attempted" in out.data
    saved = json.loads((tmp_path / "chap.json").read_text())
    assert [r["verdict"] for r in saved["rows"]] == ["reproduced", "not attempted"]


def test_changing_a_ledger_row_changes_the_landing_page():
    a, b = Ledger("classification"), Ledger("fisher")
    a.claim("[S Fig. 3.2]", "zero training error", "0 errors", "reproduced")
    b.compare("[S Table 3.3] snr", 73.1, 84.1, source_se=1.2, ours_se=1.0,
              cause="data or preprocessing differ")
    summary, open_items = ledgers.assemble([a.to_dict(), b.to_dict()])
    assert summary[0] == ["classification", "1", "0", "0", "0", "0", "0"]
    assert summary[-1] == ["all chapters", "1", "0", "0", "0", "1", "0"]
    assert open_items == [["fisher", "[S Table 3.3] snr", "not reproduced",
                           "data or preprocessing differ"]]
    # the same chapter after a rerun: the row is now reproduced
    b2 = Ledger("fisher")
    b2.compare("[S Table 3.3] snr", 73.1, 73.9, source_se=1.2, ours_se=1.0)
    summary2, open2 = ledgers.assemble([a.to_dict(), b2.to_dict()])
    assert summary2 != summary and open2 == []
    assert summary2[-1] == ["all chapters", "2", "0", "0", "0", "0", "0"]
    assert list(VERDICTS) == list(ledgers.VERDICTS)


def test_show_prints_a_dash_for_rows_without_standard_errors(tmp_path, monkeypatch):
    # a claim next to a compare row with SEs: pandas turns the claim's None into NaN
    monkeypatch.setenv("LSSVM_LEDGER_DIR", str(tmp_path))
    ledger = Ledger("mixed")
    ledger.compare("[S Table 3.3] acr", 87.0, 87.1, source_se=0.6, ours_se=0.4, digits=1)
    ledger.claim("[S 3.16] quotient", "stated", "derived", "reproduced")
    text = ledger.show("caption", "tab-mixed").data
    assert "nan" not in text and "| – |" in text


def test_an_erratum_row_needs_its_correction():
    ledger = Ledger("regression")
    with pytest.raises(ValueError, match="cause"):
        ledger.claim("[S 3.47]", "+γ", "−γ", "erratum in source")
    row = ledger.claim("[S 3.47]", "+γ", "−γ", "erratum in source", "sign slip")
    summary, open_items = ledgers.assemble([ledger.to_dict()])
    assert row.verdict == "erratum in source"
    assert summary[0] == ["regression", "0", "0", "0", "1", "0", "0"]
    assert open_items == [["regression", "[S 3.47]", "erratum in source", "sign slip"]]


def test_single_draw_source_uses_the_predictive_standard_error():
    from lssvm.reporting.ledger import Ledger

    ledger = Ledger("x")
    # s = 1 over k = 4 draws: ours_se = 0.5, predictive SE = sqrt(1 + 1/4) = 1.118
    row = ledger.compare("a", 80.0, 82.0, ours_se=0.5, single_draw=4)
    assert abs(row.n_se - 2.0 / 1.118034) < 1e-5
    assert row.verdict == "reproduced" and "predictive" in row.rule
    row = ledger.compare("b", 80.0, 82.5, ours_se=0.5, single_draw=4, cause="unexplained")
    assert row.verdict == "not reproduced"
    with pytest.raises(ValueError, match="single_draw"):
        ledger.compare("c", 80.0, 82.0, source_se=1.0, ours_se=0.5, single_draw=4)


def test_an_entry_owned_by_another_chapter_is_shown_but_not_counted():
    from lssvm.reporting.ledger import Ledger

    ledger = Ledger("benchmarks")
    ledger.compare("a", 1.0, 1.0)
    row = ledger.refer("b", "1.0", "2.0", "multiclass")
    assert row.verdict == "see multiclass" and row.owner == "multiclass"
    assert sum(ledger.counts().values()) == 1
    with pytest.raises(ValueError, match="owner"):
        ledger.refer("c", "1", "1", "benchmarks")


def test_not_attempted_states_how_many_entries_it_covers():
    ledger = Ledger("benchmarks")
    one = ledger.not_attempted("[S Table 3.4] thy, LDA", "10 splits", "data offline")
    many = ledger.not_attempted("[S Table 3.4] thy, every row", "10 splits",
                                "data offline", entries=22)
    assert one.ours == "–" and many.ours == "22 entries"
    assert many.verdict == one.verdict == "not attempted"
