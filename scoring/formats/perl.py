"""How score.pl turns numbers into text, reproduced exactly.

score.pl prints floats through Perl's default stringification (15 significant digits,
``%.15g``) and rounds its percentages with its own ``myround``.
"""

from __future__ import annotations

from collections.abc import Iterable


def _finite(value: float) -> bool:
    """``math.isfinite`` without loading :mod:`math` (an extension module: the scorer's
    start-up does without it): ``x - x`` is 0 for a finite float, NaN for NaN and the
    infinities."""
    return value - value == 0.0


def perl_str(value: float | int | None) -> str:
    """Stringify a number as Perl does: integers plainly, floats as ``%.15g``, undef empty."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    if not _finite(value):  # a count past a double's range makes Inf and NaN
        return "NaN" if value != value else "Inf" if value > 0 else "-Inf"
    return format(value, ".15g")


def show(value: float | None) -> str:
    """A figure as score.pl rounds it (:func:`perl_round`), ``n/a`` when it is undefined.

    >>> show(0.5), show(None)
    ('50.00', 'n/a')
    """
    return "n/a" if value is None else perl_round(value)


def perl_round(fraction: float) -> str:
    """score.pl's ``myround(x, 2)``: x·100·100, + 0.5, truncate, ÷ 100, pad to 2 decimals.

    The two multiplications are done one after the other, as in Perl, so the float
    results (and hence the rounding of halves) are identical.

    >>> perl_round(0.4576)
    '45.76'
    >>> perl_round(1.0)
    '100.00'
    >>> perl_round(0.12345)
    '12.35'
    """
    number = fraction * 100
    number = number * 100
    # Perl's int() keeps NaN and Inf as they are
    result = (int(number + 0.5) if _finite(number) else number) / 100  # int() truncates
    text = perl_str(result)
    if "." in text:
        decimals = len(text.split(".", 1)[1])
        return text + "0" * (2 - decimals) if decimals < 2 else text
    return text + ".00"


def perl_truthy(value: str | None) -> bool:
    """Perl's truth of a string: undef, '' and '0' are false."""
    return value is not None and value != "" and value != "0"


UV_MAX = 2**64 - 1


def perl_number(digits: str) -> int | float:
    """A string of digits as Perl's numeric conversion gives it: an integer while it fits
    an unsigned 64-bit integer, a double beyond (``99999999999999999999`` → ``1e+20``)."""
    if len(digits.lstrip("0")) > len(str(UV_MAX)):  # past the range, and maybe past int()'s
        return float(digits)
    value = int(digits)
    return value if value <= UV_MAX else float(digits)


def perl_sum(values: Iterable[int | float]) -> int | float:
    """Perl's ``$sum += $value``: integers until the sum leaves the unsigned 64-bit range
    or meets a double, doubles from then on (added in order)."""
    total: int | float = 0
    for value in values:
        total += value
        if isinstance(total, int) and total > UV_MAX:
            total = float(total - value) + float(value)
    return total


def perl_eq(left: int | float, right: int | float) -> bool:
    """Perl's ``==`` on numbers from :func:`perl_number`: as doubles once either is one
    (``2**64`` equals ``2**64 - 2`` there)."""
    if isinstance(left, float) or isinstance(right, float):
        return float(left) == float(right)
    return left == right
