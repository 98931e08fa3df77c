"""Let nbval execute the book's chapters, which are MyST markdown notebooks.

nbval collects only ``.ipynb`` files and reads them with ``nbformat.read``. Our
chapters are jupytext text notebooks (``book/*.md`` with a jupytext + kernelspec
header, no committed outputs), so this hook collects those files with a subclass of
nbval's collector that reads them through ``jupytext.read``. It relies on nbval's
internals (``IPyNbFile.collect`` reading ``self.fspath`` via the module-level
``nbformat``): nbval is pinned in pyproject.toml for that reason.

Run with ``pytest book --nbval-lax``: every code cell runs and fails on an error;
the numbers a chapter quotes are guarded by asserts in hidden cells.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest

HEADER_BYTES = 2000


def _is_text_notebook(path: Path) -> bool:
    if path.suffix != ".md" or path.parent.name != "book":
        return False
    head = path.read_text(encoding="utf-8")[:HEADER_BYTES]
    return head.startswith("---") and "jupytext" in head and "kernelspec" in head


def pytest_collect_file(file_path: Path, parent):
    opt = parent.config.option
    if not (getattr(opt, "nbval", False) or getattr(opt, "nbval_lax", False)):
        return None
    if _is_text_notebook(file_path):
        return MystNotebook.from_parent(parent, path=file_path)
    return None


def _make_collector():
    import jupytext
    import nbformat
    from nbval import plugin

    # nbval's collect() calls nbformat.read(path, as_version=4); give it a module
    # whose read() parses the text notebook instead (from_dict is nbformat's own).
    shim = types.SimpleNamespace(
        read=lambda path, as_version=4: jupytext.read(path),
        from_dict=nbformat.from_dict,
    )

    class _MystNotebook(plugin.IPyNbFile):
        """nbval collector for a jupytext MyST notebook."""

        def collect(self):
            real, plugin.nbformat = plugin.nbformat, shim
            try:
                yield from super().collect()
            finally:
                plugin.nbformat = real

    return _MystNotebook


class MystNotebook(pytest.File):
    """Placeholder replaced at import time by the nbval subclass (nbval is optional)."""


try:
    MystNotebook = _make_collector()  # noqa: F811
except ImportError:  # nbval/jupytext not installed: chapters are simply not collected
    pass
