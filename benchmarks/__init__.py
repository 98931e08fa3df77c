"""The benchmark scripts, importable as a package (``from benchmarks import uci``).

Each module is also a script that writes one file of ``benchmarks/results/`` (run it as
``python benchmarks/<name>.py`` or ``python -m benchmarks.<name>``; ``README.md`` here
lists them). The package is not part of the ``lssvm`` wheel: the venv that ``make``
builds puts the repository root on ``sys.path`` with a ``.pth`` file, so the chapters
and the tests import it from any working directory.
"""
