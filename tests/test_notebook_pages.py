"""The chapter notebooks of the built book (book/_ext/notebook_pages.py).

A fabricated executed notebook is converted without a build; when a build has written
``_build/html/_notebooks``, every chapter's notebook is checked for leftover MyST.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import notebook_pages  # noqa: E402

# What Jupyter cannot render: a MyST role, a directive fence, a target line.
LEFTOVER_MYST = re.compile(r"\{[a-z][\w:-]*\}`|^[`:]{3,}\{|^\([\w-]+\)=\s*$", re.M)
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _glue(text=None, png=None):
    data = {}
    if text is not None:
        data["text/plain"] = text
    if png is not None:
        data["image/png"] = png
    return {"output_type": "display_data", "metadata": {}, "data": data}


@pytest.fixture
def refs():
    return notebook_pages.References(
        glue={
            "book/demo": {"acc": _glue("0.91234"), "n": _glue("1200"),
                          "fig_map": _glue("<Figure>", PNG)},
            "book/other": {"rate": _glue("0.5")},
        },
        numbers={"fig-map": "Fig. 3.2", "tab-acc": "Table 3.1", "demo-ex-1": "Exercise 3.1"},
        equations={"primal": "(3.5)"},
        titles={"book/other": "Another chapter", "sec-x": "A section"},
        citations={"suykens2002": ("Suykens et al.", "2002"), "vapnik1998": ("Vapnik", "1998")},
    )  # fmt: skip


def _notebook(*markdown, code_metadata=None):
    cells = [nbformat.v4.new_markdown_cell(text) for text in markdown]
    code = nbformat.v4.new_code_cell("print(1)", metadata=code_metadata or {})
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    cells.append(code)
    return json.loads(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))


def test_roles_become_the_text_of_the_built_book(refs):
    text = (
        "Accuracy {glue:text}`acc:.2f` on {glue:text}`n:,d` points, rate "
        "{glue:text}`other::rate:.0%`; {numref}`fig-map`, {numref}`Table %s <tab-acc>`, "
        "{eq}`primal`, {cite:t}`suykens2002`, {cite}`suykens2002,vapnik1998`, "
        "{doc}`other`, {doc}`the other one <other>`, {ref}`sec-x`, {eq}`unknown`."
    )
    assert notebook_pages.substitute_roles(text, "book/demo", refs) == (
        "Accuracy 0.91 on 1,200 points, rate 50%; Fig. 3.2, Table 3.1, (3.5), "
        "Suykens et al. (2002), (Suykens et al., 2002; Vapnik, 1998), Another chapter, "
        "the other one, A section, (unknown)."
    )


def test_directives_targets_and_comments_become_markdown(refs):
    source = "\n".join([
        "(sec-x)=", "## Title", "% a MyST comment", "",
        "```{math}", ":label: primal", r"\min_w \tfrac12 w^Tw", "```", "",
        "```{glue:figure} fig_map", ":name: fig-map", "", "The map of {eq}`primal`.", "```",
        "", "````{exercise}", ":label: demo-ex-1", "", "Show {eq}`primal`.", "",
        "```{math}", "a = b", "```", "````", "",
        "```python", "{eq}`kept` in a code block", "```",
    ])  # fmt: skip
    attachments = {}
    out = notebook_pages.convert_markdown(source, "book/demo", refs, attachments)
    assert "(sec-x)=" not in out and "MyST comment" not in out
    assert "$$\n\\min_w \\tfrac12 w^Tw\n\\tag{3.5}\n$$" in out
    assert "![fig_map](attachment:fig_map.png)" in out
    assert "**Fig. 3.2:** The map of (3.5)." in out
    assert attachments == {"fig_map.png": {"image/png": PNG}}
    assert "> **Exercise 3.1.**" in out and "> Show (3.5)." in out and "> $$" in out
    assert "```python\n{eq}`kept` in a code block\n```" in out  # code is left alone


def test_directives_the_book_assembles_become_a_note(refs):
    # the landing page's verdict, chapter map and status tables are assembled by
    # book/_ext/ledgers.py when the book is built; the notebook says where they are
    for name in ("reproduction-verdict", "chapter-map", "reproduction-status",
                 "reproduction-open-items"):  # fmt: skip
        source = f"```{{{name}}}\nguide | a line of the map\n```"
        out = notebook_pages.convert_markdown(source, "book/intro", refs, {})
        assert out.startswith("*(Here the built book shows "), (name, out)
        assert "```" not in out and "guide |" not in out


def test_published_notebook_keeps_outputs_and_explains_itself(refs):
    figure = {
        "mystnb": {
            "figure": {"name": "fig-map", "caption": "A map, {glue:text}`acc:.1f`."}
        }
    }
    notebook = _notebook(
        "# Demo\n\nAccuracy {glue:text}`acc:.3f`.", code_metadata=figure
    )
    published = notebook_pages.published_notebook(
        notebook, "book/demo", refs, 12.0, "2026"
    )
    nbformat.validate(nbformat.from_dict(published))
    kinds = [cell["cell_type"] for cell in published["cells"]]
    assert kinds == ["markdown", "markdown", "code", "markdown"]
    first = published["cells"][0]["source"]
    assert "book/demo.md" in first and "rerunning" in first and "12 s" in first
    assert published["cells"][1]["source"] == "# Demo\n\nAccuracy 0.912."
    assert "".join(published["cells"][2]["outputs"][0]["text"]) == "1\n"  # kept
    assert published["cells"][3]["source"] == "**Fig. 3.2:** A map, 0.9."
    assert "{glue:text}" in "".join(notebook["cells"][0]["source"])  # input unmodified


def test_a_missing_glue_key_is_visible_not_silent(refs):
    out = notebook_pages.substitute_roles("{glue:text}`nope:.2f`", "book/demo", refs)
    assert out == "[nope]"


def test_a_value_that_cannot_be_formatted_is_written_as_stored(refs):
    refs.glue["book/demo"]["odd"] = _glue("np.float64(0.5)")  # myst-nb warns on it
    out = notebook_pages.substitute_roles("{glue:text}`odd:.2f`", "book/demo", refs)
    assert out == "np.float64(0.5)"


BUILT = sorted((ROOT / "_build" / "html" / notebook_pages.NOTEBOOK_DIR).glob("*.ipynb"))


@pytest.mark.skipif(not BUILT, reason="no built book (_build/html/_notebooks)")
@pytest.mark.parametrize("path", BUILT, ids=[p.stem for p in BUILT])
def test_every_built_chapter_notebook_is_plain_markdown(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    nbformat.validate(nbformat.from_dict(notebook))
    markdown = [c["source"] for c in notebook["cells"] if c["cell_type"] == "markdown"]
    assert "About this notebook" in markdown[0]
    for cell in notebook["cells"]:  # Markdown outputs (ledger tables) are converted too
        for output in cell.get("outputs", []):
            if "text/markdown" in output.get("data", {}):
                markdown.append("".join(output["data"]["text/markdown"]))
    for text in markdown:
        prose = re.sub(r"^(`{3,}|~{3,})[^{\n]*\n.*?^\1", "", text, flags=re.S | re.M)
        assert not LEFTOVER_MYST.search(prose), LEFTOVER_MYST.search(prose).group(0)
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert code and any(c["outputs"] for c in code), "the executed notebook has outputs"
