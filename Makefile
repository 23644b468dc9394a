# Every target makes its own virtual environment: a fresh machine needs only python3 >= 3.11.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SCENARIO ?= scenarios/noize-4p.toml

.PHONY: demo test test-strength bench examples clean bytecode

# a venv without pip (ensurepip's copy of pip costs 4 s), uv put in it by this Python's pip where that pip can install
# into another environment (--python: pip 22.3 and later), else by the venv's own pip
$(PY):
	$(PYTHON) -m venv --without-pip $(VENV)

# uv installs the packages (the same versions as pip's) on both cores; then the installed packages are byte-compiled
# on both cores, their test folders left out (uv's --compile-bytecode compiles all 7,500 files: 10 s of a fresh
# clone's make test, against 8 s for the 4,900 outside tests/); without uv (no wheel for the platform) pip does it all
$(STAMP): pyproject.toml | $(PY)
	if $(PYTHON) -m pip --python $(PY) install --quiet uv 2>/dev/null \
			|| { $(PY) -m ensurepip --upgrade >/dev/null && $(PY) -m pip install --quiet uv; }; then \
		$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[test]' \
		&& $(PY) -m compileall -q -j 0 -x '/tests?/' "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null; \
	else $(PY) -m ensurepip --upgrade >/dev/null && $(PY) -m pip install --quiet --upgrade pip \
		&& $(PY) -m pip install --quiet -e '.[test]'; fi
	touch $(STAMP)

# the analyzer's own modules byte-compiled, as an installed package's are: an editable install leaves them as sources,
# and where PYTHONDONTWRITEBYTECODE is set every process compiled them again (a cached `analyzer run` of fightsong-4p
# with its report 1.62 -> 1.42 s, docs/performance.md). Up to date, it only checks the files' times.
bytecode: $(STAMP)
	$(PY) -m compileall -q analyzer

demo: $(STAMP) bytecode
	$(VENV)/bin/analyzer run $(SCENARIO) --out reports/demo
	@echo "Open reports/demo/index.html (Markdown: reports/demo/report.md)"

# one test process per core (pytest-xdist), each test file on one process: a file's tests share the kernels it
# compiles, and the processes share the numba cache (analyzer/jit_setup.py)
TEST_PROCESSES ?= auto
test: $(STAMP) bytecode
	$(VENV)/bin/pytest -q -n $(TEST_PROCESSES) --dist loadfile

# the decisive strength measurements (tests marked strength: minutes each), left out of `make test`
test-strength: $(STAMP) bytecode
	$(VENV)/bin/pytest -q -m strength

bench: $(STAMP) bytecode
	$(VENV)/bin/analyzer bench

# reports/examples: a full-size run of every shipped scenario (a profile scenario's profile); a few of them are
# committed (one per kind of report, reports/README.md), the rest are ignored by git
examples: $(STAMP) bytecode
	for f in scenarios/*.toml; do \
		case $$f in *-profile.toml) command=profile;; *) command=run;; esac; \
		$(VENV)/bin/analyzer $$command $$f -q --out reports/examples/$$(basename $$f .toml) || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
