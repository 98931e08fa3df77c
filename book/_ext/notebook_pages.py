"""Sphinx extension of the book: a notebook download and the runtime on each chapter.

Every chapter is a MyST text notebook (``book/<name>.md`` with a jupytext header).
At the end of an HTML build this extension writes each chapter as a Jupyter notebook,
``_notebooks/<name>.ipynb`` in the output folder (converted by jupytext, without
outputs: a reader runs it), and adds a line at the bottom of the chapter's page with
a link to that file and the time myst-nb took to execute the chapter in this build.
Nothing is committed: the notebooks exist only in the built site.
"""

from __future__ import annotations

from pathlib import Path

NOTEBOOK_DIR = "_notebooks"


def _is_chapter(env, docname: str) -> bool:
    """True for MyST notebooks: .md sources with a jupytext and kernelspec header."""
    if docname not in env.found_docs:
        return False
    path = Path(env.doc2path(docname))
    if path.suffix != ".md":
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "jupytext" in head and "kernelspec" in head


def _runtime(env, docname: str) -> float | None:
    data = getattr(env, "nb_metadata", {}).get(docname, {}).get("exec_data")
    return None if not data else data.get("runtime")


def add_download_line(app, pagename, templatename, context, doctree):
    """Append the notebook link and the execution time to a chapter's body."""
    if doctree is None or "body" not in context or not _is_chapter(app.env, pagename):
        return
    name = Path(pagename).name
    href = "../" * pagename.count("/") + f"{NOTEBOOK_DIR}/{name}.ipynb"
    runtime = _runtime(app.env, pagename)
    timing = "" if runtime is None else f" It ran in {runtime:.0f} s in this build."
    context["body"] += (
        '<p class="chapter-notebook">Run this chapter yourself: download '
        f'<a class="notebook-download" href="{href}" download>{name}.ipynb</a>'
        " (the MyST source converted to a Jupyter notebook, without outputs)."
        f"{timing}</p>"
    )


def write_notebooks(app, exception):
    """Write every chapter as ``_notebooks/<name>.ipynb`` in the HTML output."""
    if exception is not None or app.builder.format != "html":
        return
    import jupytext

    out = Path(app.outdir) / NOTEBOOK_DIR
    out.mkdir(parents=True, exist_ok=True)
    for docname in sorted(app.env.found_docs):
        if _is_chapter(app.env, docname):
            notebook = jupytext.read(app.env.doc2path(docname))
            jupytext.write(notebook, out / f"{Path(docname).name}.ipynb")


def setup(app):
    app.connect("html-page-context", add_download_line)
    app.connect("build-finished", write_notebooks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
