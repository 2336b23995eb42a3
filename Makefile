# dicelab -- `make` reproduces everything, `make test` checks everything, `make lab` opens JupyterLab.
# Only Python 3.11 and pip are needed: the first run creates .venv/ and installs requirements.txt.

PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb)) $(sort $(wildcard solutions/*.ipynb))
export PATH := $(BIN):$(PATH)

.PHONY: all setup notebooks summary test lint benchmark lab clean

all: notebooks summary

# (Re)install whenever the requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

# Execute every notebook in place: the canonical run, the only one that refreshes the committed
# figures/ and results/ (any other run writes to scratch/). Then normalise, so re-runs are byte-identical.
notebooks: $(STAMP)
	for nb in $(NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  DICELAB_CANONICAL=1 $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=3600 "$$nb" || exit 1; \
	done
	$(BIN)/python -m dicelab.notebook normalise $(NOTEBOOKS)
	$(BIN)/nbstripout --keep-output --keep-count $(NOTEBOOKS)

# The claims summary of every notebook, also written into README.md.
summary: $(STAMP)
	DICELAB_CANONICAL=1 $(BIN)/python -m dicelab.claims --readme README.md

# Unit and property tests, every notebook through nbval (fast mode) and papermill, ledger and
# environment checks: one pytest run.
test: $(STAMP)
	DICELAB_FAST=1 $(BIN)/python -m pytest dicelab tests $(NOTEBOOKS) \
	  --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=1800

lint: $(STAMP)
	$(BIN)/ruff check dicelab tests benchmarks notebooks

benchmark: $(STAMP)
	for b in benchmarks/*.py; do $(BIN)/python "$$b" || exit 1; done

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
