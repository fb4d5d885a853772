# Sourced by the set-up scripts: makes .venv with Python >= 3.11 and installs
# the requirements files given as arguments (requirements.txt when none; each installs
# lexsub itself, editable: `pip install -e .[web]`, or adds to a file that does),
# reinstalling only when one of them or pyproject.toml changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
reqs=("$@")
[ "${#reqs[@]}" -gt 0 ] || reqs=(requirements.txt)

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
stamp=.venv/.installed-$(cat requirements.txt "${reqs[@]}" pyproject.toml | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "installing ${reqs[*]} into .venv" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  # a package built from source (llama-cpp-python) compiles on every core
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
    .venv/bin/python -m pip install --quiet "${reqs[@]/#/--requirement=}"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
export PATH="$root/.venv/bin:$PATH"
