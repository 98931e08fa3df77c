"""One text per shared hyper-parameter: the estimators' docstrings quote the base's.

:class:`lssvm._base.LSSVMBase` documents the hyper-parameters every LS-SVM estimator
shares (``gamma``, the kernel, the solver, ``n_jobs`` ...). An estimator's docstring
writes a line ``{shared: gamma kernel ...}`` in its Parameters section, indented as a
parameter; :func:`shared_parameters` replaces it with those entries of the base's
docstring, so each text exists once and every estimator's help shows it whole.
"""

from __future__ import annotations

import inspect
import re

_MARK = re.compile(r"^(?P<indent> *)\{shared: (?P<names>[\w ]+)\}$", re.MULTILINE)
_ENTRY = re.compile(r"^(?P<name>\w+) : ")


def parameter_entries(doc: str) -> dict[str, str]:
    """The Parameters section of a numpydoc docstring, one text per parameter.

    Each text is the entry as written (its ``name : type`` line and the description
    under it), dedented to the entry's own indentation.
    """
    lines = inspect.cleandoc(doc).splitlines()
    try:
        start = lines.index("Parameters") + 2  # skip the title and its underline
    except ValueError as exc:
        raise ValueError("the docstring has no 'Parameters' section") from exc
    entries: dict[str, list[str]] = {}
    name = None
    for line in lines[start:]:
        if line and not line.startswith(" "):
            match = _ENTRY.match(line)
            if match is None:  # the next section's title ends the Parameters
                break
            name = match["name"]
            entries[name] = [line]
        elif name is not None:
            entries[name].append(line)
    return {k: "\n".join(v).rstrip() for k, v in entries.items()}


def shared_parameters(source):
    """Class decorator: fill the ``{shared: ...}`` lines from ``source``'s docstring."""
    entries = parameter_entries(source.__doc__)

    def fill(match):
        indent = match["indent"]
        out = []
        for name in match["names"].split():
            if name not in entries:
                raise KeyError(f"{source.__name__} documents no parameter {name!r}")
            out.append("\n".join(indent + line if line else line
                                 for line in entries[name].splitlines()))
        return "\n".join(out)

    def decorate(cls):
        cls.__doc__ = _MARK.sub(fill, cls.__doc__)
        return cls

    return decorate
