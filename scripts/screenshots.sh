#!/usr/bin/env bash
# Regenerates the documentation's screenshots (docs/screenshots/*.png): the dataset home,
# the study page, the scores page, the annotation page and the onboarding at 1280 and
# 375 px, taken by tests/browser/test_screenshots.py in Debian's Chromium. A normal test
# run takes them into a temporary folder; LEXSUB_SCREENSHOTS=1 writes them here to commit.
set -euo pipefail
source "$(dirname "$0")/_venv.sh" requirements-dev.txt
if [ ! -x /usr/bin/chromium ]; then
  echo "Error: the screenshots need Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)" >&2
  exit 1
fi
LEXSUB_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py -q -p no:cacheprovider "$@"
ls -l docs/screenshots
