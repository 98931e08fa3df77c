r"""How the book reports numbers: numbered tables and reproduction ledgers.

Two helpers for the chapters (they are notebooks executed by myst-nb, which renders
a cell's Markdown output as MyST, so a table made here gets a number, a caption and
a label that the text cites with ``{numref}``):

- :func:`table` turns a DataFrame into a numbered MyST table with a fixed precision
  per column (never "2.845398e-11" or "450.00000000000006").
- :class:`Ledger` is the reproduction ledger that ends every chapter reproducing a
  source: one row per item of the source (an equation, a figure, a table entry, a
  claim), the source's value, ours, the difference, the difference in standard
  errors where both have a spread, a verdict from a fixed vocabulary and the cause of
  every difference that is not small. The verdict of a numerical row follows a rule
  stated in the row, never the author's wish: a row can be downgraded from
  "reproduced" only with a cause, and never upgraded. :meth:`Ledger.show` also writes
  the ledger to ``_build/ledgers/<chapter>.json``, from which the landing page's
  status table is assembled when the book is built (``book/_ext/ledgers.py``).

The verdicts are ``reproduced`` (the rule of the row holds), ``reproduced
qualitatively`` (the source's conclusion holds, its number does not), ``erratum in
source`` (the source's printed equation or number is wrong; the row's cause gives the
correction and the computation that shows it), ``not reproduced`` and ``not
attempted``. Every verdict other than ``reproduced`` needs a
cause, which may be ``"unexplained"``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "VERDICTS", "UNEXPLAINED", "Ledger", "LedgerRow", "table", "markdown_table",
    "ledger_dir", "machine", "describe_machine", "compare_times", "TimeComparison",
]  # fmt: skip

VERDICTS = (
    "reproduced",
    "reproduced qualitatively",
    "erratum in source",
    "not reproduced",
    "not attempted",
)
UNEXPLAINED = "unexplained"
LEDGER_DIR_ENV = "LSSVM_LEDGER_DIR"


# --- numbered tables ------------------------------------------------------------------


def _cell(value, fmt: str | None) -> str:
    """One table cell as text: numbers in the column's format, '|' escaped."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if fmt is not None and isinstance(value, (int, float, np.integer, np.floating)):
        text = format(float(value) if "d" not in fmt else int(value), fmt)
    elif isinstance(value, (float, np.floating)):
        text = format(float(value), ".4g")
    else:
        text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(frame, formats: dict | None = None, *, index: bool = False) -> str:
    """A pipe table of a DataFrame, each column in its format (``".2f"``, ``".1e"``)."""
    formats = dict(formats or {})
    frame = frame.reset_index() if index else frame
    columns = [str(c) for c in frame.columns]
    lines = [
        "| " + " | ".join(c.replace("|", "\\|") for c in columns) + " |",
        "|" + "|".join("---" for _ in columns) + "|",
    ]
    for row in frame.itertuples(index=False):
        cells = [_cell(v, formats.get(c)) for v, c in zip(row, frame.columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table(
    frame,
    caption: str,
    name: str,
    formats: dict | None = None,
    *,
    index=False,
    css_class: str | None = None,
):
    """A numbered MyST table (caption, label ``name``) for a chapter cell's output.

    ``caption`` is MyST (math allowed); ``formats`` maps column names to format
    specifications; columns without one print floats with four significant digits.
    The returned object displays as Markdown, which the book renders as a table
    numbered by chapter and position, cited in the text as ``{numref}`name```.
    """
    from IPython.display import Markdown  # the book's notebooks only

    body = markdown_table(frame, formats, index=index)
    options = f":name: {name}\n" + (f":class: {css_class}\n" if css_class else "")
    return Markdown(f":::{{table}} {caption}\n{options}\n{body}\n:::\n")


# --- the reproduction ledger ----------------------------------------------------------


@dataclass
class LedgerRow:
    item: str  # the source's item, in the book's citation form: "[S Table 3.3] hea"
    source: str  # the source's value as text
    ours: str  # our value as text
    difference: str  # ours - source, as text ("" when not numerical)
    n_se: float | None  # the difference in standard errors, where both have a spread
    verdict: str
    rule: str  # the rule the verdict follows
    cause: str  # the cause of a difference, "unexplained", or ""
    owner: str | None = None  # the chapter that counts this entry, when not this one


def _fmt(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


class Ledger:
    """The reproduction ledger of one chapter (see the module docstring).

    Parameters
    ----------
    chapter : str
        The chapter's document name (``"classification"``): the JSON file's name.
    k_se : float
        A numerical row with standard errors is "reproduced" when
        ``|ours - source| <= k_se * sqrt(se_source**2 + se_ours**2)``.
    """

    def __init__(self, chapter: str, *, k_se: float = 2.0):
        self.chapter = chapter
        self.k_se = float(k_se)
        self.rows: list[LedgerRow] = []

    # rows ------------------------------------------------------------------------

    def compare(
        self,
        item: str,
        source: float,
        ours: float,
        *,
        source_se: float | None = None,
        ours_se: float | None = None,
        digits: int = 2,
        tol: float | None = None,
        qualitative: bool = False,
        cause: str | None = None,
        unit: str = "",
        single_draw: int | None = None,
        k_se: float | None = None,
        rule_note: str = "",
    ) -> LedgerRow:
        """A numerical item: its verdict follows a rule.

        - with ``source_se`` and ``ours_se``: reproduced within ``k_se`` standard
          errors of the difference;
        - with ``single_draw=k`` and ``ours_se`` (the SE of our mean over ``k``
          draws, ``s/sqrt(k)``): the source value is one draw (one split, one seed)
          of the same experiment, so the difference has the predictive standard
          error ``s * sqrt(1 + 1/k) = ours_se * sqrt(k + 1)``; reproduced within
          ``k_se`` of those (``source_se`` must then be left out);
        - ``k_se`` overrides the ledger's threshold for this row (a multiplicity
          correction such as Holm's gives each row its own), and ``rule_note`` is
          appended to the rule ("Holm over 387 entries");
        - else with ``tol``: reproduced within ``+-tol`` (say why in ``cause``);
        - else: reproduced to the printed digits, ``round(ours, digits) == source``.

        ``qualitative=True`` turns a failed rule into "reproduced qualitatively" (the
        source's conclusion holds); it needs a ``cause``. Nothing turns a failed rule
        into "reproduced".
        """
        source, ours = float(source), float(ours)
        diff = ours - source
        n_se = None
        k = self.k_se if k_se is None else float(k_se)
        if single_draw is not None:
            draws = int(single_draw)
            if draws < 2 or ours_se is None or source_se is not None:
                raise ValueError(
                    "single_draw=k needs k >= 2 draws of ours, ours_se (the SE of our "
                    f"mean) and no source_se; got single_draw={single_draw!r}, "
                    f"ours_se={ours_se!r}, source_se={source_se!r}."
                )
            se = float(ours_se) * math.sqrt(draws + 1)  # s * sqrt(1 + 1/k)
            n_se = abs(diff) / se if se > 0 else math.inf * (diff != 0)
            held = n_se <= k
            rule = f"within {k:g} predictive SE (single-draw source)"
        elif source_se is not None and ours_se is not None:
            se = math.hypot(float(source_se), float(ours_se))
            n_se = abs(diff) / se if se > 0 else math.inf * (diff != 0)
            held = n_se <= k
            rule = f"within {k:g} SE"
        elif tol is not None:
            held = abs(diff) <= tol
            rule = f"within ±{tol:g}{unit}"
        else:
            held = round(ours, digits) == round(source, digits)
            rule = "to the printed digits"
        if rule_note:
            rule = f"{rule}, {rule_note}"
        if held:
            verdict = "reproduced"
        elif qualitative:
            verdict = "reproduced qualitatively"
        else:
            verdict = "not reproduced"
        row = LedgerRow(
            item,
            _fmt(source, digits) + unit,
            _fmt(ours, digits) + unit,
            f"{diff:+.{digits}f}{unit}",
            None if n_se is None else float(n_se),
            verdict,
            rule,
            self._cause(verdict, cause),
        )
        self.rows.append(row)
        return row

    def claim(
        self, item: str, source: str, ours: str, verdict: str, cause: str | None = None
    ) -> LedgerRow:
        """A qualitative item (a claim, a figure's shape); its verdict is stated.

        A "reproduced" claim must rest on numbers the chapter shows and guards.
        """
        if verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}; got {verdict!r}.")
        row = LedgerRow(
            item, source, ours, "", None, verdict, "stated", self._cause(verdict, cause)
        )
        self.rows.append(row)
        return row

    def not_attempted(self, item: str, source: str, cause: str, *,
                      entries: int | None = None) -> LedgerRow:
        """An item of the source we did not attempt (say why: data offline, ...).

        ``entries``: how many table entries the row stands for, when more than one
        (its ``ours`` then reads "N entries", which the landing page counts as N).
        """
        ours = "–" if entries is None else f"{int(entries)} entries"
        return self.claim(item, source, ours, "not attempted", cause)

    def refer(
        self, item: str, source: str, ours: str, owner: str, note: str = ""
    ) -> LedgerRow:
        """An entry that another chapter owns: shown here, counted and judged there.

        Every source entry has one owner and one verdict. A chapter that shows an
        entry owned by ``owner`` (a chapter's document name, "multiclass") lists it
        with "see <owner>" instead of a verdict of its own; :meth:`counts` and the
        landing page skip it.
        """
        if not owner or owner == self.chapter:
            raise ValueError(f"owner must name another chapter; got {owner!r}.")
        row = LedgerRow(
            item, source, ours, "", None, f"see {owner}", "owned elsewhere", note, owner
        )
        self.rows.append(row)
        return row

    def owned_rows(self) -> list[LedgerRow]:
        """The rows this chapter counts (not those referred to another chapter)."""
        return [r for r in self.rows if r.owner is None]

    @staticmethod
    def _cause(verdict: str, cause: str | None) -> str:
        if verdict != "reproduced" and not cause:
            raise ValueError(
                f"a {verdict!r} row needs a cause (or cause={UNEXPLAINED!r})."
            )
        return cause or ""

    # output ----------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        return {v: sum(r.verdict == v for r in self.owned_rows()) for v in VERDICTS}

    def frame(self):
        import pandas as pd

        return pd.DataFrame(
            [
                {
                    "Item": r.item,
                    "Source": r.source,
                    "Ours": r.ours,
                    "Difference": r.difference,
                    "SE": r.n_se,
                    "Verdict": r.verdict,
                    "Rule": r.rule,
                    "Cause of the difference": r.cause,
                }
                for r in self.rows
            ]
        )

    def to_dict(self) -> dict:
        return {
            "chapter": self.chapter,
            "k_se": self.k_se,
            "source_sha1": _source_sha1(self.chapter),
            "rows": [asdict(r) for r in self.rows],
        }

    def save(self, directory: str | os.PathLike | None = None) -> Path | None:
        """Write ``<directory>/<chapter>.json`` (default: the book's _build/ledgers)."""
        directory = Path(directory) if directory else ledger_dir()
        if directory is None:
            return None
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.chapter}.json"
        path.write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")
        return path

    def show(self, caption: str, name: str):
        """Save the ledger and return it as a numbered table for the chapter.

        Six columns, to fit the book's column: the difference carries its size in
        standard errors, the verdict the rule it follows.
        """
        import pandas as pd

        if not self.rows:
            raise ValueError(f"the ledger of {self.chapter!r} has no row.")
        self.save()
        shown = pd.DataFrame(
            [
                {
                    "Item": r.item,
                    "Source": r.source,
                    "Ours": r.ours,
                    "Difference": (r.difference + se_suffix(r.n_se)) or "–",
                    "Verdict": _verdict_text(r),
                    "Cause": r.cause,
                }
                for r in self.rows
            ]
        )
        if all(r.rule == "stated" and not r.difference for r in self.rows):
            shown = shown.drop(columns=["Difference"])  # claims only: no numbers
        return table(shown, caption, name, css_class="ledger")  # _static/ledger.css


def _verdict_text(row: LedgerRow) -> str:
    """The verdict with its rule and whether the rule held.

    "not reproduced (rule: within 2 SE; failed)", "reproduced (rule: to the printed
    digits; held)"; a stated verdict (a claim) has no rule to show. Other verdicts
    ("reproduced qualitatively", "erratum in source", ...) can come with the rule
    held (e.g. within 2 SE but on regenerated data) or failed (within a multiplicity
    threshold only): their cause says which, so the rule is shown without an outcome.
    """
    if row.rule in ("stated", "owned elsewhere"):
        return row.verdict
    if row.verdict not in ("reproduced", "not reproduced"):
        return f"{row.verdict} (rule: {row.rule}; see the cause)"
    outcome = "held" if row.verdict == "reproduced" else "failed"
    return f"{row.verdict} (rule: {row.rule}; {outcome})"


def se_suffix(n_se: float | None) -> str:
    """' (2.9 SE)' for a difference with standard errors, '' without; two decimals
    near 2 SE (' (2.03 SE)'), where one decimal would not show the side of the line."""
    if n_se is None or math.isnan(n_se):
        return ""
    if math.isinf(n_se):
        return " (∞ SE)"
    if n_se > 100:
        return " (>100 SE)"  # no false precision
    if 1.95 <= n_se < 2.05:  # near the usual 2-SE line: two decimals decide the side
        return f" ({n_se:.2f} SE)"
    return f" ({n_se:.1f} SE)"


def _book_root() -> Path | None:
    """The repository root (the folder with _toc.yml) above the working directory."""
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "_toc.yml").exists():
            return folder
    return None


def ledger_dir() -> Path | None:
    """Where chapters write their ledgers: $LSSVM_LEDGER_DIR or <root>/_build/ledgers."""
    if os.environ.get(LEDGER_DIR_ENV):
        return Path(os.environ[LEDGER_DIR_ENV])
    root = _book_root()
    return None if root is None else root / "_build" / "ledgers"


def _source_sha1(chapter: str) -> str | None:
    """SHA-1 of the chapter's source, so a build can tell a stale ledger."""
    root = _book_root()
    path = None if root is None else root / "book" / f"{chapter}.md"
    if path is None or not path.exists():
        return None
    return hashlib.sha1(path.read_bytes()).hexdigest()


# --- numbers measured on the machine ----------------------------------------------------
#
# A time, a throughput or a resident-memory peak depends on the machine that measured
# it (one run of the book had an Intel CPU with AVX-512, the next an AMD EPYC where
# numpy's exp ran ten times slower). The book therefore never asserts such a number:
# it shows it with the machine (describe_machine) and computes the words around it
# from the measurement and the spread of its repeats (compare_times), so that the
# sentence is true wherever the book is built. A claim the argument needs as a fact
# is quoted from a stored results file, whose provenance names its machine.


def _cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo on Linux, platform.processor elsewhere)."""
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _simd_level() -> str:
    """The widest SIMD extension numpy found on this CPU ("AVX512_ICL", "X86_V3", ...)."""
    try:
        simd = np.show_config(mode="dicts").get("SIMD Extensions", {})
    except (TypeError, AttributeError):  # numpy < 1.26 has no mode="dicts"
        return "unknown"
    found = list(simd.get("found") or []) or list(simd.get("baseline") or [])
    return found[-1] if found else "unknown"


def _blas_owner(lib: dict) -> str | None:
    """ "numpy's" for a BLAS that numpy's wheel ships (numpy.libs/...), and so on:
    numpy and scipy wheels each bundle their own OpenBLAS, so two are loaded."""
    folder = Path(lib.get("filepath") or "").parent.name
    return f"{folder.removesuffix('.libs')}'s" if folder.endswith(".libs") else None


def machine() -> dict:
    """The machine a measurement ran on: CPU, cores, SIMD level and BLAS.

    Returns a JSON-serialisable dict with ``cpu`` (model name), ``cores`` (the CPUs
    this process may run on), ``cpu_count`` (all CPUs of the machine), ``simd`` (the
    widest SIMD extension numpy dispatches to), ``blas`` (each loaded BLAS: library,
    version, the kernel it selected) and ``blas_threads``. The benchmarks' results
    files store it in their provenance; the chapters print it beside a live timing.
    """
    from threadpoolctl import threadpool_info

    blas = [lib for lib in threadpool_info() if lib.get("user_api") == "blas"]
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return {
        "cpu": _cpu_model(),
        "cores": cores,
        "cpu_count": os.cpu_count(),
        "simd": _simd_level(),
        "blas": [
            f"{lib.get('internal_api')} {lib.get('version')} ("
            + ", ".join(
                filter(
                    None,
                    [
                        _blas_owner(lib),
                        lib.get("architecture") and f"{lib['architecture']} kernel",
                    ],
                )
            )  # fmt: skip
            + ")"
            for lib in blas
        ],
        "blas_threads": sorted({lib.get("num_threads") for lib in blas}),
    }


def describe_machine(info: dict | None = None) -> str:
    """One line naming a machine: "AMD EPYC, 2 cores, AVX512_ICL, openblas 0.3.31 ...".

    ``info`` is a dict from :func:`machine` (this machine when None), or a stored
    provenance entry that has at least ``cpu`` or ``machine``.
    """
    if info is not None and info.get("machine_text"):  # a stored entry says it itself
        return info["machine_text"]
    info = machine() if info is None else info
    if "cpu" not in info:  # a results file written before the CPU was recorded
        return f"{info.get('machine', 'machine not recorded')} (CPU model not recorded)"
    cores = info.get("cores", "?")
    parts = [info["cpu"], f"{cores} core" + ("" if cores == 1 else "s")]
    if info.get("simd"):
        parts.append(info["simd"])
    blas = info.get("blas") or []
    threads = info.get("blas_threads") or []
    if blas:
        text = " and ".join(dict.fromkeys(blas))
        if threads:
            text += f", {'/'.join(str(t) for t in threads)} BLAS thread"
            text += "" if threads == [1] else "s"
        parts.append(text)
    return ", ".join(parts)


@dataclass(frozen=True)
class TimeComparison:
    """Two measured times compared in words that hold on the machine that measured them.

    ``ratio`` is median(slow side) / median(fast side) as seen from ``name_a``:
    ``ratio = median(b) / median(a)``, so ratio > 1 means ``a`` was faster.
    ``lo`` and ``hi`` bound the same ratio over every pair of single runs; when the
    interval contains 1 (or the ratio of medians is within 5% of 1) the two are
    "about as fast" (within the spread of repeats).
    """

    name_a: str
    name_b: str
    median_a: float
    median_b: float
    ratio: float
    lo: float
    hi: float
    n_a: int
    n_b: int

    @property
    def verdict(self) -> str:
        """ "faster", "slower" or "about as fast" (``a`` against ``b``)."""
        factor = self.ratio if self.ratio > 1 else 1.0 / self.ratio
        if (
            self.lo <= 1.0 <= self.hi or factor < 1.05
        ):  # "1.0 times faster" says nothing
            return "about as fast"
        return "faster" if self.ratio > 1 else "slower"

    @property
    def a_faster(self) -> bool | None:
        """True or False when the spread of repeats decides, else None."""
        return {"faster": True, "slower": False}.get(self.verdict)

    @property
    def phrase(self) -> str:
        """ "2.3 times faster than", "about as fast as" or "1.4 times slower than"."""
        if self.verdict == "about as fast":
            return "about as fast as"
        factor = self.ratio if self.ratio > 1 else 1.0 / self.ratio
        return f"{factor:.1f} times {self.verdict} than"

    @property
    def factor_range(self) -> tuple[float, float]:
        """The range of the factor in :attr:`phrase` over pairs of single runs.

        For "slower" that is times of ``a`` over times of ``b`` (1/hi to 1/lo), so that
        "1.4 times slower ... ranges from 1.2 to 1.6" reads in one direction; otherwise
        times of ``b`` over times of ``a`` (lo to hi).

        >>> c = compare_times([2.0, 2.2], [1.0, 1.1], "a", "b")
        >>> c.phrase, [round(v, 2) for v in c.factor_range]
        ('2.0 times slower than', [1.82, 2.2])
        """
        if self.verdict == "slower":
            return 1.0 / self.hi, 1.0 / self.lo
        return self.lo, self.hi

    @property
    def spread(self) -> str:
        """The evidence behind the words: medians, runs and the factor's range."""
        lo, hi = self.factor_range
        return (
            f"median of {self.n_a} and {self.n_b} runs; over pairs of single runs the "
            f"factor ranges from {lo:.2f} to {hi:.2f}"
        )

    @property
    def sentence(self) -> str:
        """ "matrix-free CG was 2.3 times faster than direct (median of 3 and 3 runs; ...)"."""
        qualifier = (
            " (within the spread of repeats)" if self.verdict == "about as fast" else ""
        )
        return (
            f"{self.name_a} was {self.phrase} {self.name_b}{qualifier} ({self.spread})"
        )

    def __str__(self) -> str:
        return self.sentence


def compare_times(
    runs_a, runs_b, name_a: str = "A", name_b: str = "B"
) -> TimeComparison:
    """Compare repeated timings of ``a`` and ``b`` (seconds, one or more runs each).

    The words come from the numbers: ``a`` is "faster" only when it was faster in
    every pair of single runs (the whole range of ratios lies above 1), "slower" when
    it was slower in every pair, and "about as fast" otherwise. Use it for every live
    timing a chapter puts into words, never an assert (see the module's notes).

    >>> c = compare_times([1.0, 1.1, 0.9], [2.0, 2.2, 2.1], "CG", "direct")
    >>> c.phrase, c.verdict
    ('2.1 times faster than', 'faster')
    >>> compare_times([1.0, 1.3], [1.1, 1.2]).phrase
    'about as fast as'
    """
    a = np.atleast_1d(np.asarray(runs_a, dtype=float)).ravel()
    b = np.atleast_1d(np.asarray(runs_b, dtype=float)).ravel()
    for name, runs in ((name_a, a), (name_b, b)):
        if runs.size == 0 or not np.all(np.isfinite(runs)) or np.any(runs <= 0):
            raise ValueError(
                f"compare_times: the runs of {name!r} must be positive finite seconds; "
                f"got {runs.tolist()}."
            )
    median_a, median_b = float(np.median(a)), float(np.median(b))
    return TimeComparison(
        name_a=name_a,
        name_b=name_b,
        median_a=median_a,
        median_b=median_b,
        ratio=median_b / median_a,
        lo=float(b.min() / a.max()),
        hi=float(b.max() / a.min()),
        n_a=int(a.size),
        n_b=int(b.size),
    )
