"""Bar charts as inline SVG for the organiser's report pages (no plotting library and no
JavaScript: the page stays printable and works without network access).

A chart is groups (e.g. PoS) by series (e.g. PA, PAm), each bar a fraction in [0, 1]
with an optional interval drawn as an error bar. Labels are escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from scoring.judgements.labels import NEGATIVE, POSITIVE

COLOURS = ("#3465a4", "#f57900", "#4e9a06", "#75507b", "#c4a000", "#cc0000", "#555753")
LEGEND_ROW = 16
"""Height of a row of the legend."""
LEGEND_LABEL = 40
"""Characters of a series name the legend shows (the full name is its tooltip)."""
POSITIVE_COLOURS = ("#0072b2", "#56b4e9", "#9fd3f2")
"""The colours of a verdict that accepts a candidate, best first: blues of Okabe & Ito
(2008)'s palette, which readers with any colour vision tell from its orange."""
NEGATIVE_COLOUR = "#d55e00"
"""A verdict that rejects a candidate: Okabe & Ito's vermillion."""
UNSURE_COLOUR = "#8c8c8c"
"""A verdict that is neither (SWORDS' UNSURE): grey."""
CHAR_WIDTH = 7.0
"""An upper bound of the width of one character at font size 11, for the layout."""


def legend_width(label: str) -> float:
    """The room a legend entry takes: swatch, gap, its text and a margin."""
    return 14 + CHAR_WIDTH * len(label) + 16


def legend_layout(names: Sequence[str], left: float, right: float) -> list[tuple[float, int, str]]:
    """(x, row, label) of each legend entry: entries left to right, wrapping to a new row
    when the next would pass ``right``, so that no two overlap and none leaves the chart;
    a name past :data:`LEGEND_LABEL` characters is shortened with '…'."""
    placed: list[tuple[float, int, str]] = []
    x, row = left, 0
    for name in names:
        label = name if len(name) <= LEGEND_LABEL else name[: LEGEND_LABEL - 1] + "…"
        size = legend_width(label)
        if x > left and x + size > right:
            x, row = left, row + 1
        placed.append((x, row, label))
        x += size
    return placed


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: a fraction, and its interval if there is one. ``value`` None: no bar."""

    value: float | None
    low: float | None = None
    high: float | None = None


def bar_chart(
    title: str,
    groups: Sequence[str],
    series: Mapping[str, Sequence[Bar]],
    percent: bool = True,
    width: int = 640,
    height: int = 260,
    colours: Mapping[str, str] | None = None,
) -> Markup:
    """An SVG bar chart: one cluster of bars per group, one colour per series (``colours``
    by series name, else :data:`COLOURS` in turn), the y axis from 0 to 1 (shown as 0-100
    when ``percent``). ``series[name][g]`` is the bar of group g. The chart comes in a
    box of its own that scrolls sideways on a narrow screen (``.chart-scroll``), so that
    its labels keep their size."""
    for name, bars in series.items():
        if len(bars) != len(groups):
            raise ValueError(
                f"series {name!r} has {len(bars)} bars for {len(groups)} groups; "
                "every series needs one bar per group"
            )
    left, right, top, bottom = 44, 10, 28, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    names = list(series)
    fill = [(colours or {}).get(name, COLOURS[s % len(COLOURS)]) for s, name in enumerate(names)]
    group_w = plot_w / max(len(groups), 1)
    bar_w = group_w * 0.8 / max(len(names), 1)

    def y(value: float) -> float:
        return top + plot_h * (1 - min(max(value, 0.0), 1.0))

    legend = legend_layout(names, left, width - right)
    rows = 1 + max((row for _, row, _ in legend), default=0)
    full_height = height + (rows - 1) * LEGEND_ROW
    parts = [
        f'<div class="chart-scroll" tabindex="0" role="group" aria-label="{escape(title)}">',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {full_height}" '
        f'role="img" aria-label="{escape(title)}" class="chart">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        label = f"{100 * tick:g}" if percent else f"{tick:g}"
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{label}</text>'
        )
    for g, group in enumerate(groups):
        x0 = left + g * group_w + group_w * 0.1
        parts.append(
            f'<text x="{left + (g + 0.5) * group_w:.1f}" y="{height - bottom + 16}" '
            f'font-size="12" text-anchor="middle">{escape(group)}</text>'
        )
        for s, name in enumerate(names):
            bar = series[name][g]
            if bar.value is None:
                continue
            x = x0 + s * bar_w
            shown = f"{100 * bar.value:.2f}" if percent else f"{bar.value:.3f}"
            parts.append(
                f'<rect x="{x:.1f}" y="{y(bar.value):.1f}" width="{bar_w * 0.9:.1f}" '
                f'height="{y(0) - y(bar.value):.1f}" fill="{fill[s]}">'
                f"<title>{escape(group)} {escape(name)}: {shown}</title></rect>"
            )
            if bar.low is not None and bar.high is not None:
                mid = x + bar_w * 0.45
                parts.append(
                    f'<path d="M{mid:.1f} {y(bar.low):.1f}V{y(bar.high):.1f}'
                    f"M{mid - 3:.1f} {y(bar.low):.1f}h6M{mid - 3:.1f} "
                    f'{y(bar.high):.1f}h6" stroke="#000" fill="none"/>'
                )
    for s, (x, row, label) in enumerate(legend):
        top_y = height - 16 + row * LEGEND_ROW
        parts.append(
            f'<g class="legend"><title>{escape(names[s])}</title>'
            f'<rect x="{x:.1f}" y="{top_y}" width="10" height="10" '
            f'fill="{fill[s]}"/><text x="{x + 14:.1f}" y="{top_y + 9}" '
            f'font-size="11">{escape(label)}</text></g>'
        )
    parts.append("</svg></div>")
    return Markup("".join(parts))


def verdict_colours(labels: Sequence[str], sides: Mapping[str, str | None]) -> dict[str, str]:
    """A colour for each verdict that says what it means: the labels that accept a
    candidate (``sides[label] == "positive"``) in blues, darkest first, the ones that
    reject it in vermillion, the others grey; colour-blind safe (Okabe & Ito 2008).

    >>> verdict_colours(("good", "reasonable", "bad"),
    ...                 {"good": "positive", "reasonable": "positive", "bad": "negative"})
    {'good': '#0072b2', 'reasonable': '#56b4e9', 'bad': '#d55e00'}
    """
    found: dict[str, str] = {}
    positive = 0
    for label in labels:
        side = sides.get(label)
        if side == POSITIVE:
            found[label] = POSITIVE_COLOURS[min(positive, len(POSITIVE_COLOURS) - 1)]
            positive += 1
        else:
            found[label] = NEGATIVE_COLOUR if side == NEGATIVE else UNSURE_COLOUR
    return found
