# dicelab -- `make` reproduces everything, `make test` checks everything, `make lab` opens JupyterLab.
# `make test-fast` (about a minute) before every commit: the package's unit, property and doctests.
# Only Python 3.11 and pip are needed: the first run creates .venv/ and installs requirements.txt.
# `make book` builds the course site (also needs npm, for a local MathJax); `make test-browser`
# checks it in headless Chromium (installed with apt-get when run as root and missing). `make homework`
# builds the homework notebooks and autograders; `make grade SUBMISSIONS=folder` grades them into a CSV.

PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb)) $(sort $(wildcard solutions/*.ipynb))
export PATH := $(BIN):$(PATH)

.PHONY: all setup notebooks summary test test-fast lint benchmark lab clean book test-browser homework grade

all: notebooks summary

# (Re)install whenever the requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

# Execute every notebook in place: the canonical run, the only one that refreshes the committed
# figures/ and results/ (any other run writes to scratch/). Then normalise, so re-runs are byte-identical.
# JOBS notebooks at once (each writes only its own figures and ledger), the longest chapters first.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
notebooks: $(STAMP)
	printf '%s\n' $(filter notebooks/05_%,$(NOTEBOOKS)) $(filter-out notebooks/05_%,$(NOTEBOOKS)) | \
	  xargs -P $(JOBS) -I{} sh -c 'echo "executing {}"; DICELAB_CANONICAL=1 $(BIN)/jupyter nbconvert \
	    --to notebook --execute --inplace --log-level=WARN --ExecutePreprocessor.kernel_name=python3 \
	    --ExecutePreprocessor.timeout=3600 "{}" || exit 255'
	$(BIN)/python -m dicelab.notebook normalise $(NOTEBOOKS)
	$(BIN)/nbstripout --keep-output --keep-count $(NOTEBOOKS)

# The claims summary of every notebook, also written into README.md.
summary: $(STAMP)
	DICELAB_CANONICAL=1 $(BIN)/python -m dicelab.claims --readme README.md

# The tiers (markers in pyproject.toml). `make test-fast`: the package's unit, property and
# doctests, no notebook, no homework, no install, no full-size solve, nothing timed. `make test`:
# everything -- every notebook once through nbval (fast mode; each chapter's ledger checked from
# that run), papermill's parameters, the homework built (kept between runs while its sources are
# unchanged) and graded, the plain install, the project's checks -- on JOBS cores (pytest-xdist;
# a notebook's cells, like a test module's tests, stay together on one worker: conftest.py).
# Timing is `make benchmark`'s. A run that selects no test (e.g. PYTEST_ARGS="-k ...") passes:
# conftest.py turns pytest's exit code 5 into 0.
PYTEST := DICELAB_FAST=1 $(BIN)/python -m pytest -n $(JOBS) --dist loadscope --no-loadscope-reorder
PYTEST_ARGS ?=

test-fast: $(STAMP)
	$(PYTEST) dicelab tests --ignore=tests/browser --ignore=tests/test_notebooks.py \
	  --ignore=tests/test_reproducible.py -p no:nbval $(PYTEST_ARGS) \
	  -m "not notebook and not homework and not install and not slow"

test: $(STAMP)
	$(PYTEST) dicelab tests $(NOTEBOOKS) --ignore=tests/browser --durations=15 $(PYTEST_ARGS) \
	  --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=1800

# Homework: per chapter with a spec homework/NN_name.yml, a student notebook and an Otter-Grader
# autograder, built from the worked solutions into homework/_build/ (git-ignored).
homework: $(STAMP)
	$(BIN)/python homework/build.py

# Grade a folder of student notebooks into a CSV of scores per exercise (SUBMISSIONS=folder,
# GRADES=grades.csv): `otter run` with each chapter's autograder, no Docker.
SUBMISSIONS ?= submissions
GRADES ?= grades.csv
grade: $(STAMP)
	@test -d homework/_build || { echo "run make homework first"; exit 1; }
	$(BIN)/python homework/grade.py "$(SUBMISSIONS)" --out "$(GRADES)"

lint: $(STAMP)
	$(BIN)/ruff check dicelab tests benchmarks notebooks homework

# Every timing script in benchmarks/ (budgets.py fails when an estimate is off by more than a
# factor of 3); suite.py times the test tiers and every notebook (CPU and wall; see its docstring).
# All run; the target fails after them if one failed.
benchmark: $(STAMP)
	status=0; for b in benchmarks/[a-z]*.py; do echo "== $$b"; $(BIN)/python "$$b" || status=1; done; exit $$status

# As root (many containers), JupyterLab needs --allow-root. Saving a notebook drops the live
# widgets' views (dicelab.notebook.pre_save_hook): playing with the explorers changes no file.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root) \
  --ContentsManager.pre_save_hook=dicelab.notebook.pre_save_hook

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks $(LAB_FLAGS)

# The course site: the committed, executed notebooks as static HTML in book/_build/html/
# (nothing is re-executed), readable offline: MathJax is a local copy from the npm registry.
MATHJAX_VERSION := 3.2.2
MATHJAX := book/_static/mathjax/tex-svg-full.js
MATHJAX_STAMP := book/_vendor/.mathjax-$(MATHJAX_VERSION)

$(MATHJAX_STAMP):
	npm install --prefix book/_vendor --no-save --no-package-lock --no-audit --no-fund mathjax@$(MATHJAX_VERSION)
	touch $@

$(MATHJAX): $(MATHJAX_STAMP)
	mkdir -p $(@D)
	cp book/_vendor/node_modules/mathjax/es5/tex-svg-full.js $@

book: $(STAMP) $(MATHJAX)
	$(BIN)/python book/check_toc.py
	$(BIN)/python book/repository.py --check
	rm -rf book/_build
	$(BIN)/jupyter-book build . --config book/_config.yml --toc book/_toc.yml --path-output book --all

# Every page of the site in headless Chromium, from disk with no network (tests/browser/).
test-browser: book
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || [ -n "$$CHROMIUM" ] || \
	  if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else echo "make test-browser needs Chromium: sudo apt-get install chromium (or set CHROMIUM)"; exit 1; fi
	$(BIN)/python -m pytest tests/browser -p no:cacheprovider

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
