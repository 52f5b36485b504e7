# parlour — `make run` and `make test` each work alone on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.parlour-installed
PYTEST_ARGS ?=

.PHONY: run test test-slow bench lint format clean chromium layers banks screenshots

$(STAMP): pyproject.toml setup.py constraints.txt parlour.pth
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=24"
	$(PY) -m pip install --quiet -c constraints.txt -e ".[train,dev,ecosystem,web,rllib,openspiel]"
	# an editable install leaves out parlour.pth (the start-up registration hook): add it
	$(PY) -c "import shutil, sysconfig; shutil.copy('parlour.pth', sysconfig.get_paths()['purelib'])"
	touch $(STAMP)

# Train PPO on Audition 2p for a few minutes, evaluate against random and audition.greedy,
# print the table; results in runs/audition_2p/ (report.md, report.json, learning_curve.png).
RUN_CONFIG ?= configs/audition_2p.yaml
run: $(STAMP)
	$(VENV)/bin/parlour train $(RUN_CONFIG)

# the browser tests (tests/web) drive the OS's Chromium: install it when it is missing
CHROMIUM ?= /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { echo "installing chromium (apt-get) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
	  || { echo "make test needs $(CHROMIUM): run 'apt-get install -y chromium' as root"; exit 1; }

test: $(STAMP) chromium
	$(VENV)/bin/ruff format --check --quiet .
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q -n 2 -m "not slow" $(PYTEST_ARGS)

# the pictures of docs/images/ (docs/web.md), taken by the browser tests as they play
screenshots: $(STAMP) chromium
	PARLOUR_SCREENSHOTS=docs/images $(PY) -m pytest -q -p no:xdist tests/web/test_browser.py tests/web/test_browser_replay.py

test-slow: $(STAMP) chromium
	$(PY) -m pytest -q -n 2 -m slow $(PYTEST_ARGS)

bench: $(STAMP)
	mkdir -p bench_results
	$(PY) -m pip install --quiet -c constraints.txt -e ".[bench]"
	$(VENV)/bin/parlour bench --json bench_results/latest.json

lint: $(STAMP)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# the import graph's numbers and the picture of the layers of .importlinter, drawn from it
layers: $(STAMP)
	$(PY) tools/layers.py --svg docs/images/layers.svg --json docs/layers.json

# the shipped case banks (maintainers): 300 verified cases per level, splits train/val/test
# 70/15/15, seed 0; the files depend only on these arguments (docs/case_banks.md)
BANK_LEVELS := beginner very_easy easy medium hard very_hard expert
BANK_DIR    := envs/awkward_guests/case/banks
banks: $(STAMP)
	for level in $(BANK_LEVELS); do \
	  $(VENV)/bin/parlour case bank build $(BANK_DIR)/$$level.agbank --level $$level --count 300 \
	    --seed 0 --splits train=0.7,val=0.15,test=0.15 --workers 2 || exit 1; done

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
