"""The reproduction ledger of [S Tables 3.1-3.4] and [S §3.4.2] (``book/benchmarks.md``).

The chapter measures; these functions turn its measurements into ledger rows
(:class:`lssvm.reporting.ledger.Ledger`) by one rule each:

- :func:`shift_chance`, :func:`shift_cause`: the data controls (untuned reference rows
  beyond 2 SE on one set);
- :func:`cause_of`: the measured cause of a flagged entry, or "unexplained";
- :func:`judge_flagged`, :func:`summary_claims`: one row per flagged entry, two summary
  rows per table;
- :func:`wilcoxon_claims`, :func:`headline_average`, :func:`count_claim`,
  :func:`order_claim`, :func:`rival`: the paper's claims about the tables.

Every function takes what it judges as arguments (no state of the chapter), so the
unit tests (``tests/test_uci_ledger.py``) run it on small hand-made inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import binom


def shift_chance(min_rows: int, n_rows: int, rate: float) -> float:
    """Chance that at least ``min_rows`` of ``n_rows`` rows on one set lie beyond 2 SE
    when each does so independently with probability ``rate``: the binomial tail
    P(X >= min_rows), X ~ Binomial(n_rows, rate)."""
    return float(binom.sf(min_rows - 1, n_rows, rate))


def shift_cause(name: str, untuned: bool, gap: float, data_shift: Mapping,
                chance: float, established: bool, any_set: float | None = None,
                n_sets: int | None = None) -> str | None:
    """The data-control cause of an entry on set ``name``, or None if the controls do
    not flag that set.

    ``data_shift``: set -> (untuned rows beyond 2 SE, of how many, lowest gap, highest
    gap) (``stats.data_controls``); ``untuned``: whether the entry's row is one of the
    untuned reference rows; ``gap``: ours - paper, in points; ``chance``: the
    probability of the observed event (this many rows or more beyond 2 SE on this set,
    :func:`shift_chance`); ``any_set``: the probability that some one of the
    ``n_sets`` sets tested shows it (the multiplicity of the scan); ``established``:
    whether that is small enough to name the data as the cause.
    """
    if name not in data_shift:
        return None
    n_out, m, lo, hi = data_shift[name]
    scan = ("" if any_set is None else
            f"; about {any_set:.2f} that some one of the {n_sets} sets tested shows it")
    what = (f"{n_out} of {m} untuned reference rows on {name} lie beyond 2 SE, their "
            f"gaps span {lo:+.1f} to {hi:+.1f} points (chance of {n_out} or more of "
            f"{m} about {chance:.3f} at the flag rate of the other sets{scan})")
    if untuned:
        return (f"data or preprocessing differ: {what}" if established else
                f"unexplained; candidate, not established: data or preprocessing "
                f"differ ({what})")
    return (f"unexplained; data differ (controls), effect on this row not tested: "
            f"{what}; this gap is {gap:+.1f}")


def same_split_cause(name: str, controls: str, relative: tuple) -> str:
    """The cause of a gap on set ``name`` where controls on the same splits move with
    it (the Fisher chapter's sonar measurement): ``controls`` names them; ``relative``
    = (this row minus the reference row on our splits, its paired SE, the same
    difference of the paper's printed means, the reference row's name). The place
    relative to the reference is "not contradicted" within 2 SE of the difference,
    the paper's SE taken as ours: |d_o - d_p| <= 2 sqrt(2) SE_o."""
    ours, se, paper, ref = relative
    n_se = abs(ours - paper) / (np.sqrt(2) * se)
    what = (f"the data or splits differ from the paper's on {name} (measured on the "
            f"same splits, as in the Fisher chapter): {controls}; this row minus our "
            f"{ref} is {ours:+.1f} (SE {se:.1f}) ours, {paper:+.1f} the paper's, "
            f"{n_se:.1f} SE apart (the paper's SE taken as ours)")
    return what if n_se <= 2 else f"unexplained beyond the data: {what}"


def cause_of(t: str, row: str, name: str, gap: float, se: float, ev: Any) -> str:
    """The measured cause of a flagged entry of [S Table t] (our ``row`` on set
    ``name``; ``gap``: ours - paper, ``se``: of the gap), or a text that says
    "unexplained".

    ``ev`` holds the chapter's measurements as attributes: ``paper_row`` (our row name
    -> the paper's), ``untuned`` (the untuned reference rows), ``data_shift``,
    ``shift_chance`` (set -> (chance of the observed event, chance that some set
    tested shows it, sets tested)), ``shift_established`` (the sets where the controls
    name the data as the cause), ``same_split`` (set -> (the controls on the same
    splits, our row -> its place relative to a reference row), the Fisher chapter's
    sonar measurement), ``lin_moc_degenerate``,
    ``qda_unregularised``, ``majority``, ``led_distinct``, ``led_ties``,
    ``onehot_ib10``, ``ttt_ties_vote``, ``ttt_onehot_ties``, ``ttt_onehot_ties_n_se``,
    ``ttt_ties_explain``, ``gain_rule``, ``adu_onehot``, ``n_adu_onehot``,
    ``pairing``, ``svc_pairing``, ``pairing_range``, ``bal_to_balanced``,
    ``below_maj``.
    """
    paper = ev.paper_row(row, t)
    if row == "SVC (SMO, linear, MOC)" and name in ev.lin_moc_degenerate:
        return ev.lin_moc_degenerate[name]
    if paper == "QDA" and name in ("wav", "snr"):
        fails, acc = ev.qda_unregularised[name]
        fitted = f"; {acc.mean():.1f}% on the others" if len(acc) else ""
        return (f"singular class covariances: QDA without shrinkage fails on "
                f"{fails} of 10 splits{fitted}; ours shrinks by 1%")
    if paper == "Maj. Rule":
        return majority_cause(ev.majority.loc[name])
    if paper == "IB1" and name == "led":
        return (f"neighbour ties: led has {ev.led_distinct} distinct inputs, and our 1-NN "
                f"keeps one of the tied nearest points; a vote among all of them "
                f"gives {ev.led_ties.mean():.1f}% ({ev.led_ties.std(ddof=1):.1f}) on the "
                "same splits; assumes the paper's IB1 voted among tied neighbours (Weka's "
                "IBk with k = 1 does, Weka's IB1 keeps the first nearest), and the tie "
                "count is that of our regenerated led")
    if paper == "IB10" and name == "ttt":
        measured = (f"one-hot codes give {ev.onehot_ib10.mean():.1f}%; a vote among every "
                    f"point tied with the 10th neighbour {ev.ttt_ties_vote.mean():.1f}% on "
                    f"our codes and {ev.ttt_onehot_ties.mean():.1f}% "
                    f"({ev.ttt_onehot_ties_n_se:.1f} SE) on one-hot codes")
        return (f"codes and ties: {measured}" if ev.ttt_ties_explain else
                f"unexplained (sensitivity shown): {measured}")
    if name == "adu" and paper == "oneR":
        return ("our oneR equals the majority rule on every split; a capital-gain "
                f"threshold gives {np.mean(ev.gain_rule):.1f}%")
    if name in ev.same_split and row in ev.same_split[name][1]:
        controls, relative = ev.same_split[name]
        return same_split_cause(name, controls, relative[row])
    chance, any_set, n_sets = ev.shift_chance.get(name, (np.nan, None, None))
    shifted = shift_cause(name, paper in ev.untuned, gap, ev.data_shift, chance,
                          name in ev.shift_established, any_set, n_sets)
    if shifted is not None:
        if name == "adu" and row in ev.adu_onehot:
            shifted += (f"; one-hot codes of the categorical attributes give "
                        f"{ev.adu_onehot[row].mean():.1f}% ({ev.n_adu_onehot} splits)")
        return shifted
    if row == "Lin LS-SVM (MOC)" and name in ev.pairing:
        return moc_assignment_cause(ev.pairing[name])
    if row == "SVC (SMO, linear, MOC)" and name in ev.svc_pairing:
        return moc_assignment_cause(ev.svc_pairing[name])
    if "MOC)" in row and name in ev.pairing:
        return ("unexplained for this row (not tested): the MOC assignment moves "
                f"Lin LS-SVM (MOC) here by {ev.pairing_range[name]:.1f} points, and the "
                "Multiclass chapter measures its effect on RBF LS-SVM (MOC)")
    if row == "Lin LS-SVM_F (1vs1)" and name == "bal":
        return (f"unexplained: {np.mean(ev.bal_to_balanced):.0f}% of left/right test "
                "points are assigned to 'balanced'")
    if paper == "Pol LS-SVM_F (1vs1)" and name in ev.below_maj:
        return "unexplained (the paper's entry is below its own majority rule)"
    return "unexplained"


def majority_cause(m: Mapping) -> str:
    """The cause of a flagged majority-rule entry, from one row of the chapter's
    majority table: ``paper sd``, ``paper`` (mean), ``largest class`` (% of the set),
    ``unstratified`` and ``n_se`` (the majority of unstratified training parts),
    ``test majority`` and ``n_se test`` (the majority of the test parts)."""
    if m["paper sd"] == 0:  # fixed test proportions: a stratified split of its data
        return (f"regenerated data: our largest class holds {m['largest class']:.1f}% "
                f"of the set; the paper's s.d. of 0.0 fits stratified splits of a set "
                f"whose largest class holds {m['paper']:.1f}%")
    split_rule = (f"unstratified splits, training majority: {m['unstratified']:.1f} "
                  f"({m['n_se']:.1f} SE)")
    test_rule = (f"majority of the test part: {m['test majority']:.1f} "
                 f"({m['n_se test']:.1f} SE)")
    if m["n_se"] <= 2:
        return f"our splits are stratified (no spread); {split_rule}"
    if m["n_se test"] <= 2:
        return (f"candidate, not established: the paper's mean fits a majority taken "
                f"from the test part ({test_rule}), not one from the training part "
                f"({split_rule})")
    return f"unexplained: {split_rule}; {test_rule}"


def moc_assignment_cause(accuracies: list) -> str:
    """The sensitivity to the MOC class-to-codeword assignment: ``accuracies`` holds
    one array of accuracies (%, over the splits) per assignment."""
    lo = min(a.mean() for a in accuracies)
    hi = max(a.mean() for a in accuracies)
    return (f"sensitivity shown, cause not established: the {len(accuracies)} "
            f"MOC codeword assignments give {lo:.1f}-{hi:.1f}%")


def judge_flagged(ledger, beyond: pd.DataFrame, t: str, cause: Callable,
                  paper_row: Callable, errata: Mapping, suspected: Mapping,
                  degenerate: Mapping, sd_floor: float, rule_note: str) -> pd.DataFrame:
    """One ledger row per flagged entry of [S Table t], grouped by cause (measured
    causes first, "unexplained" last); returns the entries with their causes.

    ``beyond``: the flagged entries (columns table, row, set, paper, paper sd, ours, sd,
    k, diff, se, n_se, holm); ``cause(t, row, set, diff, se)``: the cause text; ``errata``
    and ``suspected``: (table, row, set) -> note, a claim instead of a comparison;
    ``degenerate``: set -> note for the linear MOC SVC. A comparison uses the paper's
    SE s_p / sqrt(10) (s_p at least ``sd_floor``), ours s_o / sqrt(k), and Holm's
    threshold of the entry (``k_se``).
    """
    flagged_t = beyond[beyond["table"] == t].copy()
    flagged_t["cause"] = [cause(t, e["row"], e["set"], e["diff"], e["se"])
                          for _, e in flagged_t.iterrows()]
    flagged_t["unexplained"] = flagged_t["cause"].str.contains("unexplained")
    flagged_t = flagged_t.sort_values(["unexplained", "cause", "set"], kind="stable")
    for _, e in flagged_t.iterrows():
        item = f"[S Table {t}] {e['set']}, {paper_row(e['row'], t)}"
        key = (t, e["row"], e["set"])
        ours = f"{e['ours']:.1f} ({e['diff']:+.1f}, {e['n_se']:.1f} SE)"  # claims
        if key in errata:
            ledger.claim(item, f"{e['paper']:.1f}", ours, "erratum in source",
                         errata[key])
            continue
        if key in suspected:
            ledger.claim(item, f"{e['paper']:.1f}", ours, "not reproduced",
                         suspected[key])
            continue
        if e["row"] == "SVC (SMO, linear, MOC)" and e["set"] in degenerate:
            ledger.claim(item, f"{e['paper']:.1f}", ours, "not reproduced", e["cause"])
            continue
        # the threshold to two decimals, rounded down, so that the shown rule still
        # fails for every flagged entry: n_se > holm >= floor(100 holm) / 100
        ledger.compare(item, e["paper"], e["ours"],
                       source_se=max(e["paper sd"], sd_floor) / np.sqrt(10),
                       ours_se=e["sd"] / np.sqrt(e["k"]), digits=1, cause=e["cause"],
                       k_se=np.floor(100 * float(e["holm"])) / 100, rule_note=rule_note)
    return flagged_t


def summary_claims(ledger, t: str, agree_t: pd.DataFrame, wide_t: pd.DataFrame,
                   n_owned_t: int, margin: float, n_beyond_2se: int, n_holm: int,
                   n_chance: float, regenerated: tuple = (),
                   regenerated_note: str = "") -> None:
    """The summary rows of [S Table t]: the entries within 2 SE and ``margin`` points
    (reproduced; those on the ``regenerated`` sets only reproduced qualitatively,
    since their agreement is conditional on our generator, ``regenerated_note``), and
    those within Holm's threshold only (reproduced qualitatively; ``wide_t`` has
    columns diff, n_se, limit, holm, se; ``agree_t`` a column set)."""
    regen = agree_t["set"].isin(list(regenerated))
    item = f"[S Table {t}] entries within 2 SE and within {margin:.0f} point of the paper's"
    ledger.claim(item + (", sets read from files" if regen.any() else ""),
                 f"{n_owned_t} entries judged here", f"{int((~regen).sum())} entries",
                 "reproduced")
    if regen.any():
        ledger.claim(f"{item}, regenerated sets ({', '.join(regenerated)})",
                     f"{n_owned_t} entries judged here", f"{int(regen.sum())} entries",
                     "reproduced qualitatively", f"regenerated data: {regenerated_note}")
    n_wide_2se_t = int((wide_t["n_se"] > wide_t["limit"]).sum())
    ledger.claim(f"[S Table {t}] entries within Holm's threshold but more than "
                 f"{margin:.0f} point from the paper's or beyond 2 SE",
                 f"{n_owned_t} entries judged here",
                 f"{len(wide_t)} entries, up to {wide_t['diff'].abs().max():.1f} points "
                 f"apart ({n_wide_2se_t} beyond 2 SE without the correction)",
                 "reproduced qualitatively",
                 f"{n_wide_2se_t} beyond 2 SE but within Holm's threshold: no difference "
                 "shown at the family-wise level, not evidence of agreement; all "
                 "consistent (unresolved), not a reproduction: bands up to "
                 f"±{(wide_t['holm'] * wide_t['se']).max():.1f} points; with "
                 f"{n_beyond_2se} of all {n_holm} entries beyond 2 SE against about "
                 f"{n_chance:.0f} by chance, most of those beyond 2 SE differ, though the "
                 "correction cannot say which")


def wilcoxon_verdict(verdicts: set) -> str:
    """The verdict of one statement of the text over its rows, from the set of
    "which tests pass" values (both, AA only, AR only, neither)."""
    return ("reproduced" if verdicts == {"both"} else "reproduced qualitatively"
            if "neither" not in verdicts else "not reproduced")


def wilcoxon_claims(ledger, claims: pd.DataFrame, holds: Callable,
                    corrected: Callable, correction: str,
                    among: Mapping | None = None) -> None:
    """One claim per Wilcoxon statement of the text ("not different from ..."), on our
    means, with the printed means' result as the cause where ours fail.

    ``claims``: one row per (statement, row) with columns table, the text, level, row,
    against, "holds, ours", "holds, printed"; ``holds(p_aa, p_ar, level)``: which
    tests pass; ``corrected(t, row, against)``: the two p-values on the printed means
    with a suspected misprint corrected, or None where no correction applies;
    ``correction``: its words (e.g. "with pid 76.9"); a column "statement", where
    present, keeps apart statements with the same words; ``among``: (table, the text,
    level[, statement]) -> {"printed": (pairs passing, pairs), "ours": (pairs passing, pairs),
    "failing": text} for a statement that does not say against what its rows were
    tested, read as "not different among themselves" (every pair, both tests). Where
    the printed means pass that reading and fail the reading "against the best", the
    statement is judged on it: consistent (reproduced qualitatively, the reading being
    ours) when every pair of ours passes, not reproduced otherwise; else the reading is
    reported in the cause.
    """
    keys = ["table", "the text", "level"] + (["statement"] if "statement" in claims
                                             else [])  # statements with the same words
    for key, group in claims.groupby(keys, sort=False):
        t, words, level = key[:3]
        have = group[group["holds, ours"] != "–"]
        verdict = wilcoxon_verdict(set(have["holds, ours"]))
        failing = have[have["holds, ours"] != "both"].copy()
        failing["final"] = failing["holds, printed"]
        for i, r in failing.iterrows():
            p_fix = corrected(t, r["row"], r["against"])
            if p_fix is None:
                continue
            failing.loc[i, "final"] = holds(*p_fix, level)
            failing.loc[i, "holds, printed"] = (
                f"{r['holds, printed']}, {correction}: "
                f"{holds(*p_fix, level)} (W_AA {p_fix[0]:.3f}, W_AR {p_fix[1]:.3f})")
        cause = None if verdict == "reproduced" else (
            "tests passed on ours / on the paper's printed means: "
            + "; ".join(f"{r['row']} {r['holds, ours']} / {r['holds, printed']}"
                        for _, r in failing.iterrows())
            + ("; unexplained where the printed means pass both"
               if (failing["final"] == "both").any() else
               "; the printed means fail them too"))
        alt = (among or {}).get(tuple(key))
        if alt is not None:
            (pp, n_pp), (po, n_po) = alt["printed"], alt["ours"]
            alt_text = (f"read as 'among themselves' (every pair of these rows, both "
                        f"tests at {level:.0%}): {pp} of {n_pp} pairs pass on the printed "
                        f"means, {po} of {n_po} on ours"
                        + (f" (failing on ours: {alt['failing']})" if alt["failing"]
                           else ""))
            printed_against = bool((group["holds, printed"] == "both").all())
            if pp == n_pp and not printed_against:  # the reading the printed means fit
                against = (f"read as against {group['against'].iloc[0]}: "
                           + (cause or "every row passes both tests"))
                verdict = "reproduced qualitatively" if po == n_po else "not reproduced"
                cause = ("the text does not say against what; judged on the reading "
                         f"its printed means fit, which is ours: {alt_text}; {against}")
            else:
                cause = f"{cause}; {alt_text}" if cause else alt_text
        ledger.claim(f"[S §3.4.2] Wilcoxon ({t}): {', '.join(group['row'])} {words} "
                     f"({group['against'].iloc[0]}, {level:.0%})", "not different",
                     f"both tests pass for {int((have['holds, ours'] == 'both').sum())} of "
                     f"{len(have)} rows we have", verdict, cause)


def headline_average(ledger, item: str, paper_aa: float, ours_aa: float,
                     paper_se: float, ours_se: float, gap: pd.Series, n_sets: int,
                     printed: float):
    """The average accuracy of one row over our sets against the paper's entries
    averaged over the same sets (within 2 SE of the difference or not); the source
    column shows the ``printed`` average over the paper's 10 sets, and the cause names
    the set whose gap (``gap``: ours - paper per set) contributes most."""
    top = gap.abs().idxmax()
    within = abs(ours_aa - paper_aa) <= 2 * np.hypot(paper_se, ours_se)
    r_aa = ledger.compare(item, paper_aa, ours_aa, source_se=paper_se, ours_se=ours_se,
                          digits=2,
                          cause=None if within else f"{top} contributes "
                          f"{gap[top] / n_sets:+.2f} of {gap.mean():+.2f}; without {top} "
                          f"{gap.drop(top).mean():+.2f}")
    recomputed = (f"difference and SE against the paper's entries averaged over our "
                  f"{n_sets} sets, {paper_aa:.2f}")
    r_aa.source = f"{printed:.2f} (printed, 10 sets)"
    r_aa.cause = f"{recomputed}; {r_aa.cause}" if r_aa.cause else recomputed
    return r_aa


def count_claim(ledger, t: str, row: str, key: str, source: int, value: int,
                n_sets: int, interval: tuple | None = None,
                n_unresolved: int | None = None) -> None:
    """A count of sets where ``row`` is the best / not worse / worse by 1% (``key``),
    ours over ``n_sets`` sets against the paper's over 10. "best" (the per-set maxima)
    is reproduced when equal, consistent but unresolved when the paper's count lies in
    our 95% bootstrap ``interval``; "not worse" and "worse 1%" are not comparable: they
    depend on a per-set test the paper does not name ("not worse": the
    ``n_unresolved`` binary sets where another row is not different from the best),
    and "worse 1%" is over other sets."""
    item = f"[S §3.4.2] sets where {row} is {key} (ours of {n_sets}, paper of 10)"
    if key == "best":  # the count of per-set maxima, with its bootstrap interval
        lo, hi = (int(v) for v in interval)
        ours = f"{value} (95% bootstrap interval {lo}-{hi})"
        if value == source:
            ledger.claim(item, f"{source}", ours, "reproduced")
        elif lo <= source <= hi:
            ledger.claim(item, f"{source}", ours, "reproduced qualitatively",
                         f"consistent (unresolved), not a reproduction: the paper's "
                         f"{source} lies inside our interval; rule: equal, or inside it")
        else:
            ledger.claim(item, f"{source}", ours, "not reproduced",
                         f"unexplained: the paper's {source} lies outside our interval")
        return
    if key == "worse 1%":  # the paper counts over its 10 sets, we over our 8
        ledger.claim(item, f"{source}", f"{value}", "not attempted",
                     "not comparable: different sets; on the printed means the paper's "
                     "row is far below the best on thy and usp, which we do not run, "
                     "so at least two of its 3 are probably outside our sets; the count "
                     "also depends on a per-set test the paper does not name")
        return
    ledger.claim(item, f"{source}", f"{value} (our paired t, 5%)", "not attempted",
                 "not comparable: the count depends on the per-set test, which the "
                 "paper does not name; with ours another row is not different from the "
                 f"best on {n_unresolved} of our {n_sets} binary sets" if t == "3.3" else
                 f"not comparable: our {n_sets} sets against its 10, and a per-set test "
                 "the paper does not name")


def order_claim(ledger, item: str, a: str, b: str, key: str, share: float, p_t: float,
                level: float, n_replicates: int) -> None:
    """A claim that row ``a`` beats row ``b`` (display names; AA: higher, AR: lower).

    It is reproduced when ``a`` is ahead in at least ``level`` of the ``n_replicates``
    paired bootstrap replicates (``share``) and, for AA, the paired t-test gives
    ``p_t`` < 5% (pass ``p_t`` = 0 for AR); it is reversed when ``b`` is ahead in at
    least ``level`` and the t-test resolves it (not reproduced); otherwise neither
    order is resolved, which is consistent with the claim but no reproduction of it
    (reproduced qualitatively, with the direction of the point estimate).
    """
    ours = f"{a} ahead in {share:.0%} of replicates"
    if key == "AA":
        ours += f" (paired t: p = {p_t:.2g})"
    if share >= level and p_t < 0.05:
        ledger.claim(item, f"{a} ahead", ours, "reproduced")
        return
    rule = (f"an order is resolved when it holds in {level:.1%} of "
            f"{n_replicates} paired bootstrap replicates of the splits"
            + (" and the paired t-test gives p < 5%" if key == "AA" else ""))
    if share <= 1 - level and p_t < 0.05:
        ledger.claim(item, f"{a} ahead", ours, "not reproduced",
                     f"reversed: {b} ahead in {1 - share:.0%} ({rule})")
        return
    lean = ("favours the claim" if share > 0.5 else "goes against the claim"
            if share < 0.5 else "is even")
    ledger.claim(item, f"{a} ahead", ours, "reproduced qualitatively",
                 f"consistent (unresolved), not a reproduction: neither order is "
                 f"resolved, and the point estimate {lean} ({rule})")


def shrinking_extremes(values, n_refinements: int = 3, n_points: int = 5) -> tuple:
    """The lowest and highest value the shrinking grid search can evaluate from the
    initial grid ``values``: the best at the same end at every stage. A refinement
    spans best ± the mean of its neighbours' gaps in log10 (one gap at an end), in
    ``n_points`` steps (``lssvm.model_selection.search``): at an end the step is
    that gap, then 2 gap / (n_points - 1), and so on."""
    logs = np.log10(np.sort(np.unique(np.asarray(values, float))))
    out = []
    for end, gap in ((logs[0], logs[0] - logs[1]), (logs[-1], logs[-1] - logs[-2])):
        for _ in range(n_refinements):
            end += gap                      # the refined grid reaches best ± gap
            gap = 2 * gap / (n_points - 1)  # its spacing: the next stage's gap
        out.append(10.0**end)
    return tuple(out)


def rival(stats: pd.DataFrame, row: str, key: str) -> str:
    """Our strongest row other than ``row``: the highest AA or the lowest AR
    (``stats``: rows x AA, AR)."""
    values = stats[key].drop(row)
    return values.idxmax() if key == "AA" else values.idxmin()


def data_claims(ledger, from_files: pd.DataFrame, bal_grid_size: int, bal_is_grid: bool,
                adu_sizes: tuple, adu_split: tuple) -> None:
    """The data sets: N, n and M of the sets read from files (``from_files``: columns
    N, n, M and the same with " ours"), bal as the full 5^4 grid, led and wav as
    reconstructions, and adu's training / test sizes against the paper's."""
    same_files = int(((from_files["N"] == from_files["N ours"])
                      & (from_files["n"] == from_files["n ours"])
                      & (from_files["M"] == from_files["M ours"])).sum())
    ledger.claim(f"[S Tables 3.1-3.2] N, n, M of the {len(from_files)} sets read from "
                 "files", f"{len(from_files)} sets", f"{same_files} with the same N, n and M",
                 "reproduced" if same_files == len(from_files) else "not reproduced",
                 None if same_files == len(from_files) else "unexplained")
    ledger.claim("[S Table 3.2] bal", "UCI file", f"generated: all {bal_grid_size} points "
                 "of the 5^4 grid, each once",
                 "reproduced" if bal_is_grid else "not reproduced",
                 None if bal_is_grid else "unexplained")
    ledger.claim("[S Table 3.2] led, wav", "UCI files", "generated from the UCI "
                 "definitions", "reproduced qualitatively",
                 "reconstructions: N by construction; wav is the noise-free variant, "
                 "chosen because it fits n = 19 and the paper's near-perfect accuracies, "
                 "so every wav comparison is against a reconstruction")
    ledger.claim("[S Table 3.1] adu split", "33,000 / 12,222",
                 f"{adu_sizes[0]:,} / {adu_sizes[1]:,}",
                 "reproduced" if adu_sizes == adu_split else "not reproduced",
                 None if adu_sizes == adu_split else "unexplained")


def deviation_claims(ledger, adu_subsample: int, d5_sets, d5_edge_text: str,
                     inert_share: float, svc_edge_text: str = "") -> None:
    """The protocol's deviations from [S §3.4.2], each with its effect "not measured":
    the SVC grid, adu's tuning and NB_k subsample (``adu_subsample`` points), tau in
    {1, n}, d = 2..5 on ``d5_sets`` (``d5_edge_text``: the choices at d = 5), and the
    inert gamma grid at high degrees (``inert_share``: the share of d = 10, tau = n
    records with one CV score for every gamma); ``svc_edge_text``: how often the
    SVC's choices sit at an edge of its grid."""
    ledger.claim("[S §3.4.2] SVM hyper-parameters by the LS-SVM's shrinking grid",
                 "shrinking grid, i_max = 3", "one 5 x 4 grid (C, gamma), 10-fold CV",
                 "not reproduced", "deviation: a coarser grid for the RBF SVC"
                 + (f" ({svc_edge_text})" if svc_edge_text else "")
                 + "; its effect not measured")
    ledger.claim("[S Table 3.1] adu: tuning set of the LS-SVMs and SVCs", "N_CV = 33,000",
                 f"stratified subsample of {adu_subsample:,}", "not reproduced",
                 "deviation: the gamma chosen there is reused at the full N without "
                 "rescaling; its effect not measured")
    ledger.claim("[S Table 3.1] adu: training set of NB_k", "33,000 points",
                 f"{adu_subsample:,} points", "not reproduced",
                 "deviation: prediction cost grows with the training size; its effect "
                 "not measured")
    ledger.claim("[S §3.4.2] polynomial kernel: (gamma, tau) tuned", "tau tuned",
                 "tau in {1, n}", "not reproduced",
                 "deviation: two values of tau; its effect not measured")
    ledger.claim("[S §3.4.2] Pol rows: degrees d = 2, ..., 10", "d = 2..10",
                 f"d = 2..5 on {', '.join(sorted(d5_sets))}", "not reproduced",
                 "deviation: the full grid costs about 2.5 times as much; choices at the "
                 f"edge d = 5: {d5_edge_text}; its effect not measured")
    ledger.claim("[S §3.4.2] Pol rows: gamma grid at high degrees", "(gamma, tau) tuned",
                 "Gamma_0 as printed at every degree", "not reproduced",
                 "deviation: at d >= 7 the grid regularises nothing (the probe: one CV "
                 f"score for every gamma on {100 * inert_share:.0f}% of the d = 10, tau = n "
                 "records) and many fits fail, so the rows are in effect tuned over the low "
                 "degrees; a rerun with the scaled grid was not made")


def poly_claims(ledger, paper_poly: Mapping, cells: Mapping, probes: Mapping,
                causes: Mapping) -> None:
    """The averages of Pol LS-SVM over the sets at fixed degree (d = 2, 10) and tau
    (1, tuned) against the paper's.

    ``paper_poly``: (degree, tau) -> the paper's average; ``cells``: (method, degree,
    ours_tau) -> {n, mean, se, sets} with ours_tau "1" or "cv"; ``probes``: tau ->
    (printed, scaled), the d = 10 averages on the printed gamma grid (judged: the
    paper's protocol) and on the grid scaled to the kernel (an extra finding), each
    {n, mean, se, sets}; ``causes``: (degree, tau) -> cause of a difference beyond
    2 SE (default "unexplained"). The paper's SE is taken as ours.
    """
    for (degree, tau), value in paper_poly.items():
        ours_tau = "1" if tau == "1" else "cv"
        cell = cells[("Pol LS-SVM", degree, ours_tau)]
        if degree == 10:  # the probe: judged on the printed grid (the paper's protocol)
            probe, extra = probes["1" if tau == "1" else "tuned"]
            if probe["n"] == 0:
                ledger.claim("[S §3.4.2] Pol LS-SVM average, d = 10, tau tuned, gamma "
                             "grid as printed", f"{value:.1f}", "–", "not reproduced",
                             "the fit failed on some set in every split")
                continue
            cause = ("unexplained: the printed gamma grid regularises nothing at this "
                     "kernel scale; "
                     + ("" if tau == "1" else "our tau takes two values (the paper tuned "
                        "it); ")
                     + f"extra finding, not the paper's protocol: the grid scaled to the "
                     f"kernel gives {extra['mean']:.1f} ({extra['se']:.2f}); the stored "
                     "Pol rows of the tables were tuned on the printed, inert grid")
            ledger.compare("[S §3.4.2] Pol LS-SVM average, d = 10, tau "
                           + ("= 1" if tau == "1" else "tuned (ours: 1 or n by CV)")
                           + f", gamma grid as printed ({len(probe['sets'])} vs "
                           "10 sets; paper SE taken as ours)", value, probe["mean"],
                           source_se=probe["se"], ours_se=probe["se"], digits=1,
                           cause=cause)
            continue
        if cell["n"] == 0:
            ledger.claim(f"[S §3.4.2] Pol LS-SVM average, d = {degree}, tau "
                         + ("= 1" if tau == "1" else "tuned"), f"{value:.1f}", "–",
                         "not reproduced", "the fit failed on some set in every split")
            continue
        held = abs(cell["mean"] - value) <= 2 * np.hypot(cell["se"], cell["se"])
        ledger.compare(f"[S §3.4.2] Pol LS-SVM average, d = {degree}, tau "
                       + ("= 1" if tau == "1" else "tuned (ours: 1 or n by CV)")
                       + f" ({len(cell['sets'])} vs 10 sets; paper SE taken as ours)",
                       value, cell["mean"], source_se=cell["se"], ours_se=cell["se"],
                       digits=1,
                       cause=None if held else causes.get((degree, tau), "unexplained"))


# our SVC rows with a linear kernel or MOC coding, and the paper's rows they stand for
SVC_ROWS = {"SVC (SMO, linear)": {"3.3": "Lin SVM", "3.4": "Lin SVM (1vs1)"},
            "SVC (SMO, RBF, MOC)": {"3.4": "RBF SVM (MOC)"},
            "SVC (SMO, linear, MOC)": {"3.4": "Lin SVM (MOC)"}}


def paper_row(row: str, t: str) -> str:
    """The row of the paper's [S Table t] that our ``row`` stands for."""
    from benchmarks import uci
    from benchmarks.paper import PAPER

    name = uci.paper_row(row, t)
    return name if name in PAPER[t] else SVC_ROWS.get(row, {}).get(t, name)


def table_entries(runs: Mapping | None = None, sd_floor: float = 0.05,
                  alpha: float = 0.05) -> pd.DataFrame:
    """Every entry of [S Tables 3.3 and 3.4] that we have, whichever chapter judges
    it, with its distance from the paper's and its Holm threshold.

    The distance is in standard errors of the difference,
    |a_o - a_p| / sqrt(s_p^2 / 10 + s_o^2 / k) (s_p at least ``sd_floor``, half the
    last printed digit); the family of Holm's correction (family-wise level
    ``alpha``) is the source table: every entry of [S Table 3.3] we have forms one,
    every entry of [S Table 3.4] another. ``runs``: ``uci.collect_runs()`` (default).
    Columns: table, row (ours), paper row, set, ours, sd, k, paper, paper sd, diff,
    se, n_se, holm.
    """
    from benchmarks import uci
    from benchmarks.paper import PAPER, PAPER_SETS
    from benchmarks.stats import holm_k_se

    runs = uci.collect_runs() if runs is None else runs
    out = []
    for t in ("3.3", "3.4"):
        sets = [s for s in PAPER_SETS[t] if s not in ("thy", "usp")]
        for row, per_set in runs[t].items():
            for name in sets:
                if name not in per_set or len(per_set[name]) < 2:
                    continue
                a = np.asarray(per_set[name], float)
                p_mean, p_sd = PAPER[t][paper_row(row, t)][name]
                se = np.hypot(max(p_sd, sd_floor) / np.sqrt(10),
                              a.std(ddof=1) / np.sqrt(len(a)))
                out.append({"table": t, "row": row, "paper row": paper_row(row, t),
                            "set": name, "ours": a.mean(), "sd": a.std(ddof=1),
                            "k": len(a), "paper": p_mean, "paper sd": p_sd,
                            "diff": a.mean() - p_mean, "se": se,
                            "n_se": abs(a.mean() - p_mean) / se})
    entries = pd.DataFrame(out)
    entries["holm"] = np.nan
    for t in ("3.3", "3.4"):  # one family per source table
        family = entries["table"] == t
        entries.loc[family, "holm"] = holm_k_se(
            entries.loc[family, "n_se"].to_numpy(), alpha)
    return entries
