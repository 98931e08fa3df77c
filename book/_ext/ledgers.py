"""Sphinx extension of the book: the reproduction status, assembled from the ledgers.

Every chapter that reproduces a source ends with a reproduction ledger
(:class:`lssvm.reporting.ledger.Ledger`), which the chapter writes to
``_build/ledgers/<chapter>.json`` when it is executed (``$LSSVM_LEDGER_DIR`` when
set). Once every page has been read (and so executed), this extension fills in what
the pages ask for with these directives and one role:

- ``{reproduction-verdict}``: three sentences, how many source entries are reproduced
  and where the differences are (the landing page opens with them);
- ``{chapter-map}``: one row per page of the table of contents, its number and its
  title (both from the build), and the topic and sources the directive's content gives
  for it, one line ``<page> | <topic> | <what it reproduces>`` each; a page of the
  table of contents without a line, or a line for no such page, is a warning;
- ``{reproduction-status}``: per chapter the source entries of each verdict, with
  the rows judged "reproduced qualitatively" whose cause begins "consistent
  (unresolved), not a reproduction" in a column "Unresolved" of their own
  (:data:`COLUMNS`; no verdict is added);
- ``{reproduction-open-items}``: every row whose verdict is not "reproduced", one
  table per column of the status table (the unresolved rows apart), with the values
  and the cause, under a heading that gives its rows and source entries;
- ``{reproduction-number}`key```: a number in the prose (``rows``, ``se-entries``,
  ``chance-flags``, ``chance-rate``, ``se-flagged``, ``se-flagged-near``,
  ``holm-entries``, ``holm-tables``, ``holm-flagged``, ``holm-k-max``,
  ``grouped-rows``, ``grouped-entries``, ``entries``, ``deviation-rows``,
  ``unresolved-rows``, ``unresolved-entries``, and per verdict ``<verdict>-rows`` and
  ``<verdict>-entries``, e.g. ``not-reproduced-entries``; :func:`number_text` lists
  them all);
- ``{reproduction-json}`text```: a link to ``reproduction.json``.

Every source entry is counted once: a row with an ``owner`` (an entry that another
chapter owns, shown with "see <owner>") is skipped everywhere. The counts are of
source entries (:func:`entries`): most rows are one entry, a row whose ``ours`` value
begins with "N entries" summarises N entries of a table (see :func:`group_size`), and
a row whose cause begins "deviation:" records a deviation of our protocol, not an
entry, and counts none; the verdict and the status page also say how many rows the
entries come from. At the end of an HTML
build the extension writes every row of every ledger, with the commit, the date and
the package's version, to ``reproduction.json`` at the root of the output.

A chapter whose source calls ``Ledger(`` but left no ledger file, or whose ledger
was written from another version of its source, is reported as a warning (an error
under ``-W``). The assembly is done by pure functions (:func:`assemble`,
:func:`verdict_sentences`, :func:`multiplicity`, :func:`reproduction_record`, ...),
tested without a build in ``tests/test_landing.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
from datetime import datetime, timezone
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from ledger_assembly import (  # the pure assembly (tests/test_landing.py)
    JSON_NAME,
    MAP_HEADER,
    OPEN_HEADER,
    SUMMARY_HEADER,
    assemble,
    chapter_map_rows,
    column,
    git_commit,
    number_text,
    open_heading,
    open_item_tables,
    owned_rows,
    parse_chapter_map,
    reproduction_record,
    rows_and_entries,
    short_title,
    verdict_sentences,
)
from sphinx.util import logging

from lssvm.reporting.ledger import LEDGER_DIR_ENV

logger = logging.getLogger(__name__)
STATUS_DOC = "book/reproduction_status"  # the page with {reproduction-open-items}

# --- Sphinx: placeholders filled in once every page is read -------------------------


class LedgerPlaceholder(nodes.General, nodes.Element):
    """Replaced when the page is written; ``kind`` says by what."""


class NumberPlaceholder(nodes.Inline, nodes.TextElement):
    """Replaced by the number ``key`` when the page is written."""


def _note_page(env, docname):
    if not hasattr(env, "ledger_pages"):
        env.ledger_pages = set()
    env.ledger_pages.add(docname)


class _Placeholder(Directive):
    kind = ""
    has_content = False

    def run(self):
        _note_page(
            self.state.document.settings.env, self.state.document.settings.env.docname
        )
        return [LedgerPlaceholder(kind=self.kind)]


class ReproductionStatus(_Placeholder):
    kind = "status"


class ReproductionVerdict(_Placeholder):
    kind = "verdict"


class ReproductionOpenItems(_Placeholder):
    kind = "open-items"


class ChapterMap(Directive):
    """``<page> | <topic> | <reproduces>`` lines; topic and sources are MyST inline."""

    has_content = True

    def run(self):
        env = self.state.document.settings.env
        _note_page(env, env.docname)
        described, errors = parse_chapter_map(list(self.content))
        out = LedgerPlaceholder(kind="map")
        for error in errors:
            logger.warning(error, location=(env.docname, self.lineno))
        for page, (topic, reproduces) in described.items():
            cell = nodes.container(page=page)  # parsed now: roles resolve as usual
            for text in (topic, reproduces):
                para = nodes.paragraph()
                parsed, messages = self.state.inline_text(text, self.lineno)
                para += parsed
                cell += para
                cell += messages
            out += cell
        return [out]


def number_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    env = inliner.document.settings.env
    _note_page(env, env.docname)
    return [NumberPlaceholder(rawtext, "", key=text.strip())], []


def json_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{reproduction-json}`text```: a link to reproduction.json (written at the end
    of the build, at the root of the HTML output)."""
    uri = _json_uri(inliner.document.settings.env.docname)
    return [nodes.reference(rawtext, text.strip() or JSON_NAME, refuri=uri)], []


INLINE_MATH = re.compile(r"\$([^$\n]+)\$")  # $\gamma$ in a ledger's item or cause


def inline(text: str) -> list[nodes.Node]:
    """Text with its ``$...$`` spans as inline math nodes (MathJax renders them)."""
    out, at = [], 0
    for m in INLINE_MATH.finditer(text):
        if m.start() > at:
            out.append(nodes.Text(text[at : m.start()]))
        out.append(nodes.math(m.group(1), m.group(1)))
        at = m.end()
    if at < len(text):
        out.append(nodes.Text(text[at:]))
    return out


def _table(header, rows, classes, widths=None) -> nodes.table:
    """A docutils table; a cell is text, a node, or a list of nodes."""
    table = nodes.table(classes=[*classes, *(["colwidths-given"] if widths else [])])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths or [1] * len(header):
        group += nodes.colspec(colwidth=width)
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
        for value in values:
            entry = nodes.entry()
            if isinstance(value, str):
                entry += nodes.paragraph("", "", *inline(value))
            elif isinstance(value, nodes.paragraph):
                entry += value
            else:
                entry += nodes.paragraph(
                    "", "", *([value] if isinstance(value, nodes.Node) else value)
                )
            row += entry
        body += row
    return table


def _ledger_dir(app) -> Path:
    """$LSSVM_LEDGER_DIR (where the chapters wrote them) or _build/ledgers."""
    if os.environ.get(LEDGER_DIR_ENV):
        return Path(os.environ[LEDGER_DIR_ENV])
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
        ledger["matches_source"] = ledger.get("source_sha1") in (None, digest)
        if not ledger["matches_source"]:
            logger.warning(f"{path} was written by another version of {source}")
        out.append(ledger)
    return out


def _order(app) -> list[str]:
    """The pages of the table of contents, in reading order (the root's toctree)."""
    return list(app.env.toctree_includes.get(app.config.root_doc, []))


def _titles(app, docnames) -> dict[str, str]:
    return {d: app.env.titles[d].astext() for d in docnames if d in app.env.titles}


def _numbers(app, docnames) -> dict[str, str]:
    """The chapter numbers Sphinx gave the pages ("3"), where the toc is numbered."""
    out = {}
    for d in docnames:
        number = getattr(app.env, "toc_secnumbers", {}).get(d, {}).get("")
        if number:
            out[d] = ".".join(map(str, number))
    return out


def _cache(app) -> dict:
    """The ledgers and titles, read once per build (pages are written one by one)."""
    if getattr(app, "_ledgers_cache", None) is None:
        order = _order(app)
        ledgers = read_ledgers(app, order)
        titles = _titles(app, order)
        by_chapter = {posixpath.basename(d): d for d in order}
        app._ledgers_cache = {
            "order": order,
            "ledgers": ledgers,
            "titles": titles,
            "chapter_titles": {c: titles.get(d, c) for c, d in by_chapter.items()},
            "by_chapter": by_chapter,
            "numbers": _numbers(app, order),
        }
    return app._ledgers_cache


def _link(app, docname, target_doc, text) -> nodes.Node:
    if target_doc in app.env.all_docs:
        uri = app.builder.get_relative_uri(docname, target_doc)
        return nodes.reference(text, text, internal=True, refuri=uri)
    logger.warning(
        f"{docname}: {target_doc} is not part of the book; cannot link {text!r}"
    )
    return nodes.Text(text)


def _json_uri(docname) -> str:
    return posixpath.relpath(JSON_NAME, posixpath.dirname(docname) or ".")


def _chapter_cell(app, docname, chapter, c, full=False):
    """The chapter's number and (short) title, linked; "all chapters" as it is."""
    target = c["by_chapter"].get(chapter)
    title = c["chapter_titles"].get(chapter, chapter)
    text = title if full else short_title(title)
    if chapter == "all chapters" or target is None:
        return nodes.Text(text) if full else text
    number = c["numbers"].get(target)
    return _link(app, docname, target, f"{number}. {text}" if number else text)


def _verdict(app, docname, c):
    para = nodes.paragraph(classes=["reproduction-verdict"])
    for i, sentence in enumerate(verdict_sentences(c["ledgers"], c["chapter_titles"])):
        if i:
            para += nodes.Text(" ")
        for segment in sentence:
            if isinstance(segment, str):
                para += nodes.Text(segment)
            elif segment[1] == "status":
                para += _link(app, docname, STATUS_DOC, segment[0])
            elif segment[1] == "json":
                para += nodes.reference(
                    segment[0], segment[0], refuri=_json_uri(docname)
                )
            else:
                para += _link(app, docname, c["by_chapter"][segment[1]], segment[0])
    return [para]


def _status(app, docname, c):
    summary, _ = assemble(c["ledgers"])
    rows = [[_chapter_cell(app, docname, s[0], c), *s[1:]] for s in summary]
    return [_table(SUMMARY_HEADER, rows, ["ledger-status", "landing-status"])]


def _open_items(app, docname, c):
    """Per column of the status table (but "reproduced") a heading with its rows and
    entries, then per chapter its rows, with the rows and entries they count."""
    out = []
    owned = {ledger["chapter"]: owned_rows(ledger) for ledger in c["ledgers"]}
    for name, rows in open_item_tables(c["ledgers"]).items():
        out.append(nodes.rubric(text=open_heading(c["ledgers"], name)))
        chapters = list(dict.fromkeys(r[0] for r in rows))
        for chapter in chapters:
            mine = [r[1:] for r in rows if r[0] == chapter]
            counted = [r for r in owned[chapter] if column(r) == name]
            out.append(
                nodes.paragraph(
                    "",
                    "",
                    _chapter_cell(app, docname, chapter, c, full=True),
                    nodes.Text(f": {rows_and_entries(counted)}"),
                    classes=["open-items-chapter"],
                )
            )
            out.append(_table(OPEN_HEADER[1:], mine, ["open-items"]))
    return out


def _map(app, docname, c, node):
    described = {cell["page"]: cell for cell in node.children}
    rows, problems = chapter_map_rows(c["order"], described, c["numbers"], c["titles"])
    for problem in problems:
        logger.warning(problem, location=docname)
    cells = []
    for target, label, page in rows:
        topic, reproduces = [
            n for n in described[page].children if isinstance(n, nodes.paragraph)
        ]
        cells.append(
            [
                _link(app, docname, target, label),
                topic.deepcopy(),
                reproduces.deepcopy(),
            ]
        )
    return [_table(MAP_HEADER, cells, ["chapter-map"])]


def _resolve(app, doctree, docname):
    placeholders = list(doctree.findall(LedgerPlaceholder))
    numbers = list(doctree.findall(NumberPlaceholder))
    if not placeholders and not numbers:
        return
    c = _cache(app)
    for node in placeholders:
        kind = node["kind"]
        if kind == "map":
            node.replace_self(_map(app, docname, c, node))
        elif kind == "verdict":
            node.replace_self(_verdict(app, docname, c))
        elif kind == "status":
            node.replace_self(_status(app, docname, c))
        else:
            node.replace_self(_open_items(app, docname, c))
    for node in numbers:
        try:
            text = number_text(c["ledgers"], node["key"])
        except ValueError as error:
            logger.warning(str(error), location=docname)
            text = "??"
        node.replace_self(nodes.Text(text))
    if any(True for _ in doctree.findall(nodes.math)):
        # the math domain decides per page whether MathJax is loaded; the tables were
        # filled in after it looked, so tell it that this page has equations now
        app.env.get_domain("math").data["has_equations"][docname] = True


def _env_updated(app, env):
    """Pages that show ledgers are rewritten at every build: the ledgers may have
    changed while their own sources did not."""
    app._ledgers_cache = None
    return sorted(getattr(env, "ledger_pages", set()) & set(env.found_docs))


def _purge(app, env, docname):
    getattr(env, "ledger_pages", set()).discard(docname)


def _merge(app, env, docnames, other):
    if not hasattr(env, "ledger_pages"):
        env.ledger_pages = set()
    env.ledger_pages |= getattr(other, "ledger_pages", set()) & set(docnames)


def write_json(app, exception):
    """``reproduction.json`` at the root of the HTML output: every ledger row."""
    if exception is not None or app.builder.format != "html":
        return
    import lssvm

    c = _cache(app)
    commit, dirty = git_commit(app.srcdir)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (
        datetime.fromtimestamp(int(epoch), timezone.utc)
        if epoch
        else datetime.now(timezone.utc)
    )
    record = reproduction_record(
        c["ledgers"],
        commit=commit,
        dirty=dirty,
        date=when.isoformat(timespec="seconds"),
        version=lssvm.__version__,
        titles=c["chapter_titles"],
    )
    path = Path(app.outdir) / JSON_NAME
    path.write_text(
        json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def _add_css(app, config):
    """The landing page's CSS (book/_static/landing.css): status columns sized to their
    content, so that no header breaks inside a word."""
    static = Path(__file__).resolve().parents[1] / "_static"
    config.html_static_path = [*config.html_static_path, str(static)]
    app.add_css_file("landing.css")


def setup(app):
    app.add_node(LedgerPlaceholder)
    app.add_node(NumberPlaceholder)
    app.add_directive("reproduction-status", ReproductionStatus)
    app.add_directive("reproduction-verdict", ReproductionVerdict)
    app.add_directive("reproduction-open-items", ReproductionOpenItems)
    app.add_directive("chapter-map", ChapterMap)
    app.add_role("reproduction-number", number_role)
    app.add_role("reproduction-json", json_role)
    app.connect("config-inited", _add_css)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-updated", _env_updated)
    app.connect("doctree-resolved", _resolve)
    app.connect("build-finished", write_json)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
