"""Names shared by the scoring modules."""

from typing import Literal

Rules = Literal["compat", "fixed"]
"""``compat``: score.pl's behaviour, defects included; ``fixed``: its defects corrected."""

Measure = Literal["best", "oot"]
