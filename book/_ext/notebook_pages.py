"""Sphinx extension of the book: a notebook download and the runtime on each chapter.

Every chapter is a MyST text notebook (``book/<name>.md`` with a jupytext header).
At the end of an HTML build this extension writes each chapter as a Jupyter notebook,
``_notebooks/<name>.ipynb`` in the output folder, and adds a line at the bottom of the
chapter's page with a link to that file and the time myst-nb took to execute the
chapter (in this build, or in the build whose outputs the execution cache kept).

The notebook is the one myst-nb executed in this build (``_build/jupyter_execute``),
with its outputs, made readable outside the book: the Markdown cells keep no MyST
syntax that Jupyter cannot render. Glued values (``{glue:text}`key:.2f```) are
replaced by their text from this build (myst-nb stores glue in outputs whose metadata
holds ``scrapbook`` and whose MIME types start with ``application/papermill.record/``,
removes them from the executed notebook and writes them to ``<name>.glue.json``);
cross-references become plain text with the book's numbers (``{numref}`` "Fig. 3.2",
``{eq}`` "(3.5)", ``{cite:t}`` "Suykens et al. (2002)", ``{doc}`` and ``{ref}`` titles);
labelled ``{math}`` blocks become ``$$ ... \\tag{3.5} $$``; ``{glue:figure}`` becomes
the glued image (a cell attachment) with its numbered caption; figure cells get their
numbered caption below. A first Markdown cell says where the numbers come from and
that rerunning the code does not update the text. Nothing is committed: the notebooks
exist only in the built site.

The conversion (:func:`published_notebook`) takes plain tables (:class:`References`),
so that it is tested without a build (``tests/test_notebook_pages.py``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import posixpath
import re
import time
from ast import literal_eval
from dataclasses import dataclass, field
from pathlib import Path

NOTEBOOK_DIR = "_notebooks"
EXECUTE_DIR = "jupyter_execute"  # myst-nb's output folder, beside the HTML folder

ROLE = re.compile(
    r"\{(glue:text|glue:any|glue|numref|eq|cite:t|cite:p|cite|doc|ref|reproduction-number|reproduction-json|source-archive)\}`([^`]*)`"
)
FENCE_OPEN = re.compile(r"^(`{3,}|:{3,})\{([\w:-]+)\}[ \t]*(.*)$")
PLAIN_FENCE = re.compile(r"^(`{3,}|~{3,})")
OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*)$")
TARGET = re.compile(r"^\(([^()\s]+)\)=\s*$")
COMMENT = re.compile(r"^%( |$)")


@dataclass
class References:
    """Everything the Markdown of a chapter refers to, as plain text.

    ``glue``: document -> key -> glue output (``{"data": {mime: value}}``);
    ``numbers``: label -> "Fig. 3.2" / "Table 4.1" / "Exercise 1.2";
    ``equations``: label -> "(3.5)"; ``titles``: document or label -> title;
    ``citations``: key -> (authors, year), e.g. ("Suykens et al.", "2002").
    """

    glue: dict[str, dict[str, dict]] = field(default_factory=dict)
    numbers: dict[str, str] = field(default_factory=dict)
    equations: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)


def format_plain_text(text: str, spec: str) -> str:
    """myst-nb's ``{glue:text}`` formatting (``myst_nb.core.variables``)."""
    try:
        value = literal_eval(text)
    except (SyntaxError, ValueError):
        value = text
    if spec == "":
        return str(value)
    kind = spec[-1]
    if kind == "s":
        value = str(value)
    elif kind in "bcdoxX":
        value = int(value)
    elif kind in "eEfFgGn%":
        value = float(value)
    return format(value, spec)


def _split_title(text: str) -> tuple[str | None, str]:
    """``Title <target>`` -> ("Title", "target"); ``target`` -> (None, "target")."""
    match = re.fullmatch(r"\s*(.*?)\s*<([^<>]+)>\s*", text, flags=re.S)
    return (match.group(1), match.group(2)) if match else (None, text.strip())


def _cite(keys: str, kind: str, refs: References) -> str:
    parts = []
    for key in (k.strip() for k in keys.split(",") if k.strip()):
        authors, year = refs.citations.get(key, (key, ""))
        if kind == "t":
            parts.append(f"{authors} ({year})" if year else authors)
        else:
            parts.append(f"{authors}, {year}" if year else authors)
    return ", ".join(parts) if kind == "t" else f"({'; '.join(parts)})"


def _glue_output(reference: str, docname: str, refs: References) -> tuple[str, dict]:
    """(key, glue output) of ``[doc::]key``; ``doc`` is relative to ``docname``'s folder
    (as myst-nb reads it), or to the source folder when it starts with ``/``."""
    doc, _, key = reference.strip().rpartition("::")
    if doc:
        folder = "" if doc.startswith("/") else posixpath.dirname(docname)
        doc = posixpath.splitext(
            posixpath.normpath(posixpath.join(folder, doc.lstrip("/")))
        )[0]
    return key, refs.glue.get(doc or docname, {}).get(key) or {}


def _glue_text(text: str, docname: str, refs: References, any_role: bool) -> str:
    """``{glue:text}`[doc::]key[:format]``` as myst-nb writes it; ``{glue}`` plain."""
    parts = text.rsplit(":", 1)
    key, spec = (parts[0], parts[1]) if len(parts) == 2 and not any_role else (text, "")
    name, output = _glue_output(key, docname, refs)
    if "text/plain" not in output.get("data", {}):
        return f"[{name}]"
    text = output["data"]["text/plain"]
    try:
        return format_plain_text(text, spec)
    except (TypeError, ValueError):  # myst-nb warns (the build fails under -W)
        return text


def substitute_roles(text: str, docname: str, refs: References) -> str:
    """Replace every MyST role the chapters use by its text in the built book."""

    def replace(match: re.Match) -> str:
        role, content = match.group(1), match.group(2)
        if role.startswith("glue"):
            return _glue_text(content, docname, refs, any_role=role != "glue:text")
        if role.startswith("cite"):
            return _cite(content, "t" if role == "cite:t" else "p", refs)
        if role == "reproduction-number":  # counted by book/_ext/ledgers.py
            return "(a number the built book shows)"
        if role == "reproduction-json":  # a link to the file the build writes
            return f"{content} (written with the built book)"
        if role == "source-archive":  # book/_ext/source_archive.py
            from source_archive import _version, archive_name

            return content.replace("{name}", archive_name(_version()))
        title, target = _split_title(content)
        if role == "eq":
            return refs.equations.get(target, f"({target})")
        if role == "numref":
            number = refs.numbers.get(target)
            if title is None:
                return number or target
            digits = (number or "").rsplit(" ", 1)[-1] if number else target
            return title.replace("%s", digits).replace("{number}", digits)
        # doc and ref: the explicit title, else the target's title
        key = target.lstrip("/") if role == "doc" else target
        if role == "doc" and not key.startswith("book/"):
            key = str(Path(docname).parent / key) if "/" in docname else key
        return title or refs.titles.get(key, target)

    return ROLE.sub(replace, text)


def _quote(text: str) -> str:
    return "\n".join(
        "> " + line if line else ">" for line in text.strip("\n").split("\n")
    )


def _mime_extension(mime: str) -> str:
    return {"image/png": "png", "image/jpeg": "jpg", "image/svg+xml": "svg"}[mime]


def _convert_directive(name, argument, options, body, docname, refs, attachments):
    """Markdown for one MyST directive (its body already converted)."""
    label = options.get("label") or options.get("name")
    if name == "math":
        tag = refs.equations.get(label, "").strip("()") if label else ""
        return "$$\n" + body.strip("\n") + (f"\n\\tag{{{tag}}}" if tag else "") + "\n$$"
    if name in ("glue:figure", "glue", "glue:any"):
        key, output = _glue_output(argument, docname, refs)
        image = next(
            (
                m
                for m in ("image/png", "image/jpeg", "image/svg+xml")
                if m in output.get("data", {})
            ),
            None,
        )
        lines = []
        if image:
            filename = f"{key}.{_mime_extension(image)}"
            attachments[filename] = {image: output["data"][image]}
            lines.append(f"![{key}](attachment:{filename})")
        elif "text/plain" in output.get("data", {}):
            lines.append(format_plain_text(output["data"]["text/plain"], ""))
        number = refs.numbers.get(label, "") if label else ""
        if body.strip():
            lines.append((f"**{number}:** " if number else "") + body.strip())
        return "\n\n".join(lines)
    if name in ("admonition", "note", "tip", "warning", "important", "seealso"):
        title = argument or name.capitalize()
        return _quote(f"**{title}**\n\n{body}")
    if name in ("exercise", "solution"):
        if name == "exercise":
            number = refs.numbers.get(label, "") if label else ""
            heading = (number or "Exercise") + (f" ({argument})" if argument else "")
        else:
            target = argument.strip()
            heading = "Solution" + (
                f" to {refs.numbers.get(target, target)}" * bool(target)
            )
        return _quote(f"**{heading}.**\n\n{body.strip()}")
    if name == "table":  # a numbered table (also in Markdown outputs: ledger.table)
        number = refs.numbers.get(label, "") if label else ""
        caption = (f"**{number}:** " if number else "") + argument
        return f"{caption}\n\n{body.strip()}" if caption else body.strip()
    if name == "solution-start":
        return (
            f"**Solution to {refs.numbers.get(argument.strip(), argument.strip())}.**"
        )
    if name == "solution-end":
        return ""
    # directives whose content the built book assembles (book/_ext/ledgers.py)
    assembled = {
        "tableofcontents": "the table of contents",
        "reproduction-status": "the reproduction status table",
        "reproduction-verdict": "the verdict counted from the chapters' ledgers",
        "reproduction-open-items": "every entry not judged reproduced, with its cause",
        "chapter-map": "the map of the chapters",
        "bibliography": "the bibliography",
    }
    if name in assembled:
        what = assembled[name]
        return f"*(Here the built book shows {what}.)*"
    return None  # unknown: left as it is


def convert_markdown(
    text: str, docname: str, refs: References, attachments: dict | None = None
) -> str:
    """A Markdown cell's MyST source as Markdown that Jupyter renders."""
    attachments = {} if attachments is None else attachments
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        opened = FENCE_OPEN.match(line)
        plain = PLAIN_FENCE.match(line) if not opened else None
        if plain:  # a code block: copied untouched
            fence, j = plain.group(1), i + 1
            while j < len(lines) and not lines[j].startswith(fence):
                j += 1
            out.extend(lines[i : j + 1])
            i = j + 1
            continue
        if opened:
            fence, name, argument = opened.group(1), opened.group(2), opened.group(3)
            j = i + 1  # the closing fence: the same characters, as many (MyST nests
            while j < len(lines) and lines[j].rstrip() != fence:  # with longer ones)
                j += 1
            content = lines[i + 1 : j]
            options, k = {}, 0
            while k < len(content) and (option := OPTION.match(content[k])):
                options[option.group(1)] = option.group(2).strip()
                k += 1
            raw_body = "\n".join(content[k:])
            body = (
                raw_body
                if name == "math"
                else convert_markdown(raw_body, docname, refs, attachments)
            )
            converted = _convert_directive(
                name,
                substitute_roles(argument, docname, refs),
                options,
                body,
                docname,
                refs,
                attachments,
            )
            if converted is None:
                out.extend(lines[i : j + 1])
            elif converted:
                out.append(
                    substitute_roles(converted, docname, refs)
                    if name != "math"
                    else converted
                )
            i = j + 1
            continue
        if TARGET.match(line) or COMMENT.match(line):
            i += 1
            continue
        out.append(substitute_roles(line, docname, refs))
        i += 1
    return "\n".join(out)


def _first_cell(docname: str, runtime: float | None, when: str) -> dict:
    built = f" ({when})" if when else ""
    ran = "" if runtime is None else f" It ran in {runtime:.0f} s."
    return {
        "cell_type": "markdown",
        "metadata": {"tags": ["notebook-origin"]},
        "source": (
            f"> **About this notebook.** It is the chapter `{docname}.md` of the book "
            f"*Least Squares Support Vector Machines*, as executed when the book was "
            f"built{built}.{ran} Its outputs are those of that run. In the text, the "
            "numbers computed by the code (glued values) and the numbers of figures, "
            "tables, equations and exercises are written in from that build: rerunning "
            "the cells recomputes the outputs, not the text. The source is the MyST "
            "file in the repository, which `make lab` opens as a notebook."
        ),
    }


def published_notebook(
    notebook: dict,
    docname: str,
    refs: References,
    runtime: float | None = None,
    when: str = "",
) -> dict:
    """The executed notebook with its Markdown made plain (see the module docstring).

    ``notebook`` is an nbformat-4 notebook as a dict (the executed one, with outputs);
    the returned notebook is a new dict.
    """
    result = copy.deepcopy(notebook)
    cells = [_first_cell(docname, runtime, when)]
    for cell in result.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = (
                cell["source"]
                if isinstance(cell["source"], str)
                else "".join(cell["source"])
            )
            attachments: dict = {}
            cell["source"] = convert_markdown(source, docname, refs, attachments)
            if attachments:
                cell["attachments"] = {**cell.get("attachments", {}), **attachments}
            cells.append(cell)
            continue
        cell["outputs"] = [  # glue stored without display: nothing Jupyter can show
            output
            for output in cell.get("outputs", [])
            if not output.get("metadata", {}).get("scrapbook", {}).get("mime_prefix")
        ]
        for output in cell["outputs"]:  # Markdown outputs are MyST too
            data = output.get("data", {})
            if "text/markdown" in data:
                text = data["text/markdown"]
                text = text if isinstance(text, str) else "".join(text)
                data["text/markdown"] = convert_markdown(text, docname, refs)
        cells.append(cell)
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        if (
            cell.get("cell_type") == "code"
            and isinstance(figure, dict)
            and figure.get("caption")
        ):
            number = refs.numbers.get(figure.get("name", ""), "")
            caption = convert_markdown(str(figure["caption"]).strip(), docname, refs)
            cells.append(
                {
                    "cell_type": "markdown",
                    "metadata": {},
                    "source": (f"**{number}:** " if number else "") + caption,
                }
            )
    result["cells"] = cells
    if (result.get("nbformat", 4), result.get("nbformat_minor", 0)) >= (4, 5):
        for index, cell in enumerate(cells):  # nbformat 4.5 wants an id on every cell
            if "id" not in cell:
                cell["id"] = hashlib.sha1(f"{docname}:{index}".encode()).hexdigest()[
                    :12
                ]
    return result


# --- the Sphinx side: the tables from the build environment ---------------------
def _plain_name(person) -> str:
    name = " ".join(person.last_names) or str(person)
    return re.sub(r"[{}]|\\[a-zA-Z]+ ?|\\.", "", name)


def _citations(app) -> dict[str, tuple[str, str]]:
    try:
        from pybtex.database import parse_file
    except ImportError:  # pragma: no cover - sphinxcontrib-bibtex brings pybtex
        return {}
    table = {}
    for bibfile in getattr(app.config, "bibtex_bibfiles", []) or []:
        path = Path(app.srcdir) / bibfile
        if not path.exists():
            continue
        for key, entry in parse_file(str(path)).entries.items():
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            names = [_plain_name(p) for p in people]
            if len(names) > 2:
                authors = f"{names[0]} et al."
            elif names:
                authors = " and ".join(names)
            else:
                authors = key
            table[key] = (authors, entry.fields.get("year", ""))
    return table


def references_from_env(app) -> References:
    """The glue of every executed document and the numbers Sphinx assigned."""
    env, refs = app.env, References(citations=_citations(app))
    out = Path(app.outdir).parent / EXECUTE_DIR
    for path in out.rglob("*.glue.json"):
        docname = path.relative_to(out).as_posix()[: -len(".glue.json")]
        refs.glue[docname] = json.loads(path.read_text(encoding="utf-8"))
    numbered = {}  # (docname, node id) -> (figtype, "3.2")
    for docname, by_type in getattr(env, "toc_fignumbers", {}).items():
        for figtype, ids in by_type.items():
            for node_id, numbers in ids.items():
                numbered[(docname, node_id)] = (figtype, ".".join(map(str, numbers)))
    std = env.get_domain("std")
    formats = app.config.numfig_format or {}
    for label, (docname, node_id, *_rest) in {**std.anonlabels, **std.labels}.items():
        if (docname, node_id) in numbered:
            figtype, number = numbered[(docname, node_id)]
            fmt = formats.get(figtype) or (figtype.capitalize() + " %s")
            refs.numbers[label] = fmt % number if "%s" in fmt else f"{fmt} {number}"
    for label, (docname, _node_id, title) in std.labels.items():
        if title:
            refs.titles[label] = title
    for docname, title in env.titles.items():
        refs.titles[docname] = title.astext()
    from docutils.nodes import make_id  # the math domain's equation ids

    math = env.get_domain("math")
    eqref = app.config.math_eqref_format or "({number})"
    for label, (docname, number) in math.equations.items():
        numbers = (
            env.toc_fignumbers.get(docname, {})
            .get("displaymath", {})
            .get(make_id(f"equation-{label}"))
        )
        eqno = ".".join(map(str, numbers)) if numbers else str(number)
        refs.equations[label] = eqref.format(number=eqno)
    return refs


def _is_chapter(env, docname: str) -> bool:
    """True for MyST notebooks: .md sources with a jupytext and kernelspec header."""
    if docname not in env.found_docs:
        return False
    path = Path(env.doc2path(docname))
    if path.suffix != ".md":
        return False
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "jupytext" in head and "kernelspec" in head


def _exec_data(env, docname: str) -> dict:
    return getattr(env, "nb_metadata", {}).get(docname, {}).get("exec_data") or {}


def _runtime(env, docname: str) -> float | None:
    return _exec_data(env, docname).get("runtime")


def _from_cache(app, docname: str) -> bool:
    """True when the outputs came from the execution cache (run in an earlier build).

    myst-nb records ``mtime`` = now for a notebook it executes and the cache record's
    creation time for a cached one (a naive UTC time read as local time, so it may lie
    hours off in either direction, never inside this build unless by coincidence).
    """
    data = _exec_data(app.env, docname)
    started = getattr(app, "_notebook_pages_started", None)
    if not data or started is None or "mtime" not in data:
        return False
    return not started <= data["mtime"] <= time.time() + 60


def record_start(app):
    app._notebook_pages_started = time.time()


def add_download_line(app, pagename, templatename, context, doctree):
    """Append the notebook link and the execution time to a chapter's body."""
    if doctree is None or "body" not in context or not _is_chapter(app.env, pagename):
        return
    name = Path(pagename).name
    href = "../" * pagename.count("/") + f"{NOTEBOOK_DIR}/{name}.ipynb"
    runtime = _runtime(app.env, pagename)
    if runtime is None:
        timing = ""
    elif _from_cache(app, pagename):
        timing = (
            f" It ran in {runtime:.0f} s when it was last executed (this build "
            "took its outputs from the execution cache)."
        )
    else:
        timing = f" It ran in {runtime:.0f} s in this build."
    context["body"] += (
        '<p class="chapter-notebook">Run this chapter yourself: download '
        f'<a class="notebook-download" href="{href}" download>{name}.ipynb</a>'
        " (the executed notebook, the numbers of this build written into its text)."
        f"{timing}</p>"
    )


def _with_cached_outputs(app, notebook: dict) -> dict:
    """The outputs from the execution cache, where this build took them from there.

    In cache mode myst-nb writes ``jupyter_execute/<doc>.ipynb`` without the outputs
    of a notebook it did not execute (it renders the cached copy, writes the source).
    """
    config = app.env.mystnb_config
    has_outputs = any(cell.get("outputs") for cell in notebook.get("cells", []))
    if config.execution_mode != "cache" or has_outputs:
        return notebook
    import nbformat
    from jupyter_cache import get_cache

    try:
        _, merged = get_cache(config.execution_cache_path).merge_match_into_notebook(
            nbformat.from_dict(notebook)
        )
    except KeyError:  # not in the cache: the notebook as written
        return notebook
    return json.loads(nbformat.writes(merged))


def write_notebooks(app, exception):
    """Write every chapter as ``_notebooks/<name>.ipynb`` in the HTML output."""
    if exception is not None or app.builder.format != "html":
        return
    import jupytext
    import nbformat

    refs = references_from_env(app)
    out = Path(app.outdir) / NOTEBOOK_DIR
    out.mkdir(parents=True, exist_ok=True)
    executed_dir = Path(app.outdir).parent / EXECUTE_DIR
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for docname in sorted(app.env.found_docs):
        if not _is_chapter(app.env, docname):
            continue
        executed = executed_dir / f"{docname}.ipynb"
        if executed.exists():
            notebook = _with_cached_outputs(
                app, json.loads(executed.read_text("utf-8"))
            )
        else:  # not executed in any build: the source, without outputs
            notebook = json.loads(
                jupytext.writes(jupytext.read(app.env.doc2path(docname)), fmt="ipynb")
            )
        runtime = _runtime(app.env, docname)
        origin = when + (
            ", outputs from the execution cache of an earlier build"
            if _from_cache(app, docname)
            else ""
        )
        published = published_notebook(notebook, docname, refs, runtime, origin)
        try:
            nbformat.validate(nbformat.from_dict(published))
        except nbformat.ValidationError as error:  # a warning: -W fails the build
            from sphinx.util import logging

            logging.getLogger(__name__).warning(
                f"{docname}: the chapter notebook is not valid nbformat: {error}"
            )
        (out / f"{Path(docname).name}.ipynb").write_text(
            json.dumps(published, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


def setup(app):
    app.connect("builder-inited", record_start)
    app.connect("html-page-context", add_download_line)
    app.connect("build-finished", write_notebooks)
    return {"version": "1.1", "parallel_read_safe": True, "parallel_write_safe": True}
