"""The book's figure style: one matplotlib style file, shared by every chapter.

``use_style()`` applies ``lssvm.mplstyle`` (shipped with the package): the
colour-blind-safe Okabe-Ito palette as the default colour cycle (so "C0", "C1", ...
in the chapters are Okabe-Ito colours), the perceptually uniform, colour-blind-safe
``cividis`` colour map for images, and font sizes and line widths that stay
readable when a figure is printed at column width.

>>> import matplotlib
>>> from lssvm.reporting import use_style
>>> from lssvm.reporting.style import OKABE_ITO
>>> use_style()
>>> matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][:2] == OKABE_ITO[:2]
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STYLE", "OKABE_ITO", "use_style"]

STYLE = Path(__file__).with_name("lssvm.mplstyle")

# Okabe & Ito (2008), "Color Universal Design": distinguishable with any common
# colour-vision deficiency. Order as in the style file's colour cycle.
OKABE_ITO = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
    "#000000",
]  # fmt: skip


def use_style() -> None:
    """Apply the book's matplotlib style (``lssvm.mplstyle``) globally."""
    import matplotlib.pyplot as plt

    plt.style.use(STYLE)
