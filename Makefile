# Every target makes its own virtual environment: a fresh machine needs only python3 >= 3.11.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/noize-4p.toml

.PHONY: demo test bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/analyzer run $(SCENARIO) --out reports/demo
	@echo "Open reports/demo/index.html (Markdown: reports/demo/report.md)"

test: $(STAMP)
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(VENV)/bin/analyzer bench

clean:
	rm -rf $(VENV) build *.egg-info
