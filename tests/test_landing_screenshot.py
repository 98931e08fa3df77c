"""The first screen of the landing page, as a reader opens it, saved as a picture.

When the book is built (``_build/html``) and Debian's Chromium is installed, the
landing page (``book/intro.html``, where ``index.html`` redirects) is opened headless
at 1280 x 800 CSS px, the size of a laptop window, and its first screen is saved to
``_build/screenshots/landing.png``. The test then checks that the page opens with the
reproduction verdict: the verdict's paragraph must start inside that first screen.
Without a build or a browser the test skips (``tests/test_browser.py`` owns the
failing-under-CI policy for the rendered site).

Run as a script to save the picture of another build::

    python tests/test_landing_screenshot.py [HTML_DIR [PNG]]

The browser is started as in ``tests/test_browser.py`` (same flags, site served on
127.0.0.1 from a thread), with a small script added to the page that records where
the verdict's top edge lies once the page has loaded.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_browser import (  # noqa: E402
    CHROMIUM_FLAGS,
    CHROMIUM_TIMEOUT_S,
    find_chromium,
    serve,
)

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
SHOT = ROOT / "_build" / "screenshots" / "landing.png"
PAGE = "book/intro.html"
WINDOW = (1280, 800)  # CSS px: the first screen of a laptop window

# Added before </body>: the verdict's position, as JSON in a hidden <pre>.
POSITION_SCRIPT = """<script>
window.addEventListener("load", function () {
  var v = document.querySelector("p.reproduction-verdict");
  var pre = document.createElement("pre");
  pre.id = "landing-position"; pre.style.display = "none";
  pre.textContent = JSON.stringify(v ? {top: v.getBoundingClientRect().top,
                                        text: v.textContent.slice(0, 1000)} : null);
  document.body.appendChild(pre);
});
</script>"""


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG, from its IHDR chunk."""
    data = path.read_bytes()[:24]
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def screenshot(chromium: str, html: Path = HTML, out: Path = SHOT) -> dict | None:
    """Save the first screen of the landing page to ``out``; return the verdict's
    position ({"top": CSS px, "text": ...}), or None when the page has no verdict."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with (
        serve(html, POSITION_SCRIPT) as origin,
        tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile,
    ):
        command = [
            chromium, *CHROMIUM_FLAGS, "--hide-scrollbars",
            f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--user-data-dir={profile}",
            f"--screenshot={out}", "--dump-dom", f"{origin}/{PAGE}",
        ]  # fmt: skip
        with subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,
        ) as proc:  # fmt: skip
            try:
                stdout, _ = proc.communicate(timeout=CHROMIUM_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # its own session: and children
                proc.communicate()
                raise RuntimeError(
                    f"Chromium did not finish in {CHROMIUM_TIMEOUT_S} s"
                ) from None
    from bs4 import BeautifulSoup

    pre = BeautifulSoup(stdout.decode("utf-8", errors="replace"), "html.parser").find(
        "pre", id="landing-position"
    )
    if pre is None:
        raise RuntimeError("the page did not load (no position recorded)")
    return json.loads(pre.get_text())


def test_landing_page_opens_with_the_verdict():
    if not (HTML / PAGE).exists():
        pytest.skip(f"{HTML / PAGE} is missing: build the book first: make book")
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("Chromium is missing: install the Debian package `chromium`")
    position = screenshot(chromium)
    assert png_size(SHOT) == WINDOW, (
        f"{SHOT} is {png_size(SHOT)}, not the {WINDOW} window"
    )
    assert position is not None, "the landing page has no reproduction verdict"
    assert 0 <= position["top"] < WINDOW[1] / 2, (
        f"the verdict starts {position['top']:.0f} px down, below the first half of a "
        f"{WINDOW[1]} px high screen"
    )
    assert "reproduced" in position["text"]


if __name__ == "__main__":
    html = Path(sys.argv[1]) if len(sys.argv) > 1 else HTML
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else SHOT
    found = find_chromium()
    if found is None or not (html / PAGE).exists():
        sys.exit(f"needs Chromium and {html / PAGE}")
    print(screenshot(found, html, out), "->", out)
