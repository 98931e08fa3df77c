"""The library needs none of its extras at import time.

matplotlib is the ``[plot]`` extra (part of ``[book]``): no module of the package may
import it when imported, only inside the functions that draw
(``lssvm.reporting.style.use_style``). Dask (``[dask]``) is imported only by the code
that handles Dask arrays.
"""

import subprocess
import sys

IMPORT_EVERY_MODULE = """
import importlib, pkgutil, sys
import lssvm
assert 'matplotlib' not in sys.modules, 'import lssvm imported matplotlib'
assert 'dask' not in sys.modules, 'import lssvm imported dask'
for info in pkgutil.walk_packages(lssvm.__path__, 'lssvm.'):
    importlib.import_module(info.name)
    assert 'matplotlib' not in sys.modules, info.name + ' imports matplotlib'
"""


def test_no_module_imports_matplotlib_at_import_time():
    subprocess.run([sys.executable, "-c", IMPORT_EVERY_MODULE], check=True, timeout=300)


def test_import_lssvm_imports_no_matplotlib():
    code = "import lssvm, sys; assert 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
