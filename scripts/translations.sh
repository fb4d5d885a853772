#!/usr/bin/env bash
# The annotator's pages in German, Italian, Spanish, French, Portuguese (Brazil) and
# Catalan (Flask-Babel): extract every msgid of the annotator's pages into
# annotate/translations/messages.pot, merge it into each
# LANG/LC_MESSAGES/messages.po (a new msgid arrives empty or fuzzy: translate it), and
# compile each .po into the messages.mo beside it, which is committed (the app reads only
# .mo files; tests/test_i18n.py fails when a .mo is not what its .po compiles to, or a
# msgid has no translation).
#   bash scripts/translations.sh            extract, update, compile
#   bash scripts/translations.sh compile    compile only
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel=${PYBABEL:-.venv/bin/pybabel}
dir=annotate/translations
if [ "${1:-}" != compile ]; then
  "$pybabel" extract --no-location --sort-output --omit-header -F "$dir/babel.cfg" -k N_ \
    -o "$dir/messages.pot" .
  for lang in de it es fr pt ca; do
    if [ -f "$dir/$lang/LC_MESSAGES/messages.po" ]; then
      "$pybabel" update --no-fuzzy-matching --width 100 -i "$dir/messages.pot" -d "$dir" -l "$lang"
    else
      "$pybabel" init -i "$dir/messages.pot" -d "$dir" -l "$lang"
    fi
  done
fi
"$pybabel" compile --statistics -d "$dir"
