#!/usr/bin/env bash
# The page's browser test (page_it.py): creates, once, a virtual environment with
# Playwright for Python from PyPI under the build tree, then runs the test with its Python
# against Debian's Chromium (deploy/install-deps.sh installs both chromium and
# python3-venv; Playwright downloads no browser here).
#   page_it.sh VENV_DIR OUT_DIR --ratingd BIN --ratingctl BIN
set -euo pipefail
venv=$1
out=$2
shift 2
if ! "$venv/bin/python" -c "import playwright" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "playwright==1.65.2"
fi
exec "$venv/bin/python" "$(dirname "$0")/page_it.py" --out "$out" "$@"
