"""The rendered book as a reader sees it: every page opened in headless Chromium.

The book must already be built (``make book`` builds ``_build/html``; these tests
never build it). The site is served on 127.0.0.1 from a thread of the test process,
each page of ``_toc.yml`` is loaded once by Chromium (DOM dump and a screenshot in
``_build/screenshots/<page>.png``), and four checks run on the rendered DOM:

1. math was typeset by the MathJax bundled in ``_static`` (no raw TeX left);
2. every image was served (HTTP 200) and no request of the page failed;
3. every equation, figure and section reference and every citation resolved, and
   every internal link points to a page and anchor that exist;
4. no cell shows an error, a traceback, a glue "Failed to format" or "Kernel died".

A missing build or a missing Chromium skips the module, except under ``CI`` (set by
CI services, e.g. ``CI=true``), where it fails: CI must run these checks.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_FALLBACK = Path("/usr/bin/chromium")
# Verified headless flags (shared/TOOLING.md); the virtual time budget lets MathJax
# finish typesetting before the DOM is dumped.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--virtual-time-budget=15000",
    "--window-size=1280,2400",
)
CHROMIUM_TIMEOUT_S = 90
# Each Chromium run sends its page name in the User-Agent, so the server's request
# log tells which page asked for what.
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome lssvm-book-check/{}"
SHOW = 5  # offending items quoted in a failure message

# Text a reader never sees as prose: code, scripts, and MathJax's own output (its
# assistive MathML repeats the TeX source).
HIDDEN_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "code",
    "pre",
    "mjx-container",
)
RAW_TEX = ("$$", "\\[", "\\]", "\\(", "\\)", "\\begin{")
ROLE_TEXT = re.compile(r"\{(?:eq|numref|ref|doc|cite(?::\w+)?|glue(?::\w+)?)\}`?")
# Python-domain references are deliberately left unresolved by _config.yml's
# nitpick_ignore_regex (numpy-style types in docstrings): not checked here.
UNCHECKED_XREF_DOMAINS = {"py"}
ERROR_TEXT = ("Failed to format", "Kernel died")
IGNORED_MISSING = {"/favicon.ico"}


# --- what the book contains ---------------------------------------------------------


def _toc_files(node) -> list[str]:
    """Every ``file:`` entry of a parsed _toc.yml, in reading order."""
    if isinstance(node, dict):
        own = [node["file"]] if "file" in node else []
        return own + [
            f for key, v in node.items() if key != "file" for f in _toc_files(v)
        ]
    if isinstance(node, list):
        return [f for item in node for f in _toc_files(item)]
    return []


def book_pages() -> list[str]:
    """The root page and every chapter of _toc.yml, as paths like ``book/tuning``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"], *_toc_files(toc)]
    return [p.removesuffix(".md").removesuffix(".ipynb") for p in dict.fromkeys(pages)]


PAGES = book_pages()


def _unavailable(message: str):
    """Skip locally; fail under CI, which must run these checks."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{message} (CI is set, so this fails instead of skipping)")
    pytest.skip(message)


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        if found := shutil.which(name):
            return found
    return str(CHROMIUM_FALLBACK) if CHROMIUM_FALLBACK.exists() else None


# --- the local server ---------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    agent: str
    path: str  # URL path, unquoted, without the query
    status: int


class _LoggingHandler(SimpleHTTPRequestHandler):
    """Serves a directory and appends every request to ``self.log``, not stderr."""

    log: list[Request]

    def log_request(self, code="-", size="-"):
        path = unquote(urlsplit(self.path).path)
        status = int(getattr(code, "value", code))
        self.log.append(Request(self.headers.get("User-Agent", ""), path, status))

    def log_message(self, format, *args):
        pass


@dataclass
class Site:
    origin: str  # http://127.0.0.1:<port>
    log: list[Request]


@pytest.fixture(scope="module")
def site():
    if not (HTML / "index.html").exists():
        _unavailable(
            f"{HTML / 'index.html'} is missing: build the book first: make book"
        )
    log: list[Request] = []
    handler = type("Handler", (_LoggingHandler,), {"log": log})
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(HTML))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(f"http://127.0.0.1:{server.server_address[1]}", log)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# --- one Chromium run per page --------------------------------------------------------


@dataclass
class Rendered:
    page: str  # e.g. book/tuning
    url: str
    dom: str  # after JavaScript (MathJax) ran
    static: str  # the HTML file Sphinx wrote
    requests: list[Request]


class PageNotRenderedError(Exception):
    """The page could not be loaded; every check of it fails with this message."""


def render(chromium: str, site: Site, page: str) -> Rendered:
    """Load one page: dump its DOM and save a screenshot, in a single Chromium run."""
    built = HTML / f"{page}.html"
    if not built.exists():
        raise PageNotRenderedError(
            f"{built} is missing: _toc.yml lists {page}; rebuild: make book"
        )
    url = f"{site.origin}/{page}.html"
    agent = USER_AGENT.format(page)
    shot = SCREENSHOTS / f"{Path(page).name}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        command = [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--user-agent={agent}",
            f"--screenshot={shot}",
            "--dump-dom",
            url,
        ]
        # A session of its own, so a hung run is ended with all its child processes.
        with subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        ) as proc:
            try:
                stdout, stderr = proc.communicate(timeout=CHROMIUM_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                raise PageNotRenderedError(
                    f"{page}: Chromium did not finish in {CHROMIUM_TIMEOUT_S} s"
                ) from None
    dom = stdout.decode("utf-8", errors="replace")
    if "<body" not in dom:  # stderr is mostly noise (dbus); quote it only here
        tail = stderr.decode("utf-8", errors="replace")[-2000:]
        raise PageNotRenderedError(
            f"{page}: Chromium returned no DOM (exit {proc.returncode}):\n{tail}"
        )
    static = built.read_text(encoding="utf-8")
    requests = [r for r in site.log if r.agent == agent]
    return Rendered(page, url, dom, static, requests)


@pytest.fixture(scope="module")
def rendered_pages(site):
    chromium = find_chromium()
    if chromium is None:
        _unavailable(
            "Chromium is missing (looked for "
            f"{', '.join(CHROMIUM_NAMES)} and {CHROMIUM_FALLBACK}): "
            "install the Debian package `chromium`"
        )
    cache: dict[str, Rendered | str] = {}

    def get(page: str) -> Rendered:
        if page not in cache:
            try:
                cache[page] = render(chromium, site, page)
            except PageNotRenderedError as exc:
                cache[page] = str(exc)  # fail fast in the page's other checks
        if isinstance(cache[page], str):
            pytest.fail(cache[page], pytrace=False)
        return cache[page]

    return get


# --- the checks: each returns what it found, empty when the page is fine ------------


def _parse(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


@functools.lru_cache(maxsize=4)
def _soup(html: str) -> BeautifulSoup:
    """The parsed page, shared by the checks of one page: read it, never modify it."""
    return _parse(html)


@functools.lru_cache(maxsize=4)
def visible_text(html: str) -> str:
    """The prose a reader sees: no code, scripts, or typeset math."""
    soup = _parse(html)
    for tag in soup.find_all(HIDDEN_TAGS):
        tag.decompose()
    body = soup.body or soup
    return " ".join(body.get_text(" ").split())


def _snippets(text: str, needle: str, width: int = 30) -> str:
    """The first occurrences of needle with some context, and how many there are."""
    out, start = [], text.find(needle)
    while start != -1 and len(out) < 3:
        out.append(repr(text[max(0, start - width) : start + len(needle) + width]))
        start = text.find(needle, start + 1)
    return f"{text.count(needle)}x, e.g. " + " ".join(out)


def _short(tag) -> str:
    return repr(" ".join(tag.get_text(" ").split())[:80])


def math_problems(dom: str, static: str, url: str) -> list[str]:
    """Raw TeX left in the prose, math not typeset, or MathJax not loaded locally."""
    text = visible_text(dom)
    problems = [
        f"raw TeX {delim} in the text: {_snippets(text, delim)}"
        for delim in RAW_TEX
        if delim in text
    ]
    soup = _soup(dom)
    origin = "{0.scheme}://{0.netloc}/".format(urlsplit(url))
    mathjax = [
        s["src"]
        for s in soup.find_all("script", src=True)
        if "mathjax" in s["src"].lower()
    ]
    remote = [src for src in mathjax if not urljoin(url, src).startswith(origin)]
    if remote:
        problems.append(f"MathJax loaded from outside the site: {remote[:SHOW]}")
    if 'class="math' not in static:
        return problems
    if not any(urljoin(url, src).startswith(origin + "_static/") for src in mathjax):
        problems.append(
            f"the page has math but no MathJax script from _static: {mathjax}"
        )
    if not soup.find("mjx-container"):
        problems.append("the page has math but no mjx-container: MathJax did not run")
    untypeset = [m for m in soup.select(".math") if not m.find("mjx-container")]
    if untypeset:
        items = ", ".join(_short(m) for m in untypeset[:SHOW])
        problems.append(f"{len(untypeset)} math elements not typeset: {items}")
    errors = soup.find_all("mjx-merror")
    if errors:
        items = ", ".join(_short(e) for e in errors[:SHOW])
        problems.append(f"{len(errors)} TeX errors shown by MathJax: {items}")
    return problems


def image_problems(dom: str, url: str, requests: list[Request]) -> list[str]:
    """Images with no src, from outside the site, or not served with HTTP 200."""
    problems = []
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    for img in _soup(dom).find_all("img"):
        src = (img.get("src") or "").strip()
        if not src:
            problems.append(f"<img> without src (alt={img.get('alt')!r})")
            continue
        if src.startswith("data:"):
            continue
        absolute = urljoin(url, src)
        if not absolute.startswith(origin + "/"):
            problems.append(f"image {src!r} is not served by the site")
            continue
        path = unquote(urlsplit(absolute).path)
        statuses = [r.status for r in requests if r.path == path]
        if 200 not in statuses:
            problems.append(f"image {src!r} was not served: statuses {statuses}")
    return problems[: SHOW * 2]


def failed_request_problems(requests: list[Request]) -> list[str]:
    """Requests the page made that the server answered with an error."""
    failed = [r for r in requests if r.status >= 400 and r.path not in IGNORED_MISSING]
    return [f"{r.status} for {r.path}" for r in failed[: SHOW * 2]]


def _is_unresolved_xref(tag) -> bool:
    classes = set(tag.get("class", []))
    return not tag.find_parent("a") and not classes & UNCHECKED_XREF_DOMAINS


@functools.lru_cache(maxsize=64)
def _ids(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(unquote(i) for i in re.findall(r"\bid=\"([^\"]+)\"", text))


def link_problems(dom: str, page_file: Path, html_root: Path) -> list[str]:
    """Internal links to a page or an anchor that the built site does not have."""
    problems = []
    for a in _soup(dom).select("a.reference.internal[href]"):
        parts = urlsplit(a["href"])
        if parts.scheme or parts.netloc:
            continue
        relative = page_file.parent / unquote(parts.path) if parts.path else page_file
        target = relative.resolve()
        if not target.is_relative_to(html_root.resolve()) or not target.exists():
            problems.append(f"link {a['href']!r} ({_short(a)}): no such page")
        elif parts.fragment and target.suffix == ".html":
            if unquote(parts.fragment) not in _ids(target):
                problems.append(f"link {a['href']!r} ({_short(a)}): no such anchor")
    return list(dict.fromkeys(problems))[: SHOW * 2]


def reference_problems(dom: str) -> list[str]:
    """References and citations that Sphinx could not resolve."""
    problems = []
    text = visible_text(dom)
    if "??" in text:
        problems.append(f"'??' in the text: {_snippets(text, '??')}")
    roles = sorted(set(ROLE_TEXT.findall(text)))
    if roles:
        problems.append(f"unrendered roles in the text: {roles[:SHOW]}")
    soup = _soup(dom)
    xrefs = [t for t in soup.select(".xref") if _is_unresolved_xref(t)]
    if xrefs:
        items = ", ".join(f"{_short(t)} ({' '.join(t['class'])})" for t in xrefs[:SHOW])
        problems.append(f"{len(xrefs)} unresolved references: {items}")
    cites = [c for c in soup.select(".bibtex-citation") if not c.find("a")]
    if cites:
        items = ", ".join(_short(c) for c in cites[:SHOW])
        problems.append(f"{len(cites)} citations with no resolved key: {items}")
    return problems


def error_output_problems(dom: str) -> list[str]:
    """Cell outputs showing an error (cells tagged raises-exception are expected to)."""
    soup = _parse(dom)  # a copy of its own: expected errors are removed from it
    for cell in soup.select(".tag_raises-exception"):
        cell.decompose()
    problems = [
        f"traceback output: {_short(t)}" for t in soup.select(".output.traceback")
    ]
    for out in soup.select(".cell_output"):
        if "Traceback (most recent call last)" in out.get_text():
            problems.append(f"traceback in a cell output: {_short(out)}")
    for err in soup.select(".output.stderr"):
        if "Error" in err.get_text():
            problems.append(f"error on stderr: {_short(err)}")
    text = " ".join((soup.body or soup).get_text(" ").split())
    for needle in ERROR_TEXT:
        if needle in text:
            problems.append(
                f"{needle!r} in the page: {', '.join(_snippets(text, needle))}"
            )
    return problems[: SHOW * 2]


def _report(page: str, what: str, problems: list[str]) -> str:
    return f"{page}: {what}:\n  " + "\n  ".join(problems)


# --- the tests ------------------------------------------------------------------------

pages = pytest.mark.parametrize("page", PAGES, ids=lambda p: Path(p).name)


@pages
def test_math_is_typeset_by_the_local_mathjax(rendered_pages, page):
    r = rendered_pages(page)
    problems = math_problems(r.dom, r.static, r.url)
    assert not problems, _report(page, "math", problems)


@pages
def test_every_image_is_served(rendered_pages, page):
    r = rendered_pages(page)
    problems = image_problems(r.dom, r.url, r.requests)
    assert not problems, _report(page, "images", problems)


@pages
def test_no_request_fails(rendered_pages, page):
    r = rendered_pages(page)
    assert r.requests, f"{page}: the server logged no request for this page"
    problems = failed_request_problems(r.requests)
    assert not problems, _report(page, "failed requests", problems)


@pages
def test_references_and_citations_resolve(rendered_pages, page):
    r = rendered_pages(page)
    problems = reference_problems(r.dom)
    assert not problems, _report(page, "references", problems)


@pages
def test_internal_links_reach_a_page_and_anchor(rendered_pages, page):
    r = rendered_pages(page)
    problems = link_problems(r.dom, HTML / f"{page}.html", HTML)
    assert not problems, _report(page, "internal links", problems)


@pages
def test_no_error_output(rendered_pages, page):
    r = rendered_pages(page)
    problems = error_output_problems(r.dom)
    assert not problems, _report(page, "error output", problems)


# --- the checks can fail (no browser needed) ---------------------------------------

# The unresolved forms below are what Sphinx 7.4 and sphinxcontrib-bibtex 2.7 write
# for a missing {eq}, {ref} and {cite:p} target.
BROKEN_DOM = """<html><head>
<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"></script>
</head><body>
<p>The system $$x = 1$$ and <span class="math notranslate">\\(y\\)</span>.</p>
<p>By <code class="xref eq docutils literal"><span class="pre">kkt</span></code>,
see <span class="xref std std-ref">missing-section</span> and
<span class="bibtex-citation" id="id1">[]</span>; Fig. ?? shows it.</p>
<img src="../_images/plot.png"><img src="">
<a class="reference internal" href="#no-such-anchor">here</a>
<a class="reference internal" href="gone.html">gone</a>
<div class="cell_output docutils container">
<div class="output traceback"><pre>Traceback (most recent call last):
ZeroDivisionError: division by zero</pre></div></div>
<p>Failed to format text/plain</p>
</body></html>"""
FINE_DOM = """<html><body><p>A plain page <a class="reference internal"
href="#top" id="top">top</a>, <a class="reference internal" href="#top"><code
class="xref py py-class">ndarray</code></a> and <code class="xref py py-class"
>numpy.ndarray</code>.</p><div class="cell tag_raises-exception"><div
class="output traceback">Traceback (most recent call last)</div></div></body></html>"""


def test_checks_report_fabricated_defects(tmp_path):
    url = "http://127.0.0.1:8000/book/broken.html"
    page_file = tmp_path / "book" / "broken.html"
    page_file.parent.mkdir()
    page_file.write_text(BROKEN_DOM)
    requests = [Request("x", "/_images/plot.png", 404), Request("x", "/book/a.js", 200)]

    math = "\n".join(math_problems(BROKEN_DOM, BROKEN_DOM, url))
    assert "raw TeX $$ in the text: 2x" in math and "raw TeX \\( in" in math
    assert "outside the site" in math and "no mjx-container" in math
    assert "1 math elements not typeset" in math

    images = "\n".join(image_problems(BROKEN_DOM, url, requests))
    assert "'../_images/plot.png' was not served: statuses [404]" in images
    assert "without src" in images
    assert failed_request_problems(requests) == ["404 for /_images/plot.png"]

    refs = "\n".join(reference_problems(BROKEN_DOM))
    assert "'??' in the text" in refs
    assert "2 unresolved references: 'kkt'" in refs and "'missing-section'" in refs
    assert "1 citations with no resolved key" in refs

    links = "\n".join(link_problems(BROKEN_DOM, page_file, tmp_path))
    assert "'#no-such-anchor'" in links and "'gone.html'" in links

    errors = "\n".join(error_output_problems(BROKEN_DOM))
    assert "traceback output" in errors and "ZeroDivisionError" in errors
    assert "'Failed to format' in the page" in errors


def test_checks_accept_a_fine_page(tmp_path):
    page_file = tmp_path / "page.html"
    page_file.write_text(FINE_DOM)
    url = "http://127.0.0.1:8000/page.html"
    assert math_problems(FINE_DOM, FINE_DOM, url) == []
    assert image_problems(FINE_DOM, url, []) == []
    assert reference_problems(FINE_DOM) == []
    assert link_problems(FINE_DOM, page_file, tmp_path) == []
    assert error_output_problems(FINE_DOM) == []
