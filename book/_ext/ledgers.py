"""Sphinx extension of the book: the landing page's status table, from the ledgers.

Every chapter that reproduces a source ends with a reproduction ledger
(:class:`lssvm.reporting.ledger.Ledger`), which the chapter writes to
``_build/ledgers/<chapter>.json`` when it is executed. The landing page holds the
directive ``{reproduction-status}``; once every chapter has been read (and so
executed), this extension replaces the directive with two tables assembled from
those files: one line per chapter with the count of each verdict, and one line per
item whose verdict is not "reproduced", with its cause. The landing page therefore
cannot disagree with a chapter.

A chapter whose source calls ``Ledger(`` but left no ledger file, or whose ledger
was written from another version of its source, is reported as a warning (an error
under ``-W``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.util import logging

from lssvm.reporting.ledger import VERDICTS  # the one list of verdicts

logger = logging.getLogger(__name__)

SUMMARY_HEADER = ["Chapter", *[v.capitalize() for v in VERDICTS]]
OPEN_HEADER = ["Chapter", "Item", "Verdict", "Cause"]  # values: in the chapter's ledger


class status_placeholder(nodes.General, nodes.Element):
    """Replaced by the assembled tables once all chapters are read."""


class ReproductionStatus(Directive):
    has_content = False

    def run(self):
        return [status_placeholder()]


def assemble(ledgers: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    """The two tables' rows from the chapters' ledgers (in reading order).

    Returns ``(summary, open_items)``: per chapter the number of items of each
    verdict, and every item that is not "reproduced" with its verdict and cause (the
    values are in the chapter's ledger, which the chapter column links to).
    """
    summary, open_items = [], []
    for ledger in ledgers:
        rows = [r for r in ledger["rows"] if not r.get("owner")]  # one owner per entry
        summary.append(
            [ledger["chapter"], *[str(sum(r["verdict"] == v for r in rows)) for v in VERDICTS]]
        )
        for r in rows:
            if r["verdict"] != "reproduced":
                open_items.append([ledger["chapter"], r["item"], r["verdict"], r["cause"]])
    total = [sum(int(s[i]) for s in summary) for i in range(1, len(VERDICTS) + 1)]
    summary.append(["all chapters", *[str(t) for t in total]])
    return summary, open_items


def _table(header: list[str], rows: list[list[str]], link=None) -> nodes.table:
    """A plain docutils table; ``link(chapter)`` makes the first column a link."""
    table = nodes.table(classes=["ledger-status"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for text in header:
        row += nodes.entry("", nodes.paragraph(text=text))
    head += row
    body = nodes.tbody()
    group += body
    for values in rows:
        row = nodes.row()
        for i, text in enumerate(values):
            para = nodes.paragraph()
            uri = link(text) if (i == 0 and link) else None
            para += nodes.reference(text, text, refuri=uri) if uri else nodes.Text(text)
            row += nodes.entry("", para)
        body += row
    return table


def _ledger_dir(app) -> Path:
    return Path(app.outdir).parent / "ledgers"


def read_ledgers(app, docnames: list[str]) -> list[dict]:
    """The ledgers of the chapters, in the order of the table of contents."""
    out = []
    directory = _ledger_dir(app)
    for docname in docnames:
        chapter = Path(docname).name
        source = Path(app.env.doc2path(docname))
        if not source.exists() or "Ledger(" not in source.read_text(encoding="utf-8"):
            continue
        path = directory / f"{chapter}.json"
        if not path.exists():
            logger.warning(f"{docname} has a ledger but {path} is missing: rebuild it")
            continue
        ledger = json.loads(path.read_text(encoding="utf-8"))
        digest = hashlib.sha1(source.read_bytes()).hexdigest()
        if ledger.get("source_sha1") not in (None, digest):
            logger.warning(f"{path} was written by another version of {source}")
        out.append(ledger)
    return out


def _resolve(app, doctree, docname):
    placeholders = list(doctree.findall(status_placeholder))
    if not placeholders:
        return
    order = [d for d in app.env.toctree_includes.get(app.config.root_doc, [])]
    summary, open_items = assemble(read_ledgers(app, order))

    def link(chapter):
        target = next((d for d in order if Path(d).name == chapter), None)
        return app.builder.get_relative_uri(docname, target) if target else None

    for node in placeholders:
        node.replace_self(
            [
                _table(SUMMARY_HEADER, summary, link),
                nodes.paragraph(
                    text="Every item whose verdict is not \u201creproduced\u201d:"
                ),
                _table(OPEN_HEADER, open_items, link),
            ]
        )


def setup(app):
    app.add_node(status_placeholder)
    app.add_directive("reproduction-status", ReproductionStatus)
    app.connect("doctree-resolved", _resolve)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
