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
# Extra arguments for the host tool targets, e.g. `make sim ARGS="--scenario F --json"`.
ARGS ?=

.PHONY: help venv test pytest lint clean

help:
	@echo "make test    lint, then every test (CPython, MicroPython unix port, mpy-cross)"
	@echo "make lint    ruff over firmware/ host_tools/ tests/ tools/, mypy of firmware/ vs the Pico"
	@echo "make pytest  only the tests (PYTEST_ARGS=... passes options to pytest)"
	@echo "make sim     play on the simulated board, no hardware (ARGS=... for the tool)"
	@echo "make bench   speed and memory table (the AI's decision times and heap included)"
	@echo "make bench-chip UF2=RPI_PICO.uf2  the firmware on an emulated RP2040 (stock MicroPython), minutes"
	@echo "make bench-board [PORT=...]  the board's own loop statistics over its serial link"
	@echo "make duel    AI against a baseline, e.g. ARGS=\"--white ai --black greedy --games 400\""
	@echo "make soak    10,000 random games through the firmware (SOAK_GAMES=, SOAK_MP=)"
	@echo "make flash   build the firmware and copy what changed to a Pico (PORT=..., BOARD=board_def/NAME.json, NET=net.json for a Pico W)"
	@echo "make hardware  regenerate hardware/ (every board; ARGS=\"--board board_def/NAME.json\": one)"
	@echo "make guide   regenerate the player's guide (docs/guide.pdf) from board_def/"
	@echo "make web     build the browser simulator into build/web/ (a static site)"
	@echo "make live    the live board in the browser, over its serial link (PORT=...)"
	@echo "make web-screenshot  rewrite docs/web-page.png, docs/web-halunken.png, docs/web-kami.png, docs/web-live.png, docs/web-remote.png and docs/web-remote-halunken.png from the browser tests"
	@echo "make venv    create .venv and install the pinned tools (any target does it)"
	@echo "make clean   remove .venv, caches and build output"

# ------------------------------------------------------------------------------ venv

venv: $(VENV_STAMP)

# Quiet, and whatever it says goes to stderr: `make sim ARGS="--scenario F --json" > out.json`
# gives the tool's JSON alone, even when this first builds the venv.
$(VENV_STAMP): pyproject.toml tools/mpy_typeshed.py
	@echo "make: setting up $(VENV) (first run, or pyproject.toml changed) ..." >&2
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install --disable-pip-version-check --quiet --quiet -e '.[dev]' >&2
	@$(BIN)/python tools/mpy_typeshed.py $(TYPESHED) >&2
	@touch $@

# System packages, asked for only by what needs them: playing (`make sim`) needs none.
#   tmux           the terminal-play test drives a real terminal (make test, make pytest)
#   cairo, DejaVu  PNG and PDF drawings, byte for byte the same (make test, make hardware)
#   npm            builds the web page (make web, make test)
#   chromium       Debian's browser, driven by the browser tests (make test; never a download)
#   mosquitto      the MQTT broker the remote play tests start on loopback (make test)
#   openssl        makes the certificate of that broker's TLS listener (make test)
# Missing ones are named with the command that installs them, and make stops. Only on CI
# (CI=true, as .ci/run sets it) are they installed, with apt-get, as root.
NEED_TMUX := command -v tmux >/dev/null
NEED_CAIRO := $(BIN)/python -c 'import cairosvg' >/dev/null 2>&1
NEED_FONTS := { test -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || \
  fc-list 2>/dev/null | grep -q 'DejaVuSans.ttf' || \
  ls ~/Library/Fonts/DejaVuSans.ttf /Library/Fonts/DejaVuSans.ttf >/dev/null 2>&1; }
NEED_NPM := command -v npm >/dev/null
NEED_CHROMIUM := test -x "$${KAHUNA_CHROMIUM:-/usr/bin/chromium}"
NEED_MOSQUITTO := { test -x /usr/sbin/mosquitto || command -v mosquitto >/dev/null; }
NEED_OPENSSL := command -v openssl >/dev/null

# $(call sysdeps,CHECKS,WHO): each CHECK is tmux, cairo, fonts, npm, chromium, mosquitto or
# openssl;
# WHO is named if one is missing.
define sysdeps
missing=""; \
$(if $(filter tmux,$(1)),$(NEED_TMUX) || missing="$$missing tmux";) \
$(if $(filter cairo,$(1)),$(NEED_CAIRO) || missing="$$missing cairo";) \
$(if $(filter fonts,$(1)),$(NEED_FONTS) || missing="$$missing fonts";) \
$(if $(filter npm,$(1)),$(NEED_NPM) || missing="$$missing npm";) \
$(if $(filter chromium,$(1)),$(NEED_CHROMIUM) || missing="$$missing chromium";) \
$(if $(filter mosquitto,$(1)),$(NEED_MOSQUITTO) || missing="$$missing mosquitto";) \
$(if $(filter openssl,$(1)),$(NEED_OPENSSL) || missing="$$missing openssl";) \
if [ -n "$$missing" ]; then \
  deb=$$(echo $$missing | sed 's/cairo/libcairo2/; s/fonts/fonts-dejavu-core/; s/npm/nodejs npm/'); \
  brew=$$(echo $$missing | sed 's/fonts/font-dejavu/; s/npm/node/'); \
  if [ "$${CI:-}" = true ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
    echo "make: CI: installing $$deb" >&2; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$deb >/dev/null; \
  else \
    echo "make: $(2) cannot run, system packages are missing:$$missing" >&2; \
    echo "  Debian/Ubuntu: sudo apt-get install $$deb" >&2; \
    echo "  macOS:         brew install $$brew" >&2; \
    exit 1; \
  fi; \
fi
endef

.PHONY: sysdeps
sysdeps: venv
	@$(call sysdeps,tmux cairo fonts npm chromium mosquitto openssl,make test)

# ------------------------------------------------------------------------------ checks

# Lint first: it is quick and a failure stops before the slower tests.
test: lint pytest

# pytest's own exit status (5 = no tests collected) is make's: nothing is swallowed.
pytest: venv sysdeps
	$(BIN)/pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy

# ------------------------------------------------------------------------------ host tools
# Each runs `python -m host_tools <target> $(ARGS)`. A new one (flash, soak, hardware, ...)
# that needs nothing more is added to this list; one with its own prerequisites gets a rule.

HOST_TOOLS := bench sim duel
.PHONY: $(HOST_TOOLS)

# Silent (@): standard output is the tool's own, e.g. pure JSON with --json.
$(HOST_TOOLS): venv
	@$(BIN)/python -m host_tools $@ $(ARGS)

# make flash [PORT=/dev/ttyACM0]: compile the firmware with mpy-cross and copy what changed
# to the board with mpremote, then reset it and wait for its boot line. Without PORT: the
# first Pico found. A virtual board (python -m host_tools vboard) prints its port.
# BOARD=board_def/NAME.json: another board definition (it names the game it installs).
# A Pico W's board definition ("hardware": {"network": "wifi"}) also gets the MQTT client,
# fetched once from PyPI by pinned hash into .cache/pypi/ (host_tools/maker/mqttlib.py;
# git ignores it and `make clean` keeps it: offline builds go on working; KB_PYPI_CACHE=DIR
# names another folder); NET=net.json writes its Wi-Fi and broker settings (never shown).
PORT ?=
NET ?=
.PHONY: flash
flash: venv
	@$(BIN)/python -m host_tools flash $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board-def $(BOARD)) $(if $(NET),--net $(NET)) $(ARGS)

# make bench-chip UF2=path/to/RPI_PICO.uf2: the firmware on an emulated RP2040 (rp2040py,
# pinned in pyproject.toml) running the stock MicroPython rp2 port that UF2 holds: tap to
# frame, frame cadence, link round trip, AI decisions and heap, in RP2040 time
# (host_tools/measure/chipbench.py). Minutes of wall time; not part of `make test`.
UF2 ?=
.PHONY: bench-chip bench-board
bench-chip: venv
	@$(BIN)/python -m host_tools chipbench $(if $(UF2),--uf2 $(UF2)) $(ARGS)

# make bench-board [PORT=/dev/ttyACM0]: the board's own loop statistics, asked over its
# serial link ({"cmd": "bench"}); without PORT: the first Pico found.
bench-board: venv
	@$(BIN)/python -m host_tools bench --board $(if $(PORT),--port $(PORT)) $(ARGS)

# The full soak: 10,000 random games (300 of them inside MicroPython), about 5 minutes.
# `make test` runs a small one (tests/games/kahuna/test_soak.py). SOAK_GAMES=... SOAK_MP=... to change.
SOAK_GAMES ?= 10000
SOAK_MP ?= 300
.PHONY: soak
soak: venv
	@$(BIN)/python -m host_tools soak --games $(SOAK_GAMES) --micropython $(SOAK_MP)

# ------------------------------------------------------------------------------ hardware docs
# hardware/: BOM, wiring, power budget, LED chain and the 1:1 drilling template of every
# board definition: board_def/kahuna.json's in hardware/, another's in hardware/NAME/
# (host_tools/documents/hardware.py; tests/core/test_hardware.py fails while they are
# stale). PNG and PDF go through cairosvg, which needs the system's libcairo2.

# docs/guide.pdf and docs/guide-*.svg: the player's guide, two A4 pages, from board_def and
# the firmware's tables (the game's guide part, host_tools/games/kahuna/guidepages.py; tests/games/kahuna/test_guide.py fails while stale).
.PHONY: guide
guide: venv
	@$(call sysdeps,cairo fonts,make guide)
	@$(BIN)/python -m host_tools guide $(ARGS)

.PHONY: hardware
hardware: venv
	@$(call sysdeps,cairo fonts,make hardware)
	@$(BIN)/python -m host_tools hardware $(ARGS)

# ------------------------------------------------------------------------------ web page
# make web: the browser simulator, a static site in build/web/ (host_tools/web/build.py): the
# firmware and the simulator's virtual hardware on MicroPython's WebAssembly port, installed
# by `npm ci` from web/package-lock.json. Serve the folder with any static server:
#   python -m http.server -d build/web 8000
# Its tests (tests/games/kahuna/test_web.py) drive Debian's Chromium with Playwright (never a browser
# download). npm and Chromium are system packages (see sysdeps above).

.PHONY: web web-screenshot live
web: venv
	@$(call sysdeps,npm,make web)
	@$(BIN)/python -m host_tools web --build $(ARGS)

# make live [PORT=/dev/ttyACM0]: the live page (host_tools/web/live.py) on
# http://127.0.0.1:8765/, connected to the board's serial link; without PORT: the first
# Pico found. A virtual board (python -m host_tools vboard) prints its port.
live: venv
	@$(BIN)/python -m host_tools web $(if $(PORT),--port $(PORT)) $(ARGS)

# The README's pictures of the pages, taken by the browser tests' own code.
web-screenshot: venv
	@$(call sysdeps,npm chromium mosquitto,make web-screenshot)
	$(BIN)/pytest -q tests/games/kahuna/test_web.py tests/games/halunken/test_halunken_web.py tests/games/kami/test_kami_web.py tests/core/test_web_live.py tests/remote/test_remote_web.py tests/remote/test_remote_web_halkami.py -k "screenshot or live_page" --update-screenshots

# ------------------------------------------------------------------------------ clean

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
