"""How the book reports: reproduction ledgers, numbered tables, live timings, figures.

- :mod:`lssvm.reporting.ledger`: ``Ledger``, ``table``, and the helpers for numbers
  measured on the machine (``describe_machine``, ``compare_times``);
- :mod:`lssvm.reporting.style`: the book's matplotlib style (``use_style``).

Nothing in the estimators imports this layer; ``import lssvm`` never imports
matplotlib.
"""

from .ledger import Ledger, compare_times, describe_machine, machine, table
from .style import use_style

__all__ = ["Ledger", "table", "machine", "describe_machine", "compare_times", "use_style"]
