"""The README's Python examples run and say what they claim; its numbers agree."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def _section(title):
    text = README.read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : None if end < 0 else end]


def _block_in(title):
    blocks = re.findall(r"```python\n(.*?)```", _section(title), flags=re.S)
    assert len(blocks) == 1, f"one python block in section {title!r}"
    return blocks[0]


def test_every_python_block_is_tested_here():
    assert len(_python_blocks()) == 2  # "Use the library" and the Dask cluster


def test_readme_example_runs_and_its_comments_hold():
    namespace = {}
    code = _block_in("Use the library")
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102
    clf, reg = namespace["clf"], namespace["reg"]
    X_test, y_test = namespace["X_test"], namespace["y_test"]
    assert abs(clf.score(X_test, y_test) - 0.91) < 0.01  # "about 0.91"
    assert abs(reg.predict([[0.0]])[0] - 1.0) < 0.1  # "close to sinc(0) = 1"
    assert set(namespace["tuned"].best_params_) == {"gamma", "sigma2"}


def test_dask_example_runs_on_a_local_cluster_and_equals_the_local_fit():
    pytest.importorskip("distributed")
    import dask.array as da

    namespace = {}
    code = _block_in("Large data on a Dask cluster")
    assert "processes=False" in code and "dashboard_address=None" in code
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102
    labels, local, X_np = namespace["labels"], namespace["local"], namespace["X_np"]
    assert isinstance(labels, da.Array)  # "a Dask array"
    # "True: the same labels" (computed with the local scheduler: the client is closed)
    assert np.array_equal(labels.compute(scheduler="sync"), local.predict(X_np))
    assert namespace["cluster"].status.name == "closed"


def test_the_durations_are_stated_once_and_agree_with_the_makefile():
    """make reproduce and its quick check: the same numbers in README, Makefile and
    benchmarks/README.md (the estimate of `benchmarks/reproduce.py --estimate`)."""

    def flat(text):  # comments and wrapped lines joined
        return " ".join(text.replace("\n#", "\n").split())

    readme, makefile = README.read_text(), flat((ROOT / "Makefile").read_text())
    bench = flat((ROOT / "benchmarks" / "README.md").read_text())
    hours = re.search(r"about (\d+\.\d) hours \((\d+) minutes\)", readme).groups()
    assert f"about {hours[0]} hours ({hours[1]} minutes)" in makefile
    assert f"{hours[0]} h" in bench or f"{hours[0]} hours" in bench
    quick = re.search(
        r"\| `make reproduce QUICK=1` \| about (\d+) minutes \| (\d+) ", readme
    )
    assert f"{quick.group(2)} entries, about {quick.group(1)} minutes" in makefile
    assert f"{quick.group(2)} entries" in bench
    assert "4.2 h" not in readme + makefile and "under a minute" not in makefile
