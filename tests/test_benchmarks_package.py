"""benchmarks/ is a package that the chapters import (``from benchmarks import uci``),
importable from the venv that ``make`` builds and never shipped in the wheel."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_benchmarks_imports_from_any_directory():
    # the Makefile writes a .pth with the repository root into the venv's
    # site-packages; a kernel started in book/ or a script started in /tmp sees it
    code = "import benchmarks, benchmarks.uci; print(benchmarks.__file__)"
    run = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, (
        "`import benchmarks` failed outside the repository: the venv lacks the .pth "
        f"file that the Makefile's install step writes (make .venv/.repository_pth)\n"
        f"{run.stderr}")
    assert Path(run.stdout.strip()) == ROOT / "benchmarks" / "__init__.py"


def test_wheel_does_not_ship_benchmarks():
    # the packages the wheel holds: setuptools' find with pyproject.toml's include
    import tomllib  # Python 3.11+, as in tests/test_release.py
    from setuptools import find_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    find = config["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(ROOT), include=find["include"])
    assert "lssvm" in packages
    assert not [p for p in packages if p.split(".")[0] != "lssvm"], packages


def test_no_sys_path_edits_for_benchmarks():
    # chapters import the package; the scripts import each other through it
    for path in sorted((ROOT / "book").glob("*.md")):
        assert "sys.path.insert" not in path.read_text(), path.name
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        text = path.read_text()
        assert "sys.path.insert" not in text, path.name  # the .pth puts the root there
        assert not re.search(r'sys\.path\.insert\(.*(parent\)|"benchmarks"|HERE)', text), \
            path.name
        assert not re.search(r"^\s*(from _common |import _common\b)", text, re.M), path.name


def test_save_json_is_the_one_results_writer():
    # every script writes its results file through _common.save_json (stamp, indent 1,
    # trailing newline, atomic)
    writers = []
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name in ("_common.py", "reproduce.py"):
            continue
        if re.search(r"write_text\(\s*json\.dumps|json\.dump\(", path.read_text()):
            writers.append(path.name)
    assert not writers, f"write results through _common.save_json: {writers}"


def test_save_json_and_open_results(tmp_path):
    from benchmarks import _common

    out = tmp_path / "sub" / "r.json"
    results, runs = _common.open_results(out, 3, n_rand=2, paper={"a": 1})
    assert list(results["protocol"])[:3] == ["n_rand", "seed", "search"]
    runs["iri"] = {"moc": [0.5]}
    _common.save_json(out, results, ["benchmarks/x.py", "--sets", "iri"])
    text = out.read_text()
    assert text.endswith("}\n") and text.startswith('{\n "paper"')
    assert not list(out.parent.glob("*.tmp"))
    again, runs = _common.open_results(out, 3, n_rand=2)
    assert runs == {"iri": {"moc": [0.5]}} and again["paper"] == {"a": 1}
    assert again["provenance"][0]["command"] == "python benchmarks/x.py --sets iri"
    with pytest.raises(ValueError, match="seed 3, not 4"):
        _common.open_results(out, 4)
    # a caller that stamped and annotated its entry keeps the annotation
    _common.stamp(again)
    again["provenance"][-1]["parts"] = "a,b"
    _common.save_json(out, again, stamp_pass=False)
    assert json.loads(out.read_text())["provenance"][-1]["parts"] == "a,b"


MODULES = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py")
                 if p.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports_from_the_package(name):
    import importlib

    module = importlib.import_module(f"benchmarks.{name}")
    assert Path(module.__file__) == ROOT / "benchmarks" / f"{name}.py"
