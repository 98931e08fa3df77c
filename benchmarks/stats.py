"""The statistics of the UCI benchmark ([S Tables 3.3-3.4]) that the chapters read:
average ranks, the sign test, paired t p-values and significance marks, the Wilcoxon
signed-rank tests of [S §3.4.2], best counts, the paired bootstrap of the splits,
Holm's thresholds, the data controls and the chance count of flagged entries.

The chapters and tests import them from here (``from benchmarks import stats``).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

# --------------------------------------------------------------------------------------
# Statistics of Tables 3.3-3.4
# --------------------------------------------------------------------------------------
def average_ranks(means):
    """Average rank over data sets; ``means``: DataFrame (methods x sets).

    Rank 1 is the highest accuracy on a set; ties share the average of their ranks.
    """
    return means.rank(axis=0, ascending=False, method="average").mean(axis=1)


def sign_test(accuracies, best):
    """P_ST: two-sided sign test of ``accuracies`` against ``best`` over data sets.

    Per-set mean accuracies; ties are dropped, the others are wins or losses; P is
    the two-sided binomial probability, with p = 1/2, of a split at least as uneven
    (the paper's 0.002 for ten losses out of ten: 2 / 2^10).
    """
    diff = np.asarray(accuracies, float) - np.asarray(best, float)
    wins, losses = int(np.sum(diff > 0)), int(np.sum(diff < 0))
    if wins + losses == 0:
        return 1.0
    return float(stats.binomtest(wins, wins + losses, 0.5).pvalue)


def paired_p_value(a, b):
    """Two-sided paired t-test p of per-split accuracies, on their common splits."""
    k = min(len(a), len(b))
    a, b = np.asarray(a[:k], float), np.asarray(b[:k], float)
    if k < 2 or np.allclose(a, b):
        return 1.0
    p = stats.ttest_rel(a, b).pvalue
    return 1.0 if not np.isfinite(p) else float(p)


def significance_marks(per_split):
    """{method: mark} for one data set vs the method with the highest mean.

    ``per_split``: {method: per-split accuracies}. Marks: "best"; "" (not different
    at 5%, paired t-test); "5%" (different at 5%, not at 1%); "1%".
    """
    best = max(per_split, key=lambda m: np.mean(per_split[m]))
    marks = {}
    for method, acc in per_split.items():
        p = paired_p_value(acc, per_split[best])
        if method == best:
            marks[method] = "best"
        else:
            marks[method] = "" if p >= 0.05 else "5%" if p >= 0.01 else "1%"
    return marks


def summary(means):
    """AA, AR and P_ST (vs the highest AA) per method; ``means``: methods x sets."""
    import pandas as pd

    aa = means.mean(axis=1)
    best = aa.idxmax()
    return pd.DataFrame(
        {
            "AA": aa,
            "AR": average_ranks(means),
            "P_ST": [sign_test(means.loc[m], means.loc[best]) for m in means.index],
        }
    )


# The Wilcoxon signed-rank tests of section 3.4.2: each row against the row with the
# highest AA, over the data sets, on the per-set mean accuracies (the "AA" test) and on
# the per-set ranks (the "AR" test). Zero differences (a row tied with the best one on a
# set) are dropped, as in Wilcoxon's test (scipy's zero_method="wilcox"); tied absolute
# differences share their mean rank. With at most 13 non-zero differences the p-value is
# exact: scipy's exact null distribution without ties, else the enumeration of all 2^n
# sign patterns (a permutation test with every pattern, deterministic).
WILCOXON_ZERO_METHOD = "wilcox"


def wilcoxon_min_p(n):
    """The smallest two-sided p a Wilcoxon (or sign) test can give on n non-zero
    differences: all n of one sign, 2 / 2^n (0.0020 for 10, 0.0039 for 9, 0.0078 for 8)."""
    return 2.0 / 2**n


def wilcoxon_p(a, b, zero_method=WILCOXON_ZERO_METHOD):
    """(p, n): two-sided Wilcoxon signed-rank test of the paired values a - b.

    ``n`` is the number of non-zero differences (differences are rounded to 1e-9 first,
    so that float noise is not a difference); p is NaN when every difference is zero.
    """
    d = np.round(np.asarray(a, float) - np.asarray(b, float), 9)
    n = int(np.count_nonzero(d))
    if n == 0:
        return float("nan"), 0
    if zero_method == "wilcox":
        d = d[d != 0]
    method = "auto" if len(d) <= 13 else "asymptotic"
    p = stats.wilcoxon(d, zero_method=zero_method, method=method).pvalue
    return float(min(p, 1.0)), n


def wilcoxon_vs_best(means, zero_method=WILCOXON_ZERO_METHOD):
    """Wilcoxon tests of every row of ``means`` (methods x sets) against the highest AA.

    Columns: ``p_AA``, ``n_AA`` (on the per-set means), ``p_AR``, ``n_AR`` (on the
    per-set ranks among the rows of ``means``: rank 1 the best, ties share the mean
    rank); ``n``: non-zero differences. The best row itself gets NaN and 0.
    """
    import pandas as pd

    best = means.mean(axis=1).idxmax()
    ranks = means.rank(axis=0, ascending=False, method="average")
    out = {}
    for method in means.index:
        p_aa, n_aa = wilcoxon_p(means.loc[method], means.loc[best], zero_method)
        p_ar, n_ar = wilcoxon_p(ranks.loc[method], ranks.loc[best], zero_method)
        out[method] = {"p_AA": p_aa, "n_AA": n_aa, "p_AR": p_ar, "n_AR": n_ar}
    return pd.DataFrame(out).T.loc[means.index]


def best_counts(per_split_by_set):
    """Per method: on how many sets it is the best, and on how many others it is not
    significantly worse than the best.

    ``per_split_by_set``: {set: {method: per-split accuracies}}. The marks are those of
    :func:`significance_marks` (two-sided paired t-test over the common splits against
    the row with the highest mean); rows tied with the highest mean all count as best.
    Columns: ``best``, ``not worse`` (not different at 5%), ``worse 5%`` (different at
    5%, not at 1%), ``worse 1%``, ``sets`` (sets the method was run on).
    """
    import pandas as pd

    labels = {"": "not worse", "5%": "worse 5%", "1%": "worse 1%"}
    methods = list(dict.fromkeys(m for d in per_split_by_set.values() for m in d))
    out = {m: {"best": 0, **{v: 0 for v in labels.values()}, "sets": 0} for m in methods}
    for per_split in per_split_by_set.values():
        marks = significance_marks(per_split)
        top = max(float(np.mean(a)) for a in per_split.values())
        for method, mark in marks.items():
            tied = np.isclose(float(np.mean(per_split[method])), top, rtol=0, atol=1e-9)
            out[method]["best" if mark == "best" or tied else labels[mark]] += 1
            out[method]["sets"] += 1
    return pd.DataFrame(out).T.loc[methods].astype(int)


def bootstrap_summary(per_split_by_set, rows, n_boot=2000, seed=0):
    """Paired bootstrap over the splits: replicates of the AA and AR of ``rows``.

    ``per_split_by_set``: {set: {row: per-split accuracies}}, every row on every set.
    Each replicate redraws, per set, that set's splits with replacement: the same
    draws for every row with the set's full count of splits (identical splits, so the
    rows stay paired), separate draws for a row with fewer. Returns ``(aa, ar, means)``:
    arrays (n_boot, rows) of AA and of AR (rank 1 the best per set, ties sharing the
    mean rank, among ``rows``), and (n_boot, rows, sets) of the per-set means.
    """
    rng = np.random.default_rng(seed)
    sets = list(per_split_by_set)
    means = np.empty((n_boot, len(rows), len(sets)))
    for j, name in enumerate(sets):
        accs = [np.asarray(per_split_by_set[name][r], float) for r in rows]
        k_max = max(len(a) for a in accs)
        shared = rng.integers(0, k_max, size=(n_boot, k_max))
        for i, a in enumerate(accs):
            if len(a) == k_max:
                index = shared
            else:
                index = rng.integers(0, len(a), size=(n_boot, len(a)))
            means[:, i, j] = a[index].mean(axis=1)
    ranks = stats.rankdata(-means, axis=1, method="average")
    return means.mean(axis=2), ranks.mean(axis=2), means


def order_share(values, i, j, higher=True):
    """Share of bootstrap replicates (rows of ``values``) in which column i beats
    column j: higher if ``higher`` (AA), lower otherwise (AR); ties count half."""
    a, b = values[:, i], values[:, j]
    wins = (a > b) if higher else (a < b)
    return float(np.mean(wins + 0.5 * (a == b)))


def holm_k_se(n_se, alpha=0.05):
    """Holm's step-down thresholds, in standard errors, one per entry.

    Entry i has z_i = |ours - paper| / SE and the two-sided normal p_i = 2(1 - Phi(z_i)).
    Sorted by p, the entry of rank j = 1..m is rejected when p_(i) <= alpha / (m - i + 1)
    for every i <= j, i.e. z_(i) > Phi^-1(1 - alpha / (2 (m - i + 1))). Each entry gets
    the threshold of its rank up to the first rank not rejected; from there on every
    entry gets that rank's threshold, which it does not exceed (so none is rejected).
    ``|z_i| > k_i`` then flags exactly Holm's rejections at family-wise level alpha.
    """
    z = np.asarray(n_se, dtype=float)
    if z.ndim != 1 or np.isnan(z).any():
        raise ValueError(f"n_se must be a 1-d array without NaN; got {z!r}.")
    m = len(z)
    k = np.empty(m)
    stop = None
    for j, i in enumerate(np.argsort(-z, kind="stable")):
        threshold = float(stats.norm.isf(alpha / (2 * (m - j))))
        if stop is None and z[i] <= threshold:
            stop = threshold  # the first rank Holm does not reject
        k[i] = threshold if stop is None else stop
    return k


UNTUNED_ROWS = ("LDA", "QDA", "Logit", "NB_k", "NB_n", "IB1", "oneR")


def data_controls(entries, min_rows=4, own_cause=()):
    """Sets whose data or preprocessing differ from the paper's, by the untuned rows.

    ``entries``: rows with "set", "row" (the paper's row name), "diff" (ours - paper,
    points), "n_se" and "limit" (the 2-SE threshold). The untuned reference rows
    (:data:`UNTUNED_ROWS`) see only the data, the split and their own fixed
    implementation. Leaving out the (row, set) pairs in ``own_cause`` (a gap with its
    own measured cause), a set where at least ``min_rows`` of them lie beyond their
    limit is returned as {set: (n beyond, n counted, lowest gap, highest gap)}.
    """
    out = {}
    own_cause = set(own_cause)
    for name in dict.fromkeys(e["set"] for e in entries):
        rows = [e for e in entries if e["set"] == name and e["row"] in UNTUNED_ROWS
                and (e["row"], name) not in own_cause]  # fmt: skip
        n_out = sum(e["n_se"] > e["limit"] for e in rows)
        if n_out >= min_rows:
            gaps = [e["diff"] for e in rows]
            out[name] = (int(n_out), len(rows), float(min(gaps)), float(max(gaps)))
    return out


def within_controls(gap, se, span):
    """Whether a gap lies within the untuned rows' span (lo, hi), widened by 2 SE."""
    lo, hi = span
    return lo - 2 * se <= gap <= hi + 2 * se


def chance_flags(m, k_se=2.0):
    """Expected number of m entries beyond k_se SE under exact reproduction (normal)."""
    return float(m * 2 * stats.norm.sf(k_se))


ORDER_LEVEL = 0.975  # an order is resolved when it holds in 97.5% of the replicates


def best_rows(means):
    """{set: [rows with the highest mean on that set]} (several when tied)."""
    return {s: list(means.index[means[s] == means[s].max()]) for s in means.columns}
