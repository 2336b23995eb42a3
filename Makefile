# dicelab -- `make` reproduces everything, `make test` checks everything, `make lab` opens JupyterLab.
# `make test-fast` (about a minute) before every commit: the package's unit, property and doctests.
# Only Python 3.11 and pip are needed: the first run creates .venv/ and installs requirements.txt.
# `make book` builds the course site (also needs npm, for a local MathJax); `make pdf` prints it, one
# PDF per chapter and solutions; `make test-browser` checks the site, its PDFs and the chapters in
# JupyterLab in headless Chromium (installed with apt-get when run as root and missing). `make homework`
# builds the homework notebooks and autograders; `make grade SUBMISSIONS=folder` grades them into a CSV.

PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb)) $(sort $(wildcard solutions/*.ipynb))
export PATH := $(BIN):$(PATH)

.PHONY: all setup notebooks summary test test-fast lint benchmark lab clean book test-browser pdf homework grade

all: notebooks summary

# (Re)install whenever the requirements or the package metadata change.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

# Execute every notebook in place: the canonical run, the only one that refreshes the committed
# figures/ and results/ (any other run writes to scratch/). Then strip and normalise, so re-runs are
# byte-identical and each notebook is in the form JupyterLab saves it (normalise last: nbstripout
# drops the "collapsed" field that JupyterLab writes for a folded cell).
# JOBS notebooks at once (each writes only its own figures and ledger), the longest chapters first.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
notebooks: $(STAMP)
	printf '%s\n' $(filter notebooks/05_%,$(NOTEBOOKS)) $(filter-out notebooks/05_%,$(NOTEBOOKS)) | \
	  xargs -P $(JOBS) -I{} sh -c 'echo "executing {}"; DICELAB_CANONICAL=1 $(BIN)/jupyter nbconvert \
	    --to notebook --execute --inplace --log-level=WARN --ExecutePreprocessor.kernel_name=python3 \
	    --ExecutePreprocessor.timeout=3600 "{}" || exit 255'
	$(BIN)/nbstripout --keep-output --keep-count $(NOTEBOOKS)
	$(BIN)/python -m dicelab.course.notebook normalise $(NOTEBOOKS)

# The claims summary of every notebook, also written into README.md.
summary: $(STAMP)
	DICELAB_CANONICAL=1 $(BIN)/python -m dicelab.course.claims --readme README.md

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

# Grading runs each notebook under bubblewrap (homework/sandbox.py): installed with apt-get when run
# as root and missing, as Chromium is for the browser test.
NEED_BWRAP = @command -v bwrap >/dev/null || \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap; \
	  else echo "grading needs bubblewrap: sudo apt-get install bubblewrap"; exit 1; fi

test: $(STAMP)
	$(NEED_BWRAP)
	$(PYTEST) dicelab tests $(NOTEBOOKS) --ignore=tests/browser --durations=15 $(PYTEST_ARGS) \
	  --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=1800

# Homework: per chapter with a spec homework/NN_name.yml, a student notebook and an Otter-Grader
# autograder, built from the worked solutions into homework/_build/ (git-ignored).
# HOMEWORK_BUILD: where (homework/_build); CHAPTERS: which, e.g. CHAPTERS=01_efron_dice (all by default).
HOMEWORK_BUILD ?= homework/_build
CHAPTERS ?=
homework: $(STAMP)
	$(BIN)/python homework/build.py --out "$(HOMEWORK_BUILD)" $(if $(ROSTER),--roster "$(ROSTER)") $(CHAPTERS)

# Grade a folder of student notebooks into a CSV of scores per exercise (SUBMISSIONS=folder,
# GRADES=grades.csv): each notebook runs in a bubblewrap sandbox (homework/sandbox.py; installed with
# apt-get when run as root and missing), its answers are compared here with the keys it never sees.
# GRADE_FLAGS passes e.g. --cell-seconds 60 --notebook-seconds 300 --jobs 2.
SUBMISSIONS ?= submissions
GRADES ?= grades.csv
GRADE_FLAGS ?=
grade: $(STAMP)
	@test -d "$(HOMEWORK_BUILD)" || { echo "run make homework first"; exit 1; }
	$(NEED_BWRAP)
	$(BIN)/python homework/grade.py "$(SUBMISSIONS)" --out "$(GRADES)" --build "$(HOMEWORK_BUILD)" \
	  $(if $(ROSTER),--roster "$(ROSTER)") $(GRADE_FLAGS)

lint: $(STAMP)
	$(BIN)/ruff check dicelab tests benchmarks notebooks homework

# Every timing script in benchmarks/ (budgets.py fails when an estimate is off by more than a
# factor of 3); suite.py times the test tiers and every notebook (CPU and wall; see its docstring).
# All run; the target fails after them if one failed.
benchmark: $(STAMP)
	status=0; for b in benchmarks/[a-z]*.py; do echo "== $$b"; $(BIN)/python "$$b" || status=1; done; exit $$status

# JupyterLab on the repository's root, open on the course guide, so that every link between the
# chapters, solutions/ and the explorers opens. As root (many containers), JupyterLab needs
# --allow-root. Saving a notebook drops the live widgets' views (dicelab.course.notebook.pre_save_hook):
# playing with the explorers changes no file.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root) \
  --ContentsManager.pre_save_hook=dicelab.course.notebook.pre_save_hook \
  --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks/00_course_guide.ipynb

lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS)

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

# Chromium for the browser test and the PDFs: the system's (apt-get install chromium, run here
# when root and missing; or CHROMIUM=/path/to/chromium).
NEED_CHROMIUM = @command -v chromium >/dev/null || command -v chromium-browser >/dev/null || [ -n "$$CHROMIUM" ] || \
  if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
  else echo "$@ needs Chromium: sudo apt-get install chromium (or set CHROMIUM)"; exit 1; fi

# The printable course: one PDF per page of notebooks/ and solutions/, printed from the built site
# by Chromium (hints and folded cells opened, code wrapped, page numbers) into book/_build/html/pdf/,
# where each page's ".pdf" download entry leads.
pdf: book
	$(NEED_CHROMIUM)
	$(BIN)/python book/pdf.py

# axe-core, the accessibility checker the browser test runs on every page (WCAG 2.1 A and AA rules),
# pinned from the npm registry like MathJax.
AXE_VERSION := 4.14.1
AXE := book/_vendor/axe/node_modules/axe-core/axe.min.js
AXE_STAMP := book/_vendor/axe/.axe-core-$(AXE_VERSION)

$(AXE_STAMP):
	npm install --prefix book/_vendor/axe --no-save --no-package-lock --no-audit --no-fund axe-core@$(AXE_VERSION)
	touch $@

# Every page of the site in headless Chromium, from disk with no network, its PDF handouts, and
# the chapters in a real JupyterLab (tests/browser/). Four workers on two cores: a page's test
# spends much of its time waiting on the browser, and the site's and JupyterLab's tests share them.
test-browser: pdf $(AXE_STAMP)
	$(BIN)/python -m pytest tests/browser -p no:cacheprovider -n 4 --dist load

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
