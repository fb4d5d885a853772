# Sourced by the set-up scripts: makes .venv with Python >= 3.11 and installs
# the requirements file given as $1 (both install lexsub itself, editable: `pip install -e
# .[web]`), reinstalling only when it or pyproject.toml changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
req=${1:-requirements.txt}

find_python() {
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "lexsub needs Python 3.11 or newer (python3.11 or python3 on PATH)" >&2
  return 1
}

if [ ! -x .venv/bin/python ]; then
  py=$(find_python)
  echo "setting up .venv with $py" >&2
  if ! "$py" -m venv .venv; then
    # Debian-like systems ship venv/ensurepip separately (python3.X-venv)
    rm -rf .venv
    version=$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "installing python$version-venv with apt-get" >&2
      apt-get update -qq && apt-get install -y -qq "python$version-venv"
      "$py" -m venv .venv
    else
      echo "cannot create a virtual environment: install python$version-venv" >&2
      exit 1
    fi
  fi
fi
stamp=.venv/.installed-$(cat requirements.txt "$req" pyproject.toml | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "installing $req into .venv" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r "$req"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
