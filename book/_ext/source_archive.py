"""Sphinx extension of the book: the package's source, downloadable from the book.

The book is the package's documentation, so a reader who has only the book can
install the package from it: at the end of an HTML build this extension writes
``lssvm-<version>.tar.gz`` to the root of the output, a source archive of what
``pip install`` needs (``pyproject.toml``, ``README.md``, ``LICENSE``,
``CITATION.cff`` and the files of ``lssvm/``), and the role ``{source-archive}`text```
links to it (``{name}`` in its text becomes the file's name).
``pip install lssvm-<version>.tar.gz`` builds and installs it like a clone's
``pip install .``.

The archive is deterministic: the files git tracks (every file below ``lssvm/`` but
caches when git is not available), in sorted order, with fixed times and owners, so
two builds of one commit give the same bytes.
"""

from __future__ import annotations

import gzip
import io
import posixpath
import subprocess
import tarfile
from pathlib import Path

from docutils import nodes

TOP_FILES = ("pyproject.toml", "README.md", "LICENSE", "CITATION.cff")
PACKAGE = "lssvm"


def archive_name(version: str) -> str:
    return f"lssvm-{version}.tar.gz"


def source_files(root: Path) -> list[str]:
    """Paths (relative, POSIX) of the files the archive holds, sorted."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", *TOP_FILES, PACKAGE],
            cwd=root, capture_output=True, text=True, check=True, timeout=30,
        ).stdout.split()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        listed = [f for f in TOP_FILES if (root / f).is_file()] + [
            p.relative_to(root).as_posix()
            for p in (root / PACKAGE).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        ]
    return sorted(f for f in listed if (root / f).is_file())


def write_archive(root: Path, out: Path, version: str) -> Path:
    """Write the source archive of ``root`` to ``out`` (a folder); return its path."""
    prefix = f"lssvm-{version}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in source_files(root):
            data = (root / name).read_bytes()
            info = tarfile.TarInfo(f"{prefix}/{name}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    path = Path(out) / archive_name(version)
    with open(path, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, mtime=0
    ) as gz:
        gz.write(buffer.getvalue())
    return path


def _version() -> str:
    import lssvm

    return lssvm.__version__


def source_archive_role(name, rawtext, text, lineno, inliner, options=None, content=None):  # noqa: E501
    """``{source-archive}`text```: a link to the archive at the root of the output;
    ``{name}`` in the text becomes the archive's file name."""
    docname = inliner.document.settings.env.docname
    name = archive_name(_version())
    uri = posixpath.relpath(name, posixpath.dirname(docname) or ".")
    label = text.replace("{name}", name)
    return [nodes.reference(rawtext, label, refuri=uri)], []


def _write(app, exception):
    if exception is None and app.builder.format == "html":
        write_archive(Path(app.srcdir), Path(app.outdir), _version())


def setup(app):
    app.add_role("source-archive", source_archive_role)
    app.connect("build-finished", _write)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
