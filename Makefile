# Two commands: `make run` starts the app on the sample corpus, `make test` runs the tests.
# Each creates .venv when it is missing and installs what the project needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501

.PHONY: run test test-fast screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/sensemaker app --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not slow and not browser"

# the README's pictures: the browser test drives the app on the sample corpus and saves them
screenshots: $(STAMP)
	SENSEMAKER_SCREENSHOTS=$(CURDIR)/assets/screenshots $(BIN)/python -m pytest tests/test_browser_newcomer.py -k download -q

clean:
	rm -rf $(VENV) .pytest_cache
