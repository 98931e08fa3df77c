"""The release files: one version, a license, a citation that agrees with the package."""

from __future__ import annotations

import re
from pathlib import Path

import lssvm

ROOT = Path(__file__).resolve().parents[1]


def test_version_has_one_source():
    """pyproject.toml reads lssvm.__version__; CITATION.cff carries the same version."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic = \["version"\]', pyproject, re.M)
    assert not re.search(r'^version = "', pyproject, re.M)  # no typed version
    assert 'version = { attr = "lssvm.__version__" }' in pyproject
    cff = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^version: (\S+)$", cff, re.M).group(1) == lssvm.__version__
    assert not re.search(r"version \d+\.\d+", (ROOT / "book" / "intro.md").read_text())


def test_license_and_citation_exist():
    license_text = (ROOT / "LICENSE").read_text()
    assert "BSD 3-Clause License" in license_text and "The lssvm developers" in license_text
    assert 'license = { text = "BSD-3-Clause" }' in (ROOT / "pyproject.toml").read_text()
    cff = (ROOT / "CITATION.cff").read_text()
    assert cff.startswith("cff-version: 1.2.0") and "license: BSD-3-Clause" in cff
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")


def test_no_file_points_outside_the_repository():
    """Facts are stated where they are used, never by a path to the team's shared folder.

    The folder beside the repository (writing rules, tooling notes, reviews, papers) is
    not part of what users get; the patterns are built so this file does not match.
    """
    shared = "sha" + "red"
    pattern = re.compile(
        rf"\.\./{shared}|{shared}/(reviews|seeds|hooks)|TOOL" + r"ING\.md|STY" + r"LE\.md"
        + r"|" + "style" + r" guide"
    )
    found = []
    for path in ROOT.rglob("*"):
        if any(p in path.parts for p in (".git", ".venv", "_build", "node_modules")):
            continue
        if path.is_file() and path.suffix in (".py", ".md", ".toml", ".yml", ".cfg", ""):
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            if pattern.search(text):
                found.append(str(path.relative_to(ROOT)))
    assert found == [], found


def test_library_extras_are_ranges_and_the_build_uses_the_lock():
    """Users get ranges (no clash with their environment); make gets the lock file."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for req in project["dependencies"]:
        assert "==" not in req, req
    for extra, reqs in project["optional-dependencies"].items():
        for req in reqs:
            assert "==" not in req, f"[{extra}] pins {req}: use a range"
    lock = (ROOT / "requirements-lock.txt").read_text().splitlines()
    pins = [line for line in lock if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[^=\s]+", p) for p in pins)
    names = {p.split("==")[0].lower().replace("_", "-") for p in pins}
    for needed in ("numpy", "scipy", "scikit-learn", "jupyter-book", "nbval", "dask"):
        assert needed in names, needed
    assert "lssvm" not in names  # installed from the checkout, editable
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --no-deps -r requirements-lock.txt" in makefile


def test_the_books_source_archive_installs(tmp_path):
    """The landing page links lssvm-<version>.tar.gz (book/_ext/source_archive.py):
    deterministic, and pip builds and installs the package from it."""
    import subprocess
    import sys
    import tarfile

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import source_archive

    a = source_archive.write_archive(ROOT, tmp_path, "0.0.0")
    (tmp_path / "again").mkdir()
    b = source_archive.write_archive(ROOT, tmp_path / "again", "0.0.0")
    assert a.read_bytes() == b.read_bytes()
    names = set(tarfile.open(a).getnames())
    assert {"lssvm-0.0.0/pyproject.toml", "lssvm-0.0.0/lssvm/__init__.py"} <= names
    assert "lssvm-0.0.0/lssvm/reporting/lssvm.mplstyle" in names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--target", str(target), str(a)],
        check=True, timeout=300,
    )  # fmt: skip
    assert (target / "lssvm" / "linalg" / "solvers.py").is_file()
