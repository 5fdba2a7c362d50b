#!/usr/bin/env bash
# The engine's tests on the newest supported Python (3.13): a fresh venv with the bare
# install and the test extras (no web, no browser), then the tests that carry MARK.
# Without a working Python 3.13 it says so loudly and exits 0 (the pass did not run).
# Usage: .ci/test-newest.sh VENV MARK [PYTEST_ARG...]   (PYTHON_NEWEST: an interpreter to try first)
set -euo pipefail
venv="$1"
mark="$2"
shift 2
# Only the test files that set the mark are collected: a bare install cannot even import
# the ones that need an extra (the web table, NumPy), so `-m` alone over tests/ would fail.
mapfile -t files < <(grep -l "pytest\.mark\.$mark\b" tests/test_*.py)
[ "${#files[@]}" -gt 0 ] || { echo "!!! test-newest: no test file sets pytest.mark.$mark" >&2; exit 1; }
want="3.13"
py=""
for candidate in "${PYTHON_NEWEST:-}" "$(command -v python$want || true)" \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/$want*/bin/python$want; do
  [ -n "$candidate" ] && [ -x "$candidate" ] || continue
  # a pyenv shim exists even where that version is not selected: ask the interpreter itself
  if "$candidate" -c "import sys; assert sys.version_info[:2] == (3, 13)" 2>/dev/null; then
    py="$candidate"
    break
  fi
done
if [ -z "$py" ]; then
  echo "!!! test-newest: no working Python $want found (PYTHON_NEWEST, python$want on PATH, pyenv):" >&2
  echo "!!! the tests on the newest Python did NOT run" >&2
  exit 0
fi
echo "test-newest: $("$py" --version) at $py"
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e '.[test]'
"$venv/bin/python" -m pytest -n 2 -q -p no:cacheprovider -m "$mark" "$@" "${files[@]}"
