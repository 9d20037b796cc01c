# Kahuna board: venv, lint, tests and host tools. `make help` lists the targets.
# Everything runs from the project's own venv (.venv), which the first target that needs
# it creates; it is reinstalled when pyproject.toml changes.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
VENV_STAMP := $(VENV)/.installed
# mypy's view of the Pico's MicroPython (see [tool.mypy] in pyproject.toml).
TYPESHED := $(VENV)/mpy-typeshed

LINT_PATHS := firmware host_tools tests tools
PYTEST_ARGS ?=
# Extra arguments for the host tool targets, e.g. `make sim ARGS="--seed 3"`.
ARGS ?=

.PHONY: help venv test pytest lint clean

help:
	@echo "make test    lint, then every test (CPython, MicroPython unix port, mpy-cross)"
	@echo "make lint    ruff over firmware/ host_tools/ tests/ tools/, mypy of firmware/ vs the Pico"
	@echo "make pytest  only the tests (PYTEST_ARGS=... passes options to pytest)"
	@echo "make sim     play on the simulated board, no hardware (ARGS=... for the tool)"
	@echo "make bench   speed and memory table (the AI's decision times and heap included)"
	@echo "make duel    AI against a baseline, e.g. ARGS=\"--white ai --black greedy --games 400\""
	@echo "make soak    10,000 random games through the firmware (SOAK_GAMES=, SOAK_MP=)"
	@echo "make flash   build the firmware and copy what changed to a Pico (PORT=...)"
	@echo "make hardware  regenerate hardware/ from board_def/"
	@echo "make venv    create .venv and install the pinned tools (any target does it)"
	@echo "make clean   remove .venv, caches and build output"

# ------------------------------------------------------------------------------ venv

venv: $(VENV_STAMP)

$(VENV_STAMP): pyproject.toml tools/mpy_typeshed.py
	@$(MAKE) sysdeps
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --quiet --quiet -e '.[dev]'
	$(BIN)/python tools/mpy_typeshed.py $(TYPESHED)
	@touch $@

# System packages some tools and tests need: tmux (the terminal-play test drives a real
# terminal), cairo and the DejaVu fonts (PNG and PDF drawings, byte for byte the same). Installed with apt-get when missing, which
# needs root (as on CI); otherwise the message says what to install.
.PHONY: sysdeps
sysdeps:
	@missing=""; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	ldconfig -p 2>/dev/null | grep -q 'libcairo.so.2' || missing="$$missing libcairo2"; \
	test -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "please install:$$missing (apt-get install$$missing)"; exit 1; fi; \
	fi

# ------------------------------------------------------------------------------ checks

# Lint first: it is quick and a failure stops before the slower tests.
test: lint pytest

# pytest's own exit status (5 = no tests collected) is make's: nothing is swallowed.
pytest: venv
	$(BIN)/pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy

# ------------------------------------------------------------------------------ host tools
# Each runs `python -m host_tools <target> $(ARGS)`. A new one (flash, soak, hardware, ...)
# that needs nothing more is added to this list; one with its own prerequisites gets a rule.

HOST_TOOLS := bench sim duel
.PHONY: $(HOST_TOOLS)

$(HOST_TOOLS): venv
	$(BIN)/python -m host_tools $@ $(ARGS)

# make flash [PORT=/dev/ttyACM0]: compile the firmware with mpy-cross and copy what changed
# to the board with mpremote, then reset it and wait for its boot line. Without PORT: the
# first Pico found. A virtual board (python -m host_tools.vboard --dir DIR) prints its port.
PORT ?=
.PHONY: flash
flash: venv
	$(BIN)/python -m host_tools.flash $(if $(PORT),--port $(PORT)) $(ARGS)

# The full soak: 10,000 random games (300 of them inside MicroPython), about 5 minutes.
# `make test` runs a small one (tests/test_soak.py). SOAK_GAMES=... SOAK_MP=... to change.
SOAK_GAMES ?= 10000
SOAK_MP ?= 300
.PHONY: soak
soak: venv
	$(BIN)/python -m host_tools soak --games $(SOAK_GAMES) --micropython $(SOAK_MP)

# ------------------------------------------------------------------------------ hardware docs
# hardware/: BOM, wiring, power budget, LED chain and the 1:1 drilling template, all from
# board_def/kahuna.json (host_tools/hardware.py; tests/test_hardware.py fails while they
# are stale). PNG and PDF go through cairosvg, which needs the system's libcairo2.

.PHONY: hardware
hardware: venv
	$(BIN)/python -m host_tools.hardware $(ARGS)

# ------------------------------------------------------------------------------ clean

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
