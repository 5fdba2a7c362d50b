#!/usr/bin/env bash
# The compiled build: copy the tree to DIR, compile the engine's hot modules
# there with mypyc (setup.py's COMPILED_MODULES, in place), check that the copy
# really imports compiled modules, then run pytest on it with the given arguments (none: only
# build), e.g. `-m compiled tests`.
# Usage: .ci/test-compiled.sh PYTHON DIR [PYTEST_ARG...]
set -euo pipefail
py="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
dir="$2"
shift 2
root="$(pwd)"
shared="${TIKKI_SHARED:-$(cd "$root/.." && pwd)/shared}"
rm -rf "$dir"
mkdir -p "$dir"
# the tracked files of the package and its tests (no venv, no caches, no compiled leftovers)
copy() { tar -c --exclude='__pycache__' --exclude='*.so' --exclude='*.pyc' "$@" | tar -x -C "$dir"; }
copy tikki setup.py  # pyproject.toml after the build: mypyc's setuptools need not read it
cd "$dir"
echo "test-compiled: compiling with mypyc in $dir"
start=$(date +%s)
modules=$("$py" -c "import setup; print(' '.join(setup.COMPILED_MODULES))")
# shellcheck disable=SC2086
"$py" -m mypyc $modules >build.log 2>&1 || {
  tail -40 build.log >&2
  echo "!!! test-compiled: the mypyc build failed (whole log: $dir/build.log)" >&2
  exit 1
}
cd "$root"
copy tests conftest.py pyproject.toml docs examples benchmarks tools
cd "$dir"
echo "test-compiled: built in $(( $(date +%s) - start )) s"
"$py" -c "import tikki, sys; print('test-compiled: compiled =', tikki.COMPILED); sys.exit(0 if tikki.COMPILED else 1)"
[ "$#" -gt 0 ] || exit 0
TIKKI_SHARED="$shared" "$py" -m pytest -n 2 -q -p no:cacheprovider "$@"
