"""The reference methods of the UCI benchmark ([S Tables 3.3-3.4]): scikit-learn
stand-ins for the paper's Weka / Matlab tools, and the two without a scikit-learn class.

- :class:`KernelNaiveBayes` (NB_k) and :class:`OneR` (oneR);
- the SVC rows (libsvm's SMO), tuned by :func:`svc_search`, with
  :class:`CodedBinaryClassifier` for the minimum output code rows;
- :func:`make_reference`, the stand-in for each reference row, and :func:`fit_svm`.

``benchmarks/uci.py`` runs them; the chapters and tests import them from here.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from lssvm import multiclass as mc

# SVMs with a minimum output code (one tuned binary SVC per bit): multiclass sets only.
MOC_SVMS = {"SVC (SMO, RBF, MOC)", "SVC (SMO, linear, MOC)"}


# --------------------------------------------------------------------------------------
# Reference methods without a scikit-learn class: kernel naive Bayes and oneR.
# --------------------------------------------------------------------------------------
class KernelNaiveBayes(ClassifierMixin, BaseEstimator):
    """Naive Bayes with a Gaussian kernel density per class and attribute (NB_k).

    Bandwidth per class and attribute by Silverman's rule, 1.06 sd n_c^(-1/5), at
    least ``min_bandwidth`` (on standardised inputs; discrete attributes need it).
    """

    def __init__(self, min_bandwidth=0.05):
        self.min_bandwidth = min_bandwidth

    def fit(self, X, y):
        self.classes_, index = np.unique(y, return_inverse=True)
        self.X_ = [X[index == c] for c in range(len(self.classes_))]
        self.log_prior_ = np.log(np.bincount(index) / len(y))
        self.h_ = [
            np.maximum(1.06 * Xc.std(axis=0) * len(Xc) ** -0.2, self.min_bandwidth)
            for Xc in self.X_
        ]
        return self

    def _log_likelihood(self, X, Xc, h):
        out = np.zeros(len(X))
        for j in range(X.shape[1]):
            z = (X[:, j, None] - Xc[None, :, j]) / h[j]
            out += logsumexp(-0.5 * z**2, axis=1) - np.log(len(Xc) * h[j])
        return out

    def predict(self, X, chunk=500):
        # rows in chunks of ``chunk``: each holds chunk x n_c kernel values, not N x n_c
        scores = np.vstack(
            [
                np.column_stack(
                    [
                        lp + self._log_likelihood(X[i : i + chunk], Xc, h)
                        for lp, Xc, h in zip(self.log_prior_, self.X_, self.h_)
                    ]
                )
                for i in range(0, len(X), chunk)
            ]
        )
        return self.classes_[np.argmax(scores, axis=1)]


class OneR(ClassifierMixin, BaseEstimator):
    """Holte's one-rule classifier, simplified: the best single-attribute rule.

    An attribute with at most ``n_bins`` distinct values keeps them; others are cut
    into ``n_bins`` equal-frequency bins. Each bin predicts its majority class
    (unseen bins: the overall majority); the attribute with the highest training
    accuracy wins. Holte's discretisation (intervals holding at least 6 of their
    majority class, merged when neighbours agree) is not reproduced.
    """

    def __init__(self, n_bins=6):
        self.n_bins = n_bins

    def _edges(self, x):
        values = np.unique(x)
        if len(values) <= self.n_bins:
            return (values[1:] + values[:-1]) / 2
        return np.unique(np.quantile(x, np.linspace(0, 1, self.n_bins + 1)[1:-1]))

    def fit(self, X, y):
        self.classes_, index = np.unique(y, return_inverse=True)
        self.default_ = int(np.argmax(np.bincount(index)))
        best = -1.0
        for j in range(X.shape[1]):
            edges = self._edges(X[:, j])
            bins = np.searchsorted(edges, X[:, j], side="right")
            counts = np.zeros((len(edges) + 1, len(self.classes_)))
            np.add.at(counts, (bins, index), 1)
            rule = np.where(counts.sum(1) > 0, counts.argmax(1), self.default_)
            accuracy = counts.max(1).sum() / len(y)
            if accuracy > best:
                best, self.feature_, self.edges_, self.rule_ = accuracy, j, edges, rule
        return self

    def predict(self, X):
        bins = np.searchsorted(self.edges_, X[:, self.feature_], side="right")
        return self.classes_[self.rule_[bins]]


# --------------------------------------------------------------------------------------
# SVMs (libsvm's SMO): the paper's RBF / Lin SVM rows, one-versus-one and MOC.
# --------------------------------------------------------------------------------------
SVC_KERNEL = {
    "SVC (SMO, RBF)": "rbf", "SVC (SMO, linear)": "linear",
    "SVC (SMO, RBF, MOC)": "rbf", "SVC (SMO, linear, MOC)": "linear",
}  # fmt: skip
RBF_C_GRID = (0.1, 1, 10, 100, 1000)
RBF_GAMMA_FACTORS = (0.01, 0.1, 1, 10)  # gamma = g / n, sigma2 = n / g
# Linear SVC on standardised inputs: C over five decades. libsvm's SMO needs millions
# of iterations at C = 100 on sets that are far from linearly separable (ttt: 3.7 s
# for 10^6 iterations, unconverged), so each solve stops after LINEAR_MAX_ITER
# iterations (a ConvergenceWarning, counted in the split's params).
LINEAR_C_GRID = (0.001, 0.01, 0.1, 1, 10, 100)
LINEAR_MAX_ITER = 100_000


def svc_search(kernel, n_features):
    """SVC with its hyper-parameters chosen by 10-fold stratified CV (GridSearchCV).

    RBF: C in :data:`RBF_C_GRID`, gamma = g / n for g in :data:`RBF_GAMMA_FACTORS`.
    Linear: C in :data:`LINEAR_C_GRID`, at most :data:`LINEAR_MAX_ITER` SMO steps.
    """
    folds = StratifiedKFold(10)
    if kernel == "rbf":
        grid = {
            "C": list(RBF_C_GRID),
            "gamma": [g / n_features for g in RBF_GAMMA_FACTORS],
        }
        return GridSearchCV(SVC(kernel="rbf"), grid, cv=folds)
    if kernel == "linear":
        svc = SVC(kernel="linear", max_iter=LINEAR_MAX_ITER)
        return GridSearchCV(svc, {"C": list(LINEAR_C_GRID)}, cv=folds)
    raise ValueError(f"kernel must be 'rbf' or 'linear'; got kernel={kernel!r}.")


class CodedBinaryClassifier(ClassifierMixin, BaseEstimator):
    """Any binary classifier on the bits of an output code of :mod:`lssvm.multiclass`.

    The code is ``lssvm.multiclass.codebook(M, coding)`` with class i the i-th of the
    sorted labels (``classes_``), as ``LSSVMClassifier`` / ``LSSVMClassifierCV`` build
    it: for ``coding="moc"`` class i's codeword is the binary expansion of i. One clone
    of ``estimator`` is fitted per bit on that bit's rows (code entry -1 or +1) with
    labels -1 / +1, so a tuning ``estimator`` (``GridSearchCV``) tunes each bit on its
    own binary problem. Prediction: ``lssvm.multiclass.decode(F, C, "hamming")`` of the
    bits' ``decision_function`` values F (> 0: +1): the codeword nearest to sign(F)
    in Hamming distance; a tie goes to the smaller sum over bits of (C_ij - F_j)^2,
    then to the first class.
    """

    def __init__(self, estimator, coding="moc"):
        self.estimator = estimator
        self.coding = coding

    def fit(self, X, y):
        self.classes_, index = np.unique(y, return_inverse=True)
        self.codebook_ = mc.codebook(len(self.classes_), self.coding)
        Y = mc.encode(index, self.codebook_)
        self.estimators_ = []
        for j in range(Y.shape[1]):
            rows = Y[:, j] != 0
            model = clone(self.estimator).fit(X[rows], Y[rows, j])
            if list(model.classes_) != [-1, 1]:
                raise ValueError(
                    f"bit {j}: expected classes [-1, 1]; got {model.classes_.tolist()}."
                )
            self.estimators_.append(model)
        return self

    def decision_function(self, X):
        """Bit outputs F, shape (n_samples, n_bits); F_j > 0 means bit j is +1."""
        return np.column_stack([m.decision_function(X) for m in self.estimators_])

    def predict(self, X):
        index = mc.decode(self.decision_function(X), self.codebook_, "hamming")
        return self.classes_[index]


def fit_svm(method, X, y):
    """A new SVC row (linear 1vs1, RBF or linear MOC) fitted on (X, y): (model, params).

    ``params``: the chosen C (and gamma) -- one dict per bit under ``"bits"`` for MOC,
    with each bit's CV accuracy -- and ``convergence_warnings`` out of ``fits`` libsvm
    solves (every CV fold of every grid point, and the refits).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model = make_reference(method, X.shape[1]).fit(X, y)
    searches = model.estimators_ if method in MOC_SVMS else [model]
    fits = sum(len(s.cv_results_["params"]) * s.n_splits_ + 1 for s in searches)
    if method in MOC_SVMS:
        params = {
            "bits": [dict(s.best_params_) for s in searches],
            "cv_scores": [float(s.best_score_) for s in searches],
        }
    else:
        params = dict(model.best_params_)
    params["convergence_warnings"] = sum(
        issubclass(w.category, ConvergenceWarning) for w in caught
    )
    params["fits"] = fits
    return model, params


def make_reference(method, n_features):
    """The scikit-learn stand-in for a reference method (inputs already scaled).

    SVC: libsvm's SMO solver, tuned by 10-fold CV (:func:`svc_search`); RBF: C in
    {0.1, 1, 10, 100, 1000}, gamma = g / n, g in {0.01, 0.1, 1, 10} (sigma2 = n / g);
    linear: C in {0.001, ..., 100}. One-versus-one for several classes (SVC's own),
    or, for the MOC rows, one tuned SVC per bit of the LS-SVMs' minimum output code
    (:class:`CodedBinaryClassifier`). QDA: covariances shrunk by 1% towards the
    identity (reg_param=0.01), or small classes make them singular. Logit: weakly
    regularised (C=100), so separable sets still have a solution. C4.5 stand-in:
    CART with the entropy criterion, min_samples_leaf in {1, 2, 5, 10, 20, 50} by
    10-fold CV (C4.5 prunes by error estimates instead).
    """
    folds = StratifiedKFold(10)
    if method in SVC_KERNEL:
        search = svc_search(SVC_KERNEL[method], n_features)
        return CodedBinaryClassifier(search, "moc") if method in MOC_SVMS else search
    if method == "CART-entropy (C4.5 stand-in)":
        tree = DecisionTreeClassifier(criterion="entropy", random_state=0)
        grid = {"min_samples_leaf": [1, 2, 5, 10, 20, 50]}
        return GridSearchCV(tree, grid, cv=folds)
    return {
        "LDA": LinearDiscriminantAnalysis,
        "QDA (reg. 0.01)": lambda: QuadraticDiscriminantAnalysis(reg_param=0.01),
        "Logit": lambda: LogisticRegression(C=100.0, max_iter=10_000),
        "oneR": OneR,
        "IB1 (1-NN)": lambda: KNeighborsClassifier(1),
        "IB10 (10-NN)": lambda: KNeighborsClassifier(10),
        "NB_k (KDE)": KernelNaiveBayes,
        "NB_n (Gaussian)": GaussianNB,
        "Maj. Rule": lambda: DummyClassifier(strategy="most_frequent"),
    }[method]()
