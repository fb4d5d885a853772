"""``python -m scoring.score``: the drop-in for score.pl."""

from scoring.score.cli import main

main()
