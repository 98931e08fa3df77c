"""The full UCI benchmark of Tables 3.3 and 3.4 (Suykens et al., 2002, section 3.4.2).

Protocol, as ``table_3_3_fisher.py`` and ``table_3_4.py``: for each data set and each
randomization r = 0..n_rand-1 (:func:`lssvm.model_selection.protocol.randomized_splits`: stratified
2/3-1/3 splits, seed ``--seed``), standardise the inputs on the training part, tune on
the training part by 10-fold CV, refit there and score on the test part. Rows:

- linear and polynomial LS-SVM and LS-SVM_F (``LSSVMClassifierCV(search="shrinking")``;
  the linear kernel tunes gamma on a shrinking 1-D grid; the polynomial kernel does
  that for each (degree, tau) of :data:`POLY_GRID`, d = 2..10 as in the paper, tau in
  {1, n} where the paper tuned tau, and keeps the best CV score; every split also
  records each pair's CV score and the test accuracy of its own refit, which
  :func:`poly_degree_summary` reads). Multiclass sets with MOC and 1vs1 codes,
  each bit tuned on its own binary problem.
- scikit-learn stand-ins for the paper's reference methods (``reference.py``; see
  :func:`reference.make_reference` for what each one is and how it differs from the
  paper's Weka / Matlab tools).

The RBF LS-SVM and LS-SVM_F rows are not recomputed: :func:`collect_runs` reads
them from ``table_3_3_fisher.json`` and ``table_3_4.json`` (same protocol, same
seeds; in the latter the variants ``moc``, ``ovo``, ``moc-fisher``, ``ovo-fisher``).
Those files have no adu, so the runner does run RBF LS-SVM and LS-SVM_F on adu (as
below).

adu (45222 points, :func:`lssvm.datasets.load_adult_uci`) has the paper's split
sizes instead (:func:`adu_splits`): stratified random 33000 training / 12222 test
points (:data:`ADU_SPLIT`, [S Table 3.1]), drawn in sequence by one
StratifiedShuffleSplit with seed ``--seed``; inputs standardised on the 33000
training points. Methods outside :data:`SUBSAMPLED` are tuned (CART) and fitted on
all 33000. Methods in :data:`SUBSAMPLED` choose their hyper-parameters by their
10-fold CV on a stratified :data:`ADU_SUBSAMPLE`-point subsample of the training part
(seed r), then are fitted with them on all 33000 points (:func:`run_adu_subsampled`):
SVC by libsvm; the LS-SVMs by ``LSSVMClassifier`` with the tuned (gamma, sigma2) or
(gamma, degree, tau) and the same targets, with :data:`ADU_SOLVER` (matrix-free CG,
Nystrom-preconditioned, relative residual 1e-6; each split records the iterations,
convergence and the relative residual of the KKT system). NB_k
(:data:`ADU_FIT_ON_SUBSAMPLE`) is fitted on the subsample itself (its prediction cost
grows as N_train x N_test). Every method is scored on the 12222 test points.

Results, with every split's accuracy and tuned hyper-parameters, go to
``benchmarks/results/uci.json``; a run resumes where the file stops (per data set,
method and split), and every pass appends its provenance (command, date, commit,
versions, BLAS threads, wall time; ``_common.stamp``) to the file's "provenance"
list. The committed file's split counts come from these passes, with one BLAS
thread (``make reproduce`` runs them in this order, after ``table_3_3_fisher.py``
and ``table_3_4.py``, whose RBF rows this file reuses)::

    export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
    .venv/bin/python benchmarks/uci.py --n-rand 10 --methods reference
    .venv/bin/python benchmarks/uci.py --n-rand 10 --methods lssvm \
        --sets acr bld gcr hea ion pid snr ttt wbc bal cmc ims iri led veh wav win
    .venv/bin/python benchmarks/uci.py --sets adu --n-rand 10 \
        --methods "Lin LS-SVM" "Lin LS-SVM_F"
    .venv/bin/python benchmarks/uci.py --sets adu --n-rand 3 \
        --methods "RBF LS-SVM_F" "Pol LS-SVM"
    .venv/bin/python benchmarks/uci.py --sets adu --n-rand 6 --methods "RBF LS-SVM"

(The committed LS-SVM rows of ims, led and wav were made in two passes, first
``--n-rand 5``, then ``--n-rand 10``, which resumed each entry at split 6: the
first 5 splits of a seed are the same whichever number is drawn, so the accuracies
are those the single pass above gives. The first 3 splits of adu's RBF LS-SVM,
RBF LS-SVM_F and Pol LS-SVM ran with the package's 500 Nystrom landmarks, the
others with :data:`ADU_NYSTROM_RANK`: the same solutions to the CG tolerance.) That
is about 121 minutes of fitting on one core (the sum of the stored ``seconds``;
before adu was rerun on its 33000 / 12222 splits): every reference method with 10
randomizations on all 18 sets, the LS-SVMs with 10 on 17 sets. adu's entries,
rerun on those splits, take about 35 minutes more: the references with 10 splits,
Lin LS-SVM and LS-SVM_F with 10, RBF LS-SVM with 6, RBF LS-SVM_F and Pol LS-SVM
with 3, Pol LS-SVM_F none (split 0 ran over 4.5 minutes before it was stopped, in
the final fit at N = 33000; a stack sample found it in numpy's slow ``power`` path,
which negative bases x^T z + tau take: 123 against 4.8 ns per cubed value).

The SVC rows "SVC (SMO, linear)" (every set; the paper's "Lin SVM" and "Lin SVM
(1vs1)") and "SVC (SMO, RBF, MOC)" / "SVC (SMO, linear, MOC)" (multiclass sets; one
tuned SVC per bit of the LS-SVMs' MOC code, :class:`CodedBinaryClassifier`) belong
to the ``reference`` group, so the first command above makes them too. The committed
ones came from a later pass, one set per command, adu left to the adu pass::

    .venv/bin/python benchmarks/uci.py --n-rand 10 --methods "SVC (SMO, linear)" \
        "SVC (SMO, RBF, MOC)" "SVC (SMO, linear, MOC)" --sets <one of acr bld gcr hea
        ion pid snr ttt wbc bal cmc ims iri veh wav win>
    .venv/bin/python benchmarks/uci.py --n-rand 10 --sets led \
        --methods "SVC (SMO, linear)"
    .venv/bin/python benchmarks/uci.py --n-rand 8 --sets led \
        --methods "SVC (SMO, RBF, MOC)" "SVC (SMO, linear, MOC)"

(led's MOC rows stop at 8 randomizations, made in passes of 3, 5 and 8: about 60 s
of fitting per split for the two, the rest was beyond this pass's time.)

Polynomial rows, d = 2..10: the Pol LS-SVM and Pol LS-SVM_F rows of the
nine binary sets and of bal, cmc, iri, veh, win were recomputed with the grid
d = 2..10 and the per-pair record, one set per command (``--redo`` drops the stored
d = 2..5 entries first; leave it out to resume an interrupted set)::

    for s in hea snr bld ion wbc acr pid ttt gcr iri win bal veh cmc; do
      .venv/bin/python benchmarks/uci.py --sets $s --n-rand 10 --redo \
          --methods "Pol LS-SVM" "Pol LS-SVM_F"
    done

The Pol rows of ims, led, wav (and adu) in the committed file are still those of the
d = 2..5 grid, without "pairs" (d = 2..10 costs about 2.5 times as much; not run);
the third pass above, run on a fresh file, would give them the d = 2..10 grid. The
polynomial headline's pairs that the closed-form CV refuses (d = 10) come from a
probe with a general LU solver, ``results/uci_poly_lu.json`` (:func:`poly_lu_split`,
:func:`poly_lu_headline`)::

    for s in hea snr bld ion wbc acr pid ttt gcr; do
      .venv/bin/python benchmarks/uci.py --poly-lu --sets $s --n-rand 10
    done

At d = 10 the paper's gamma grid Gamma_0 regularises nothing (the kernel's entries are
1e9 and more); ``uci_poly_scaled.py`` repeats that probe at d = 2, 8, 9, 10 with the
grid as printed and divided by the median diagonal of the training kernel
(``poly_lu_split(..., scaled=True)``), into ``results/uci_poly_scaled.json``; the
chapter reads the d = 10 headline from there.

Options: ``--sets iri hea`` (default: every set), ``--methods`` (names, or the groups
``reference`` and ``lssvm``), ``--n-rand``, ``--seed``, ``--out``, ``--redo``,
``--poly-lu``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold, StratifiedShuffleSplit
from sklearn.preprocessing import StandardScaler

from lssvm import LSSVMClassifierCV
from lssvm.datasets import (
    BINARY_SETS,
    MULTICLASS_SETS,
    load_adult_uci,
    load_binary,
    load_multiclass,
)
from lssvm.model_selection.protocol import randomized_splits
from lssvm.linalg import solvers
from lssvm.linalg.solvers import NotPositiveDefiniteError

from benchmarks import _common, reference
from benchmarks._common import progress, save_json

RESULTS = Path(__file__).parent / "results"
OUT = RESULTS / "uci.json"
# adu, [S Table 3.1]: N_CV = 33000 training and N_test = 12222 test points (of 45222).
ADU_SPLIT = (33000, 12222)
# Tuning subsample of the SUBSAMPLED methods on adu (stratified, seed r).
ADU_SUBSAMPLE = 2000
# Final LS-SVM fit on all ADU_SPLIT[0] points: the package's matrix-free CG (Nystrom-
# preconditioned), never an N x N matrix (8.7 GB at N = 33000), to a relative residual
# of 1e-6 (RBF, split 0: 27 iterations against 43 at 1e-10, the same predictions on all
# 12222 test points, support values within 2e-7 relative).
ADU_SOLVER = {"solver": "cg", "tol": 1e-6, "n_jobs": 1}
# Landmarks of CG's Nystrom preconditioner in those fits (the package's default is 500,
# lssvm.linalg.solvers.NYSTROM_MAX_RANK): the cubic kernel on 14 inputs has rank up to
# C(17, 3) = 680, and with 500 landmarks CG took 82 iterations on split 2 of Pol LS-SVM.
ADU_NYSTROM_RANK = 1000
# Polynomial kernel (x^T z + tau)^d on standardised inputs: every degree of the paper's
# d = 2..10 with tau = 1 and tau = n (the latter is the kernel of x / sqrt(n) up to a
# factor n^d that gamma absorbs). Every split of a Pol row records each pair's CV score
# and the test accuracy of its own refit ("pairs"); the choice is the best CV score.
POLY_GRID = tuple((d, t) for d in range(2, 11) for t in ("1", "n"))
# A (degree, tau) pair whose search fails (at d >= 7 the kernel reaches 1e17 and the
# closed-form CV blocks of the larger gammas are not numerically positive definite)
# is searched once more from these initial gammas only (its record says
# "gamma_grid": "reduced"; with such a kernel 1/gamma <= 100 is a negligible ridge);
# if that fails too, the pair is skipped.
POLY_REDUCED_GAMMAS = (0.01, 0.05, 0.1)
POLY_SMALL = 5  # the earlier grid's largest degree (d = 2..5), for poly_degree_summary
# The largest degree fit_lssvm searches (the command line's --poly-max-degree): the
# committed Pol rows of ims, led, wav and adu were made with d = 2..POLY_SMALL.
poly_max_degree = POLY_GRID[-1][0]
BINARY = (*BINARY_SETS, "adu")
MULTICLASS = MULTICLASS_SETS


# --------------------------------------------------------------------------------------
# Methods: our row name -> the paper's row it stands for.
# --------------------------------------------------------------------------------------
LSSVM_METHODS = {  # name -> (kernel, targets)
    "Lin LS-SVM": ("linear", "pm1"),
    "Lin LS-SVM_F": ("linear", "fisher"),
    "Pol LS-SVM": ("poly", "pm1"),
    "Pol LS-SVM_F": ("poly", "fisher"),
    # RBF rows: reused from table_3_3_fisher.json / table_3_4.json, run here on adu only
    "RBF LS-SVM": ("rbf", "pm1"),
    "RBF LS-SVM_F": ("rbf", "fisher"),
}
CODINGS = {"MOC": "moc", "1vs1": "ovo"}
REFERENCE_METHODS = (
    "SVC (SMO, RBF)", "LDA", "QDA (reg. 0.01)", "Logit", "CART-entropy (C4.5 stand-in)",
    "oneR", "IB1 (1-NN)", "IB10 (10-NN)", "NB_k (KDE)", "NB_n (Gaussian)", "Maj. Rule",
    "SVC (SMO, linear)", "SVC (SMO, RBF, MOC)", "SVC (SMO, linear, MOC)",
)  # fmt: skip
PAPER_ROW = {
    "SVC (SMO, RBF)": "RBF SVM", "QDA (reg. 0.01)": "QDA",
    "CART-entropy (C4.5 stand-in)": "C4.5", "IB1 (1-NN)": "IB1",
    "IB10 (10-NN)": "IB10", "NB_k (KDE)": "NB_k", "NB_n (Gaussian)": "NB_n",
    "SVC (SMO, linear)": "Lin SVM", "SVC (SMO, RBF, MOC)": "RBF SVM (MOC)",
    "SVC (SMO, linear, MOC)": "Lin SVM (MOC)",
}  # fmt: skip
# Methods tuned on adu on an ADU_SUBSAMPLE-point subsample of the training part, then
# fitted with the chosen hyper-parameters on all of it (:func:`run_adu_subsampled`).
SUBSAMPLED = {
    "SVC (SMO, RBF)", "SVC (SMO, linear)", "SVC (SMO, linear, MOC)", "NB_k (KDE)",
    *LSSVM_METHODS,
}  # fmt: skip
# ... except these, fitted on the subsample too: NB_k predicts with N_train x N_test x n
# kernel values (at N_train = 33000 one split ran over 165 s before it was stopped).
ADU_FIT_ON_SUBSAMPLE = {"NB_k (KDE)"}
# Rows reused from the earlier reproductions: (file, variant) -> (table, row).
REUSED = {
    ("table_3_3_fisher.json", "pm1"): ("3.3", "RBF LS-SVM"),
    ("table_3_3_fisher.json", "fisher"): ("3.3", "RBF LS-SVM_F"),
    ("table_3_4.json", "moc"): ("3.4", "RBF LS-SVM (MOC)"),
    ("table_3_4.json", "ovo"): ("3.4", "RBF LS-SVM (1vs1)"),
    ("table_3_4.json", "moc-fisher"): ("3.4", "RBF LS-SVM_F (MOC)"),
    ("table_3_4.json", "ovo-fisher"): ("3.4", "RBF LS-SVM_F (1vs1)"),
}


# Rows of the paper not run on a set, with the measured reason (the chapter prints it).
NOT_RUN = {
    ("adu", "SVC (SMO, linear)"): (
        "the linear SVC does not converge on the 33,000 training points at the C the "
        "subsample picks on 3 of 10 splits (C = 100): libsvm stopped at the 1e5-iteration "
        "cap with 35.6%, 54.9% and 63.1% test accuracy, uncapped one fit ran over 4 "
        "minutes without finishing, and liblinear's hinge-loss solver also stopped at its "
        "1e5-iteration cap (81.0% on split 2); a converged fit was not run"
    ),
}


def methods_for(name):
    """Row names run on data set ``name`` (multiclass LS-SVMs carry their coding)."""
    lssvm = [m for m in LSSVM_METHODS if name == "adu" or not m.startswith("RBF")]
    if name in MULTICLASS:
        lssvm = [f"{m} ({c})" for c in CODINGS for m in lssvm]
    multiclass = name in MULTICLASS
    others = [m for m in REFERENCE_METHODS
              if multiclass or m not in reference.MOC_SVMS]
    return [m for m in lssvm + others if (name, m) not in NOT_RUN]


def paper_row(method, table):
    """The paper's row that our row ``method`` reproduces in ``table``."""
    row = PAPER_ROW.get(method, method)
    if table == "3.4" and row in ("RBF SVM", "Lin SVM"):
        return f"{row} (1vs1)"  # scikit-learn's SVC is one-versus-one
    return row


# --------------------------------------------------------------------------------------
# One split
# --------------------------------------------------------------------------------------
def load(name):
    """(X, y) of a data set of Table 3.1 or 3.2."""
    if name == "adu":
        return load_adult_uci()
    return load_multiclass(name) if name in MULTICLASS else load_binary(name)


def _lssvm_parts(method):
    base, _, coding = method.partition(" (")
    kernel, targets = LSSVM_METHODS[base]
    return kernel, targets, CODINGS[coding.rstrip(")")] if coding else "ovo"


def _pair_test_accuracy(model, test):
    """Test accuracy of one (degree, tau) pair's tuned refit (None if it fails)."""
    if test is None:
        return None
    try:
        accuracy = float(np.mean(model.predict(test[0]) == test[1]))
    except (NotPositiveDefiniteError, np.linalg.LinAlgError, ValueError):
        return None
    return accuracy


def fit_lssvm(method, X, y, test=None):
    """Tuned LS-SVM of row ``method`` on standardised (X, y): (model, params).

    Linear kernel: gamma by the shrinking grid. Polynomial: the same for each
    (degree, tau) of :data:`POLY_GRID`; the best mean CV score (for several classes:
    the mean over bits of each bit's best) wins, one (degree, tau) for all bits.
    ``params["pairs"]`` then lists every pair's CV score and, when ``test`` =
    (X_test, y_test) is given, the test accuracy of that pair's own tuned refit:
    a record for :func:`poly_degree_summary`, never used in the choice.
    """
    kernel, targets, coding = _lssvm_parts(method)
    grid = [(1, "0")]
    if kernel == "poly":
        grid = [pair for pair in POLY_GRID if pair[0] <= poly_max_degree]
    best, skipped, pairs = None, [], []
    for degree, tau_name in grid:
        tau = float(X.shape[1]) if tau_name == "n" else float(tau_name)
        pair = {"degree": degree, "tau": tau_name, "cv_score": None,
                "test_accuracy": None, "skipped": False}  # fmt: skip
        pairs.append(pair)
        model = None
        for gammas in (None, POLY_REDUCED_GAMMAS) if kernel == "poly" else (None,):
            try:
                model = LSSVMClassifierCV(
                    kernel=kernel, degree=degree, tau=tau, targets=targets,
                    coding=coding, search="shrinking", gamma=gammas,
                ).fit(X, y)  # fmt: skip
            except (NotPositiveDefiniteError, np.linalg.LinAlgError):
                # (x^T z + n)^5 reaches 1e10 and more: at large gamma the CV blocks
                # lose definiteness; retry once on the smallest gammas
                continue
            if gammas is not None:
                pair["gamma_grid"] = "reduced"
            break
        if model is None:
            skipped.append([degree, tau_name])
            pair["skipped"] = True
            continue
        pair["cv_score"] = float(model.best_score_)
        pair["test_accuracy"] = _pair_test_accuracy(model, test)
        if best is None or model.best_score_ > best.best_score_:
            best = model
    if best is None:
        raise NotPositiveDefiniteError(f"{method}: every (degree, tau) failed.")
    params = dict(best.best_params_)
    if kernel == "poly":
        params.update(degree=best.degree, tau=best.tau, skipped=skipped, pairs=pairs)
    return best, params


def _subsample_positions(y_train, r):
    """Sorted positions of a stratified ADU_SUBSAMPLE-point subsample (seed r)."""
    splitter = StratifiedShuffleSplit(1, train_size=ADU_SUBSAMPLE, random_state=r)
    return np.sort(next(splitter.split(np.zeros((len(y_train), 1)), y_train))[0])


def adu_splits(y, n_rand, seed=0):
    """adu's splits: ``n_rand`` stratified ADU_SPLIT = (33000, 12222) pairs (seed).

    One StratifiedShuffleSplit draws them in sequence, as
    :func:`lssvm.model_selection.protocol.randomized_splits` does for the other sets, so the first
    k splits are the same whatever ``n_rand``: a run resumes split by split.
    """
    n_train, n_test = ADU_SPLIT
    splitter = StratifiedShuffleSplit(
        n_rand, train_size=n_train, test_size=n_test, random_state=seed
    )
    return list(splitter.split(np.zeros((len(y), 1)), y))


def splits_for(name, y, n_rand, seed=0):
    """The (train, test) pairs of data set ``name``: adu's own, else 2/3-1/3."""
    if name == "adu":
        return adu_splits(y, n_rand, seed)
    return randomized_splits(y, n_rand, random_state=seed)


def _kkt_residual(model, X, y):
    """Relative residual of a binary LS-SVM's KKT system [S 3.24] at its solution.

    ||[1^T beta; (K + I/gamma) beta + b 1 - t]|| / ||t||, t the targets (+-1 or
    Fisher's), beta = ``dual_coef_``: one kernel product (KernelOperator, no N x N).
    """
    from lssvm import multiclass as mc
    from lssvm.linalg.operators import KernelOperator

    index = np.searchsorted(model.classes_, y)
    t = mc.bit_targets(mc.encode(index, model.codebook_).astype(float), model.targets)
    t = t[:, 0]
    beta, b, gamma = model.dual_coef_, model.b_, model.gammas_[0]
    H = KernelOperator(model.kernel_, X, shift=1.0 / gamma, n_jobs=1)
    r = np.r_[beta.sum(), H(beta[:, None])[:, 0] + b - t]
    return float(np.linalg.norm(r) / np.linalg.norm(t))


def run_adu_subsampled(method, X, y, split, r):
    """adu, a method of :data:`SUBSAMPLED`: tune on a subsample, fit on all.

    Inputs standardised on the whole training part. Hyper-parameters chosen on the
    stratified ADU_SUBSAMPLE-point subsample (seed r) of it, by the method's own
    10-fold CV (GridSearchCV for a reference method, the closed-form CV of
    :func:`fit_lssvm` for an LS-SVM); then the model with those hyper-parameters is
    fitted on all ADU_SPLIT[0] training points (an LS-SVM by ADU_SOLVER: CG) and
    scored on the test part. A method of :data:`ADU_FIT_ON_SUBSAMPLE` (NB_k) is
    fitted on the subsample itself.
    """
    train, test = split
    rows = train
    t0 = time.perf_counter()
    scaler = StandardScaler().fit(X[train])
    Xtr, Xte, ytr = scaler.transform(X[train]), scaler.transform(X[test]), y[train]
    keep = _subsample_positions(ytr, r)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method in REFERENCE_METHODS:
            model = reference.make_reference(method, X.shape[1])
            params, n_tune, rows = {}, 0, np.arange(len(ytr))
            if method in ADU_FIT_ON_SUBSAMPLE:
                rows = keep
            elif isinstance(model, GridSearchCV):
                n_tune = len(keep)
                model.fit(Xtr[keep], ytr[keep])
                params = dict(model.best_params_)
                model = clone(model.estimator).set_params(**model.best_params_)
            t1 = time.perf_counter()
            model.fit(Xtr[rows], ytr[rows])
        else:
            tuned, params = fit_lssvm(method, Xtr[keep], ytr[keep])
            n_tune = len(keep)
            t1 = time.perf_counter()
            model = clone(tuned.best_estimator_).set_params(**ADU_SOLVER)
            warnings.simplefilter("always", ConvergenceWarning)
            default_rank = solvers.NYSTROM_MAX_RANK
            solvers.NYSTROM_MAX_RANK = ADU_NYSTROM_RANK
            try:
                with warnings.catch_warnings(record=True) as caught:
                    model.fit(Xtr, ytr)
                params["nystrom_rank"] = solvers.preconditioner_rank(len(ytr))
            finally:
                solvers.NYSTROM_MAX_RANK = default_rank
            converged = not any(
                issubclass(w.category, ConvergenceWarning) for w in caught
            )
            params.update(
                ADU_SOLVER, n_iter=int(model.n_iter_), converged=converged
            )
        t2 = time.perf_counter()
        accuracy = float(np.mean(model.predict(Xte) == y[test]))
        t3 = time.perf_counter()
        if method not in REFERENCE_METHODS:
            params["kkt_residual"] = _kkt_residual(model, Xtr, ytr)
    params.update(
        n_tune=int(n_tune),
        seconds_tune=t1 - t0, seconds_fit=t2 - t1, seconds_predict=t3 - t2,
    )  # fmt: skip
    return {
        "accuracy": accuracy,
        "params": params,
        "seconds": t3 - t0,
        "n_train": int(len(rows)),
    }


def run_split(name, method, X, y, split, r):
    """{"accuracy", "params", "seconds"[, "n_train"]} of one method on one split."""
    if name == "adu" and method in SUBSAMPLED:
        return run_adu_subsampled(method, X, y, split, r)
    train, test = split
    t0 = time.perf_counter()
    scaler = StandardScaler().fit(X[train])
    Xtr, Xte = scaler.transform(X[train]), scaler.transform(X[test])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method in reference.SVC_KERNEL and method != "SVC (SMO, RBF)":
            model, params = reference.fit_svm(method, Xtr, y[train])
        elif method in REFERENCE_METHODS:
            model = reference.make_reference(method, X.shape[1]).fit(Xtr, y[train])
            params = getattr(model, "best_params_", {})
        else:
            model, params = fit_lssvm(method, Xtr, y[train], test=(Xte, y[test]))
        accuracy = float(np.mean(model.predict(Xte) == y[test]))
    return {
        "accuracy": accuracy,
        "params": params,
        "seconds": time.perf_counter() - t0,
        "n_train": int(len(train)),
    }


# --------------------------------------------------------------------------------------
# Results file: resumable per (data set, method, split)
# --------------------------------------------------------------------------------------
def pending_splits(runs, name, method, n_rand):
    """Indices r < n_rand not yet in ``runs`` (splits are recorded in order)."""
    done = len(runs.get(name, {}).get(method, {}).get("accuracies", []))
    return list(range(done, n_rand))


def record_split(runs, name, method, row):
    """Append one split's row to ``runs[name][method]`` (lists per field)."""
    entry = runs.setdefault(name, {}).setdefault(
        method, {"accuracies": [], "params": [], "seconds": [], "n_train": []}
    )
    entry["accuracies"].append(row["accuracy"])
    entry["params"].append(row["params"])
    entry["seconds"].append(row["seconds"])
    entry["n_train"].append(row["n_train"])


def split_counts(runs):
    """The count of splits per set and method (stored as ``n_splits``)."""
    return {name: {method: len(entry["accuracies"]) for method, entry in methods.items()}
            for name, methods in runs.items()}


def open_results(path, seed):
    """The results of ``uci.json`` (or a new dict), protocol refreshed; refuses a file
    run with another seed (:func:`_common.open_results` with this runner's protocol)."""
    results, _ = _common.open_results(
        path, seed, adu_subsample=ADU_SUBSAMPLE, poly_grid=POLY_GRID, adu_split=ADU_SPLIT,
        adu_solver=ADU_SOLVER, adu_nystrom_rank=ADU_NYSTROM_RANK)
    return results


def save_results(path, results):
    """Write ``results`` with the count of splits per set and method
    (:func:`_common.save_json`)."""
    results["n_splits"] = split_counts(results.get("runs", {}))
    return save_json(path, results)


def collect_runs(results_dir=RESULTS):
    """{"3.3"/"3.4": {row: {set: per-split accuracies in %}}}, all files merged."""
    out = {"3.3": {}, "3.4": {}}
    for (file, variant), (table, row) in REUSED.items():
        path = Path(results_dir) / file
        if not path.exists():
            continue
        for name, variants in json.loads(path.read_text())["runs"].items():
            if variant in variants:
                acc = 100 * np.asarray(variants[variant]["accuracies"])
                out[table].setdefault(row, {})[name] = acc
    path = Path(results_dir) / "uci.json"
    if path.exists():
        for name, methods in json.loads(path.read_text())["runs"].items():
            table = "3.4" if name in MULTICLASS else "3.3"
            for method, entry in methods.items():
                acc = 100 * np.asarray(entry["accuracies"])
                out[table].setdefault(method, {})[name] = acc
    return out


def _pair(params, degree, tau):
    """The record of (degree, tau) in one split's ``params["pairs"]`` (or None)."""
    for pair in params.get("pairs", []):
        if pair["degree"] == degree and pair["tau"] == tau:
            return pair
    return None


def _best_pair(pairs):
    """The pair the runner chooses: the highest CV score, the first of ties."""
    best = None
    for pair in pairs:
        if pair["skipped"] or pair["cv_score"] is None:
            continue
        if best is None or pair["cv_score"] > best["cv_score"]:
            best = pair
    return best


def _mean_se(values):
    values = np.asarray(values, float)
    n = len(values)
    se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {"mean": float(values.mean()) if n else float("nan"), "se": se, "n": n}


def poly_degree_summary(results, sets=BINARY_SETS, small=POLY_SMALL,
                        headline_degrees=(2, 10)):  # fmt: skip
    """Degrees above ``small`` and the paper's polynomial headline, from ``pairs``.

    ``results``: the dict of ``uci.json`` (its "runs"); only Pol splits that carry
    ``params["pairs"]`` count. Returns

    - ``"degrees"``: {(set, method): {"n", "above" (splits whose CV-chosen degree is
      > ``small``), "changed" (splits whose test accuracy differs from that of the
      best-CV pair with degree <= ``small``), "delta" (mean test accuracy of the
      choice minus that of the restricted choice, in %), "skipped" (pairs that
      failed, over all splits)}};
    - ``"headline"``: {method: {(degree, tau): {"mean", "se", "n", "sets",
      "missing"}}} for the binary data sets ``sets`` present in the file: the test
      accuracy (%) of the pair (degree, tau) averaged over the sets, per split r,
      then mean and standard error over the splits r (the paper's "average test set
      performance on all domains"); tau "1", "n" (x / sqrt(n)), and "cv" (the
      better CV score of the two, the closest we have to the paper's tuned tau).
      A split counts only where the pair ran on every set ("missing": splits
      dropped because a pair was skipped); "per_set": {set: {"mean", "se", "n"}}
      over the splits where the pair ran on that set.
    """
    runs = results["runs"]
    degrees = {}
    for name, methods in runs.items():
        for method, entry in methods.items():
            if not method.startswith("Pol "):
                continue
            split_pairs = [p["pairs"] for p in entry["params"] if "pairs" in p]
            if not split_pairs:
                continue
            above = changed = 0
            deltas, n_skipped = [], 0
            for pairs in split_pairs:
                chosen = _best_pair(pairs)
                restricted = _best_pair([p for p in pairs if p["degree"] <= small])
                n_skipped += sum(p["skipped"] for p in pairs)
                above += chosen["degree"] > small
                if (restricted is None or chosen["test_accuracy"] is None
                        or restricted["test_accuracy"] is None):
                    continue
                diff = chosen["test_accuracy"] - restricted["test_accuracy"]
                changed += diff != 0
                deltas.append(100 * diff)
            degrees[(name, method)] = {
                "n": len(split_pairs), "above": int(above), "changed": int(changed),
                "delta": float(np.mean(deltas)) if deltas else float("nan"),
                "skipped": int(n_skipped),
            }  # fmt: skip
    headline = {}
    for method in ("Pol LS-SVM", "Pol LS-SVM_F"):
        present = [
            s for s in sets
            if any("pairs" in p for p in runs.get(s, {}).get(method, {})
                   .get("params", []))
        ]  # fmt: skip
        if not present:
            continue
        n_rand = min(len(runs[s][method]["params"]) for s in present)
        out = {}
        for degree in headline_degrees:
            for tau in ("1", "n", "cv"):
                per_split, missing = [], 0
                for r in range(n_rand):
                    accs = []
                    for s in present:
                        params = runs[s][method]["params"][r]
                        if tau == "cv":
                            pair = _best_pair(
                                [p for p in params.get("pairs", [])
                                 if p["degree"] == degree]
                            )  # fmt: skip
                        else:
                            pair = _pair(params, degree, tau)
                        if pair is None or pair["test_accuracy"] is None:
                            break
                        accs.append(100 * pair["test_accuracy"])
                    else:
                        per_split.append(np.mean(accs))
                        continue
                    missing += 1
                per_set = {}
                for s in present:
                    accs = []
                    for params in runs[s][method]["params"][:n_rand]:
                        pair = (_best_pair([p for p in params.get("pairs", [])
                                            if p["degree"] == degree])
                                if tau == "cv" else _pair(params, degree, tau))  # fmt: skip
                        if pair is not None and pair["test_accuracy"] is not None:
                            accs.append(100 * pair["test_accuracy"])
                    per_set[s] = _mean_se(accs)
                out[(degree, tau)] = {
                    **_mean_se(per_split), "sets": present, "missing": missing,
                    "per_set": per_set,
                }
        headline[method] = out
    return {"degrees": degrees, "headline": headline}


def _lu_lssvm(K, y, gamma):
    """(alpha, b) of the LS-SVM on +-1 targets, [S 3.24] solved by LU (no definiteness
    check: LAPACK's dgesv, as a general linear solve returns an answer however badly
    conditioned Omega + I/gamma is)."""
    from lssvm.linalg.kkt import kkt_matrix

    A = kkt_matrix(K, gamma, np.ones(len(y)))  # the package's [S 3.24] matrix
    sol = np.linalg.solve(A, np.concatenate([[0.0], y]))
    return sol[1:], sol[0]


def poly_lu_split(X, y, split, degree, tau_name, folds=10, scaled=False):
    """One split of the polynomial headline with a general (LU) solver.

    For the pairs the closed-form CV refuses (d = 10: entries up to 1e17 and more):
    Pol LS-SVM (+-1 targets, binary), gamma from the paper's initial grid Gamma_0 by
    10-fold stratified CV (no refinement), refit on the training part, test accuracy.
    ``scaled=True`` divides the grid by the median diagonal of the training kernel,
    c = median_k K(x_k, x_k): the ridge I/gamma = c I/gamma_0 then keeps its size
    relative to K whatever the degree (with the grid as printed, at d = 10 the ridge
    is 1e-9 to 1e-12 of K's entries and every gamma gives the same interpolant). The
    median, not the mean: at d = 10 a few outlying inputs dominate the mean diagonal.
    Returns {"gamma", "gamma_scale", "cv_score", "cv_scores", "test_accuracy"} (None
    where the solve is not finite); cv_scores lists every grid point's CV accuracy.
    """
    from lssvm.model_selection.search import GAMMA_0

    train, test = split
    scaler = StandardScaler().fit(X[train])
    Xtr, Xte = scaler.transform(X[train]), scaler.transform(X[test])
    t = np.where(y[train] == np.unique(y)[1], 1.0, -1.0)
    tau = float(X.shape[1]) if tau_name == "n" else float(tau_name)
    K = (Xtr @ Xtr.T + tau) ** degree
    scale = float(np.median(np.diag(K))) if scaled else 1.0  # training part only
    cv_folds = list(StratifiedKFold(folds).split(Xtr, t))
    best, cv_scores = None, []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for gamma in np.asarray(GAMMA_0) / scale:
            correct = 0
            try:  # an exactly singular system (a zero pivot): this gamma fails
                for fit, held in cv_folds:
                    alpha, b = _lu_lssvm(K[np.ix_(fit, fit)], t[fit], gamma)
                    f = K[np.ix_(held, fit)] @ alpha + b
                    correct += int(np.sum(np.sign(f) == t[held]))
            except np.linalg.LinAlgError:
                cv_scores.append(None)
                continue
            score = correct / len(t)
            cv_scores.append(score)
            if best is None or score > best[1]:
                best = (float(gamma), score)
        out = {"gamma": None, "gamma_scale": scale, "cv_score": None,
               "cv_scores": cv_scores, "test_accuracy": None}  # fmt: skip
        if best is None:
            return out
        out.update(gamma=best[0], cv_score=best[1])
        try:
            alpha, b = _lu_lssvm(K, t, best[0])
        except np.linalg.LinAlgError:
            return out
        f = (Xte @ Xtr.T + tau) ** degree @ alpha + b
    y_test = np.where(y[test] == np.unique(y)[1], 1.0, -1.0)
    out["test_accuracy"] = (float(np.mean(np.sign(f) == y_test))
                            if np.all(np.isfinite(f)) else None)  # fmt: skip
    return out


def run_poly_lu(sets, n_rand, seed, out, degrees=(2, 10)):
    """``--poly-lu``: :func:`poly_lu_split` for d in ``degrees``, tau in {1, n}."""
    out = Path(out)
    results = json.loads(out.read_text()) if out.exists() else {}
    results.setdefault("protocol", {
        "seed": seed, "row": "Pol LS-SVM (+-1 targets)", "cv": 10,
        "gamma_grid": "Gamma_0, no refinement", "solver": "LU (numpy.linalg.solve)",
        "standardized": True, "test_size": "ceil(N/3)", "stratified": True,
    })  # fmt: skip
    runs = results.setdefault("runs", {})
    for name in sets:
        X, y = load(name)
        splits = randomized_splits(y, n_rand, random_state=seed)
        for degree in degrees:
            for tau_name in ("1", "n"):
                key = f"d={degree}, tau={tau_name}"
                entry = runs.setdefault(name, {}).setdefault(
                    key, {"accuracies": [], "params": [], "seconds": []})
                t0 = time.perf_counter()
                for r in range(len(entry["accuracies"]), n_rand):
                    t1 = time.perf_counter()
                    row = poly_lu_split(X, y, splits[r], degree, tau_name)
                    entry["accuracies"].append(row.pop("test_accuracy"))
                    entry["params"].append(row)
                    entry["seconds"].append(time.perf_counter() - t1)
                acc = [a for a in entry["accuracies"] if a is not None] or [np.nan]
                print(f"{name} {key}: {100 * np.mean(acc):5.1f} over {len(acc)}, "
                      f"{time.perf_counter() - t0:5.1f} s", flush=True)
                save_json(out, results)


def poly_lu_headline(lu_results, sets=BINARY_SETS):
    """{(degree, tau): {"mean", "se", "n", "sets", "missing", "per_set"}} of a
    ``--poly-lu`` file: as the headline of :func:`poly_degree_summary` (per split r
    the mean test accuracy (%) over the sets, then mean and SE over r)."""
    runs = lu_results["runs"]
    present = [s for s in sets if s in runs]
    out = {}
    keys = sorted({k for s in present for k in runs[s]},
                  key=lambda k: (int(k.split(",")[0][2:]), k))  # fmt: skip
    for key in keys:
        have = [s for s in present if key in runs[s]]
        n_rand = min(len(runs[s][key]["accuracies"]) for s in have)
        per_split, missing = [], 0
        for r in range(n_rand):
            accs = [runs[s][key]["accuracies"][r] for s in have]
            if any(a is None for a in accs):
                missing += 1
                continue
            per_split.append(100 * np.mean(accs))
        per_set = {
            s: _mean_se([100 * a for a in runs[s][key]["accuracies"][:n_rand]
                         if a is not None])
            for s in have
        }  # fmt: skip
        degree, tau = key.replace(" ", "").replace("d=", "").split(",tau=")
        out[(int(degree), tau)] = {**_mean_se(per_split), "sets": have,
                                   "missing": missing, "per_set": per_set}  # fmt: skip
    return out




def characteristics(name):
    """(N_CV, N_test, N, n, M) of our copy of data set ``name``."""
    X, y = load(name)
    n_test = ADU_SPLIT[1] if name == "adu" else math.ceil(len(y) / 3)
    return len(y) - n_test, n_test, len(y), X.shape[1], len(np.unique(y))


# --------------------------------------------------------------------------------------
def _expand(methods, name):
    available = methods_for(name)
    if methods is None:
        return available
    chosen = []
    for m in methods:
        if m == "reference":
            chosen += list(REFERENCE_METHODS)
        elif m == "lssvm":
            chosen += [a for a in available if a not in REFERENCE_METHODS]
        else:
            chosen += [a for a in available if a == m or a.startswith(m + " (")]
    return [m for m in available if m in chosen]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=[*BINARY, *MULTICLASS])
    parser.add_argument("--methods", nargs="+", default=None)
    parser.add_argument("--n-rand", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--redo", action="store_true",
        help="drop the stored entries of the chosen sets and methods first "
        "(leave it out to resume an interrupted --redo pass)",
    )  # fmt: skip
    parser.add_argument(
        "--poly-lu", action="store_true",
        help="the polynomial headline probe (d = 2, 10; tau 1, n; LU solver) on "
        "--sets, written to results/uci_poly_lu.json (or --out)",
    )  # fmt: skip
    parser.add_argument(
        "--poly-max-degree", type=int, default=POLY_GRID[-1][0],
        help="search the Pol rows over d = 2..this only (5 remakes the committed "
        "ims, led, wav and adu Pol rows, made before the grid reached d = 10)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    global poly_max_degree
    poly_max_degree = args.poly_max_degree
    if args.poly_lu:
        out = args.out if args.out != OUT else RESULTS / "uci_poly_lu.json"
        return run_poly_lu(args.sets, args.n_rand, args.seed, out)
    results = open_results(args.out, args.seed)
    runs = results["runs"]
    if args.redo:
        for name in args.sets:
            for method in _expand(args.methods, name):
                runs.get(name, {}).pop(method, None)
    for name in progress(args.sets, "data sets"):
        X, y = load(name)
        splits = splits_for(name, y, args.n_rand, args.seed)
        for method in _expand(args.methods, name):
            todo = pending_splits(runs, name, method, args.n_rand)
            if not todo:
                continue
            t0 = time.perf_counter()
            for r in todo:
                record_split(
                    runs, name, method, run_split(name, method, X, y, splits[r], r)
                )
                save_results(args.out, results)
            acc = 100 * np.array(runs[name][method]["accuracies"])
            print(
                f"{name} {method:30s} {len(acc):2d} splits: {acc.mean():5.1f} "
                f"({acc.std(ddof=1) if len(acc) > 1 else 0:.1f}), "
                f"{time.perf_counter() - t0:7.1f} s for {len(todo)}",
                flush=True,
            )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
