"""The rendered book as a reader sees it: every page opened in headless Chromium.

The book must already be built (``make book`` builds ``_build/html``; these tests
never build it). The site is served on 127.0.0.1 from a thread of the test process,
each page of ``_toc.yml`` is loaded once by Chromium (DOM dump and a screenshot in
``_build/screenshots/<page>.png``), and four checks run on the rendered DOM:

1. math was typeset by the MathJax bundled in ``_static`` (no raw TeX left);
2. every image was served (HTTP 200) and no request of the page failed;
3. every equation, figure and section reference and every citation resolved, and
   every internal link points to a page and anchor that exist;
4. no cell shows an error, a traceback, a glue "Failed to format" or "Kernel died";
5. the layout fits the page, at a 1280 px and at an 800 px wide window: no display
   equation is wider than its container (its end hidden behind a scrollbar), no
   table is wider than the article, and every figure is shown at a scale at which
   its smallest text (the book style's smallest font, at the figure's saved dpi) is
   at least 9 CSS px high. The server adds a small script to every page that
   measures these sizes once MathJax has typeset the page and leaves the numbers in
   a hidden element of the DOM.

A missing build or a missing Chromium skips the module, except under ``CI`` (set by
CI services, e.g. ``CI=true``), where it fails: CI must run these checks.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
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

from lssvm.reporting.ledger import VERDICTS

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_FALLBACK = Path("/usr/bin/chromium")
# Headless flags verified with Debian's chromium; the virtual time budget lets MathJax
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
)
WIDTHS = (1280, 800)  # CSS px: a laptop window and a narrow one
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


# Added before </body> of every page served: once MathJax has typeset the page, the
# rendered sizes the layout checks need are written, as JSON, into a hidden <pre>.
MEASURE_SCRIPT = """<script>
(function () {
  function measure() {
    var article = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
    var width = article.getBoundingClientRect().width;
    var out = {article: width, window: window.innerWidth, math: [], tables: [], images: []};
    document.querySelectorAll("mjx-container[display=true]").forEach(function (c) {
      var m = c.querySelector("mjx-math");
      if (!m) return;
      var box = c.parentElement.getBoundingClientRect().width;
      out.math.push({width: m.getBoundingClientRect().width, box: Math.min(box, width),
                     label: (c.closest(".math") || c).id || c.textContent.slice(0, 40)});
    });
    document.querySelectorAll("article table").forEach(function (t) {
      var shown = t.parentElement.getBoundingClientRect().width;
      out.tables.push({width: t.scrollWidth, box: Math.min(shown, width),
                       label: (t.querySelector("caption") || t).textContent.trim().slice(0, 50)});
    });
    document.querySelectorAll("article img").forEach(function (img) {
      if (!img.naturalWidth || !img.src.match(/[.]png($|[?])/)) return;
      out.images.push({src: img.getAttribute("src"), natural: img.naturalWidth,
                       shown: img.getBoundingClientRect().width});
    });
    var pre = document.createElement("pre");
    pre.id = "lssvm-measure"; pre.style.display = "none";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  window.addEventListener("load", function () {
    var mj = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
    (mj ? mj.then(measure) : Promise.resolve().then(measure));
  });
})();
</script>"""


class ScriptHandler(SimpleHTTPRequestHandler):
    """Serves a directory; HTML pages get ``script`` added before ``</body>``.

    Every request is appended to ``log`` (when it is a list), not printed. This test
    and tests/test_landing_screenshot.py serve the built book through :func:`serve`.
    """

    script: str = ""
    log: list[Request] | None = None

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_bytes().replace(
            b"</body>", self.script.encode() + b"</body>", 1
        )
        self.send_response(200)
        self.send_header("Content-type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_request(self, code="-", size="-"):
        if self.log is None:
            return
        path = unquote(urlsplit(self.path).path)
        status = int(getattr(code, "value", code))
        self.log.append(Request(self.headers.get("User-Agent", ""), path, status))

    def log_message(self, format, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path, script: str, log: list[Request] | None = None):
    """Serve ``directory`` on a free local port, HTML pages with ``script`` added;
    yields the origin ``http://127.0.0.1:<port>``."""
    handler = type("Handler", (ScriptHandler,), {"script": script, "log": log})
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


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
    with serve(HTML, MEASURE_SCRIPT, log) as origin:
        yield Site(origin, log)


# --- one Chromium run per page --------------------------------------------------------


@dataclass
class Rendered:
    page: str  # e.g. book/tuning
    url: str
    dom: str  # after JavaScript (MathJax) ran
    static: str  # the HTML file Sphinx wrote
    requests: list[Request]
    width: int = WIDTHS[0]  # the window's width, CSS px

    @property
    def measures(self) -> dict | None:
        """The sizes MEASURE_SCRIPT left in the DOM (None if it did not run)."""
        pre = _soup(self.dom).find("pre", id="lssvm-measure")
        return json.loads(pre.get_text()) if pre else None


class PageNotRenderedError(Exception):
    """The page could not be loaded; every check of it fails with this message."""


def render(chromium: str, site: Site, page: str, width: int = WIDTHS[0]) -> Rendered:
    """Load one page: dump its DOM and save a screenshot, in a single Chromium run."""
    built = HTML / f"{page}.html"
    if not built.exists():
        raise PageNotRenderedError(
            f"{built} is missing: _toc.yml lists {page}; rebuild: make book"
        )
    url = f"{site.origin}/{page}.html"
    agent = USER_AGENT.format(f"{page}@{width}")
    suffix = "" if width == WIDTHS[0] else f"_{width}"
    shot = SCREENSHOTS / f"{Path(page).name}{suffix}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        command = [
            chromium,
            *CHROMIUM_FLAGS,
            f"--window-size={width},2400",
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
    return Rendered(page, url, dom, static, requests, width)


@pytest.fixture(scope="module")
def rendered_pages(site):
    chromium = find_chromium()
    if chromium is None:
        _unavailable(
            "Chromium is missing (looked for "
            f"{', '.join(CHROMIUM_NAMES)} and {CHROMIUM_FALLBACK}): "
            "install the Debian package `chromium`"
        )
    cache: dict[tuple[str, int], Rendered | str] = {}

    def get(page: str, width: int = WIDTHS[0]) -> Rendered:
        key = (page, width)
        if key not in cache:
            try:
                cache[key] = render(chromium, site, page, width)
            except PageNotRenderedError as exc:
                cache[key] = str(exc)  # fail fast in the page's other checks
        if isinstance(cache[key], str):
            pytest.fail(cache[key], pytrace=False)
        return cache[key]

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


MIN_TEXT_PX = 9.0  # the smallest text a figure may show, CSS px
STYLE = ROOT / "lssvm" / "reporting" / "lssvm.mplstyle"  # lssvm.reporting.style.STYLE


def style_smallest_font_pt(style: Path = STYLE) -> float:
    """The smallest numeric font size (pt) of the book's matplotlib style."""
    sizes = [
        float(value)
        for key, value in re.findall(
            r"^([\w.]*size)\s*:\s*([\d.]+)\s*$", style.read_text(), re.M
        )
        if key != "lines.markersize"
    ]
    return min(sizes)


def png_dpi(path: Path) -> float | None:
    """The resolution a PNG was saved at (its pHYs chunk; matplotlib writes one)."""
    data = path.read_bytes()
    at = data.find(b"pHYs")
    if at < 0:
        return None
    ppu = int.from_bytes(data[at + 4 : at + 8], "big")
    return ppu * 0.0254 if data[at + 12] == 1 else None


def layout_problems(measures: dict | None, page_file: Path, min_pt: float) -> list[str]:
    """Display math wider than its box, tables wider than the article, figures whose
    smallest text is shown below MIN_TEXT_PX."""
    if measures is None:
        return ["the measuring script left no result (did the page load?)"]
    problems = []
    for m in measures["math"]:
        if m["width"] > m["box"] + 1:
            problems.append(
                f"display equation {m['label']!r} is {m['width']:.0f} px wide in a "
                f"{m['box']:.0f} px box: its end is hidden"
            )
    for t in measures["tables"]:
        if t["width"] > t["box"] + 1:
            problems.append(
                f"table {t['label']!r} is {t['width']:.0f} px wide in a "
                f"{t['box']:.0f} px box: it is clipped or scrolls"
            )
    for img in measures["images"]:
        path = (page_file.parent / unquote(urlsplit(img["src"]).path)).resolve()
        dpi = png_dpi(path) if path.exists() else None
        if dpi is None or not img["natural"]:
            continue
        text_px = min_pt * dpi / 72 * img["shown"] / img["natural"]
        if text_px < MIN_TEXT_PX:
            problems.append(
                f"figure {Path(img['src']).name}: its {min_pt:g} pt text is shown "
                f"{text_px:.1f} px high (< {MIN_TEXT_PX:g}); saved {img['natural']} px "
                f"wide at {dpi:.0f} dpi, shown {img['shown']:.0f} px wide: make it "
                "smaller in inches or split it"
            )
    return problems[: SHOW * 3]


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


@pytest.mark.parametrize("width", WIDTHS)
@pages
def test_layout_fits_the_page(rendered_pages, page, width):
    r = rendered_pages(page, width)
    problems = layout_problems(
        r.measures, HTML / f"{page}.html", style_smallest_font_pt()
    )
    assert not problems, _report(f"{page} at {width} px", "layout", problems)


def test_landing_page_status_is_the_chapters_ledgers():
    """The landing page's status table adds up the source entries of the ledgers the
    chapters wrote, one column per verdict, with the unresolved entries apart."""
    ledger_files = sorted((ROOT / "_build" / "ledgers").glob("*.json"))
    intro = HTML / "book" / "intro.html"
    if not intro.exists():
        _unavailable(f"{intro} is missing: build the book first: make book")
    tables = _parse(intro.read_text(encoding="utf-8")).select("table.ledger-status")
    assert tables, "intro.html has no assembled status table (reproduction-status)"
    header = [c.get_text(" ").strip() for c in tables[0].select("thead th")]
    total = [
        c.get_text(" ").strip() for c in tables[0].select("tbody tr")[-1].select("td")
    ]
    # the rule of the landing page, restated: rows another chapter owns are counted
    # there; a summary row ("N entries ...") counts N source entries, a deviation of
    # our protocol (cause "deviation: ...") none, any other row one; a row judged
    # "reproduced qualitatively" whose cause begins "consistent (unresolved), not a
    # reproduction" is counted in the column "Unresolved", not under its verdict
    rows = [r for f in ledger_files for r in json.loads(f.read_text())["rows"]
            if not r.get("owner")]  # fmt: skip

    def n_entries(row):
        if re.match(r"\s*deviation:", str(row.get("cause") or ""), re.IGNORECASE):
            return 0
        group = re.match(r"(\d+) entries\b", str(row.get("ours") or ""))
        return int(group.group(1)) if group else 1

    def column(row):
        cause = str(row.get("cause") or "").strip().lower()
        unresolved = cause.startswith("consistent (unresolved), not a reproduction")
        if row["verdict"] == "reproduced qualitatively" and unresolved:
            return "unresolved"
        return row["verdict"]

    split = {"reproduced qualitatively": ["reproduced qualitatively", "unresolved"]}
    columns = [c for v in VERDICTS for c in split.get(v, [v])]
    assert header == ["Chapter", *[c.capitalize() for c in columns]]
    expected = [
        "all chapters",
        *[str(sum(n_entries(r) for r in rows if column(r) == c)) for c in columns],
    ]
    assert total == expected
    assert sum(map(int, total[1:])) == sum(map(n_entries, rows))


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


def test_layout_check_reports_overflow_and_small_figures(tmp_path):
    png = tmp_path / "_images" / "big.png"
    png.parent.mkdir()
    # a PNG header with a pHYs chunk of 110 dpi (4331 pixels per metre)
    png.write_bytes(b"\x89PNG....pHYs" + (4331).to_bytes(4, "big") * 2 + b"\x01")
    page_file = tmp_path / "book" / "page.html"
    page_file.parent.mkdir()
    measures = {
        "math": [
            {"width": 900, "box": 700, "label": "eq-long"},
            {"width": 300, "box": 700, "label": "eq-short"},
        ],
        "tables": [{"width": 1000, "box": 700, "label": "Table 10.1"}],
        "images": [
            {"src": "../_images/big.png", "natural": 1650, "shown": 700},
            {"src": "../_images/big.png", "natural": 700, "shown": 700},
        ],
    }
    found = "\n".join(layout_problems(measures, page_file, 8.0))
    assert (
        "'eq-long' is 900 px wide in a 700 px box" in found and "eq-short" not in found
    )
    assert "table 'Table 10.1' is 1000 px wide" in found
    assert found.count("figure big.png") == 1 and "shown 5.2 px high" in found
    assert layout_problems(None, page_file, 8.0)
    assert style_smallest_font_pt() <= 10
