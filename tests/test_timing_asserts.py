"""No assert in the book reads a clock or a resident-memory reading (CONTRIBUTING.md).

A time measured while the book is built depends on the machine: the same chapter ran
on a CPU with AVX-512 and on one where numpy's ``exp`` was ten times slower, and a
hidden assert on a live timing made the build pass on one and fail on the other. The
rule: a live timing is shown with its machine and the words around it are computed
from it (``lssvm.reporting.ledger.compare_times``); no assert reads it. Claims the argument
needs as facts are quoted from a stored results file.

This test reads every chapter's code cells in order, the way the kernel runs them,
and follows every value computed from a clock (``time.perf_counter``, ``time.time``,
``timeit``, ...) or a resident-memory reading (``resource.getrusage``, psutil's
``memory_info``) through assignments, in-place updates (``runs.append(t)``), loops,
comprehensions and functions defined in the chapter. It fails on an ``assert`` (or a
``np.testing.assert_*`` call) whose condition depends on such a value. The analysis
is deliberately conservative: a container that mixes timings with other numbers is
tainted as a whole, so keep machine-independent numbers (iterations, accuracies) in
their own variables. ``tracemalloc`` peaks count numpy's own allocations, which do
not depend on the machine's speed, and are not treated as readings.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"

#: Modules whose calls read a clock or the process's resident memory.
CLOCK_MODULES = {"time", "timeit", "resource"}
#: Attribute calls that read one whatever their base (psutil, benchmark helpers).
READING_ATTRS = {
    "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
    "process_time_ns", "thread_time", "thread_time_ns", "time_ns", "default_timer",
    "getrusage", "memory_info", "memory_full_info", "ru_maxrss",
}  # fmt: skip
#: Bare names that read one once imported (``from time import perf_counter``).
READING_NAMES = READING_ATTRS | {"timed", "timeit"}
#: Methods that change their object in place: ``runs.append(t)`` taints ``runs``.
MUTATORS = {"append", "extend", "insert", "update", "add", "setdefault", "__setitem__"}


def chapter_cells(text: str) -> list[tuple[str, bool]]:
    """(source, hidden) of each code cell of a MyST notebook, in order.

    ``hidden`` is True for a cell tagged ``remove-cell``. IPython magics and shell
    lines (``%timeit``, ``!ls``) are dropped: a magic cannot be an assert.
    """
    cells = []
    for match in re.finditer(r"```\{code-cell\}[^\n]*\n(.*?)```", text, re.S):
        lines = match.group(1).splitlines()
        options = []
        if lines and lines[0] == "---":  # YAML options block
            end = lines.index("---", 1)
            options, lines = lines[1:end], lines[end + 1 :]
        while lines and re.match(r"^:\w+:", lines[0]):  # short-form options
            options.append(lines.pop(0))
        hidden = any("remove-cell" in line for line in options)
        code = "\n".join(l for l in lines if not l.lstrip().startswith(("%", "!")))
        cells.append((code, hidden))
    return cells


def _root_names(node) -> set[str]:
    """The variables a target writes: ``x`` of ``x``, ``x[k]``, ``x.a``, ``(x, y)``."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        return _root_names(node.value)
    if isinstance(node, (ast.Tuple, ast.List)):
        return set().union(*(_root_names(e) for e in node.elts)) if node.elts else set()
    return set()


class _Taint:
    """Names whose value depends on a clock or a memory reading, across cells."""

    def __init__(self):
        self.names: set[str] = set()  # tainted variables
        self.functions: set[str] = set()  # chapter functions that return a reading
        self.clock_aliases: set[str] = set(CLOCK_MODULES)  # "time", "import time as t"
        self.reading_names: set[str] = set()  # from time import perf_counter

    # -- expressions ----------------------------------------------------------------
    def _is_reading(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute):
            base = func.value
            if isinstance(base, ast.Name) and base.id in self.clock_aliases:
                return True  # time.perf_counter(), timeit.repeat(...)
            return func.attr in READING_ATTRS
        if isinstance(func, ast.Name):
            return func.id in self.reading_names or func.id in self.functions
        return False

    def tainted(self, expr) -> bool:
        if expr is None:
            return False
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and self._is_reading(node):
                return True
            if isinstance(node, ast.Attribute) and node.attr == "ru_maxrss":
                return True
            if isinstance(node, ast.Name) and node.id in self.names:
                return True
        return False

    # -- statements -----------------------------------------------------------------
    @staticmethod
    def _loop_values(node):
        """The loop variables that carry the iterable's values.

        ``for key in d.keys()`` carries none, ``for key, t in d.items()`` only ``t``:
        the keys of a dict of timings are labels, not measurements.
        """
        it, target = node.iter, node.target
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute):
            if it.func.attr == "keys":
                return ast.Tuple(elts=[], ctx=ast.Store())
            if it.func.attr == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                return target.elts[1]
        return target

    def _mark(self, targets, value) -> bool:
        if not self.tainted(value):
            return False
        new = set().union(*(_root_names(t) for t in targets)) - self.names
        self.names |= new
        return bool(new)

    def statement(self, node) -> bool:
        """Propagate through one statement (and its nested bodies); True if it grew."""
        grew = False
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = getattr(node, "module", None)
            for alias in node.names:
                if isinstance(node, ast.Import) and alias.name in CLOCK_MODULES:
                    self.clock_aliases.add(alias.asname or alias.name)
                elif module in CLOCK_MODULES or alias.name in READING_NAMES:
                    self.reading_names.add(alias.asname or alias.name)
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if node.name not in self.functions and self.tainted(node):
                self.functions.add(node.name)
                return True
            return False
        if isinstance(node, ast.Assign):
            grew |= self._mark(node.targets, node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            grew |= self._mark([node.target], node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            grew |= self._mark([self._loop_values(node)], node.iter)
        elif isinstance(node, ast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    grew |= self._mark([item.optional_vars], item.context_expr)
        for sub in ast.walk(node):  # in-place updates, walrus, comprehensions
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
                if sub.func.attr in MUTATORS and any(
                    self.tainted(a) for a in (*sub.args, *(k.value for k in sub.keywords))
                ):
                    grew |= bool(_root_names(sub.func.value) - self.names)
                    self.names |= _root_names(sub.func.value)
            elif isinstance(sub, ast.NamedExpr):
                grew |= self._mark([sub.target], sub.value)
            # a comprehension's variables are its own (Python 3): an expression that
            # iterates over a tainted value contains that value's name already
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, []) or []:
                grew |= self.statement(child)
        return grew


def _asserts(tree) -> list[tuple[ast.AST, str]]:
    """(condition, text) of every assert statement and np.testing-style assert call."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            found.append((node.test, "assert " + ast.unparse(node.test)))
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", ""
            )
            if name.startswith("assert_"):
                found.append((node, ast.unparse(node)))
    return found


def timing_asserts(cells: list[tuple[str, bool]]) -> list[str]:
    """The asserts of a chapter (cells in order) that depend on a clock or memory reading.

    Each is reported as "cell N (hidden): assert ...". Cells that do not parse are
    skipped (the build reports them).
    """
    taint = _Taint()
    found = []
    for number, (code, hidden) in enumerate(cells, start=1):
        try:
            tree = ast.parse(textwrap.dedent(code))
        except SyntaxError:
            continue
        while any([taint.statement(node) for node in tree.body]):  # to a fixed point
            pass
        for test, text in _asserts(tree):
            if taint.tainted(test):
                where = f"cell {number}" + (" (hidden)" if hidden else "")
                found.append(f"{where}: {text[:160]}")
    return found


def _chapters() -> list[Path]:
    return [
        p for p in sorted(BOOK.glob("*.md"))
        if "jupytext" in p.read_text(encoding="utf-8")[:2000]
    ]  # fmt: skip


FABRICATED = '''
```{code-cell} ipython3
import time
from time import perf_counter as clock
import numpy as np

def timed_fit(x):
    start = time.perf_counter()
    y = x ** 2
    return time.perf_counter() - start, y

runs, iters = [], []
for k in range(3):
    t0 = clock()
    iters.append(k + 1)
    runs.append(clock() - t0)
t_fit, squares = timed_fit(np.arange(3))
median = float(np.median(runs))
ratio = {"fit": t_fit / median}
accuracy = 0.9
```

```{code-cell} ipython3
:tags: [remove-cell]
assert ratio["fit"] > 2                 # a clock, through a dict
assert median < 0.5                     # a clock, through a list and a median
assert accuracy > 0.8 and max(iters) == 3    # machine-independent: allowed
np.testing.assert_array_less(t_fit, 1.0)     # a clock, through a function
```

```{code-cell} ipython3
---
tags: [remove-cell]
---
import resource
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
assert peak < 2**20                     # a resident-memory reading
assert squares[-1] == 4                 # shares a tuple with a time: tainted too
```
'''


def test_detector_flags_every_clock_dependent_assert_of_a_fabricated_chapter():
    cells = chapter_cells(FABRICATED)
    assert [hidden for _, hidden in cells] == [False, True, True]
    found = timing_asserts(cells)
    texts = "\n".join(found)
    assert "ratio['fit'] > 2" in texts
    assert "median < 0.5" in texts
    assert "assert_array_less(t_fit" in texts
    assert "peak < 2 ** 20" in texts
    assert "squares[-1] == 4" in texts  # conservative: the tuple holds a time
    assert "accuracy > 0.8" not in texts
    assert len(found) == 5, found
    assert all(f.startswith(("cell 2 (hidden)", "cell 3 (hidden)")) for f in found)


def test_detector_ignores_stored_times_and_untimed_code():
    cells = chapter_cells(
        "```{code-cell} ipython3\nimport json\nstored = json.load(open('r.json'))\n"
        "assert stored['fit_seconds'] < stored['direct_seconds']\n"
        "n_iter = 12\nassert n_iter < 30\n```\n"
    )
    assert timing_asserts(cells) == []


@pytest.mark.parametrize("chapter", _chapters(), ids=lambda p: p.stem)
def test_no_assert_reads_a_live_timing(chapter):
    found = timing_asserts(chapter_cells(chapter.read_text(encoding="utf-8")))
    assert not found, (
        f"{chapter.name}: asserts that read a live timing or memory reading (a build "
        "then passes or fails by machine; compute the words with "
        "lssvm.reporting.ledger.compare_times or quote a stored run instead):\n  "
        + "\n  ".join(found)
    )
