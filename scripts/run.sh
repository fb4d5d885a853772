#!/usr/bin/env bash
# Sets up everything (.venv, requirements), prepares the database (SQLite in instance/
# unless DATABASE_URL is set), loads the demo dataset and accounts, and starts the app.
# HOST and PORT may be set in the environment (default 127.0.0.1:5000).
source "$(dirname "$0")/_venv.sh" requirements.txt
lexsub db upgrade
lexsub demo
echo "open http://${HOST:-127.0.0.1}:${PORT:-5000}/ and log in with an account above" \
  "(the organiser's password, made for this install, is printed the first time only)" >&2
exec lexsub serve --host "${HOST:-127.0.0.1}" --port "${PORT:-5000}"
