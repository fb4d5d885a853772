#!/usr/bin/env bash
# Sets up everything (.venv, requirements) and runs every check and test.
# Extra arguments go to pytest, e.g. scripts/test.sh -k oracle
source "$(dirname "$0")/_venv.sh" requirements-dev.txt
echo "== ruff" >&2
ruff check .
echo "== mypy" >&2
mypy
echo "== pytest" >&2
python -m pytest "$@"
