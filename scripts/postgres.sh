#!/usr/bin/env bash
# Prints the URL of a PostgreSQL database for the tests (lexsub_test, or the name in
# LEXSUB_TEST_DATABASE, e.g. to run two checkouts' tests at once), making one when
# needed: the server at 127.0.0.1:5432 (user postgres) when one answers, otherwise
# Debian's postgresql installed with apt-get and started. Exits 1 when neither works.
# Needs the project's .venv (psycopg); scripts/test.sh calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python

try_url() {  # $1: server URL (database postgres); creates lexsub_test, prints its URL
  "$py" - "$1" <<'PY'
import os
import re
import sys
import psycopg
base = sys.argv[1]
name = os.environ.get("LEXSUB_TEST_DATABASE") or "lexsub_test"
if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
    sys.exit(f"LEXSUB_TEST_DATABASE {name!r} is not a plain lower-case database name")
try:
    with psycopg.connect(base + "/postgres", autocommit=True, connect_timeout=3) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f"CREATE DATABASE {name}")
except Exception as error:
    print(f"no PostgreSQL at {base}: {error}".splitlines()[0], file=sys.stderr)
    sys.exit(1)
print(f"{base}/{name}")
PY
}

for base in "postgresql://postgres@127.0.0.1:5432" "postgresql://postgres:postgres@127.0.0.1:5432"; do
  if try_url "$base"; then exit 0; fi
done

if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "no PostgreSQL server and no way to install one (needs root and apt-get)" >&2
  exit 1
fi
if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  echo "installing PostgreSQL with apt-get" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
version=$(ls /etc/postgresql | sort -n | tail -1)
pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
# None answered, so this cluster is the tests' own: tests/test_faults.py may restart it.
mkdir -p instance && echo "$version main" > instance/postgres-started-by-tests
for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >&2
try_url "postgresql://postgres:postgres@127.0.0.1:5432"
