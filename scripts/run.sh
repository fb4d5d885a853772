#!/usr/bin/env bash
# Sets up everything (.venv, requirements) and starts the app on SQLite in instance/.
# HOST and PORT may be set in the environment (default 127.0.0.1:5000).
source "$(dirname "$0")/_venv.sh" requirements.txt
exec flask --app wsgi run --host "${HOST:-127.0.0.1}" --port "${PORT:-5000}"
