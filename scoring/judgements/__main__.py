"""``lexsub judgements``: see :mod:`scoring.judgements.cli`."""

import sys

from scoring.judgements.cli import main

sys.exit(main())
