"""``lexsub benchmark``: see :mod:`scoring.benchmark.cli`."""

import sys

from scoring.benchmark.cli import main

sys.exit(main())
