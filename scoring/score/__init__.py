"""The score.pl drop-in."""
