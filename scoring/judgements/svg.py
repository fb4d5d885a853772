"""Line charts as SVG text (recall-precision and ROC curves, Glickman et al. 2006 and Cohn 2003):
the same markup on the organiser's page (inline) and in the file the command writes. Pure:
no plotting library, every label escaped, a fixed number format so that the same curves
give the same bytes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

COLOURS = ("#3465a4", "#f57900", "#4e9a06", "#75507b", "#c4a000", "#cc0000", "#555753")
Point = tuple[float, float]


def line_chart(
    title: str,
    series: Mapping[str, Sequence[Point]],
    x_label: str,
    y_label: str,
    steps: bool = False,
    diagonal: bool = False,
    width: int = 480,
    height: int = 360,
) -> str:
    """An SVG chart of one line per series over [0, 1] x [0, 1]: the points joined in
    order (``steps``: as a step function, the uninterpolated recall-precision curve),
    with ``diagonal`` the chance line of a ROC chart; a legend under the plot."""
    left, right, top = 48, 12, 30
    plot_w, plot_h = width - left - right, height - top - 48

    def x(value: float) -> float:
        return left + plot_w * min(max(value, 0.0), 1.0)

    def y(value: float) -> float:
        return top + plot_h * (1 - min(max(value, 0.0), 1.0))

    full = height + 16 * len(series)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {full}" '
        f'role="img" aria-label="{escape(title)}" class="chart">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{x(1):.1f}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#ddd"/><text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" '
            f'text-anchor="end">{tick:g}</text>'
            f'<text x="{x(tick):.1f}" y="{y(0) + 16:.1f}" font-size="11" '
            f'text-anchor="middle">{tick:g}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{y(0) + 32:.1f}" font-size="12" '
        f'text-anchor="middle">{escape(x_label)}</text>'
        f'<text x="12" y="{top + plot_h / 2:.1f}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{escape(y_label)}</text>'
    )
    if diagonal:
        parts.append(
            f'<line x1="{x(0):.1f}" y1="{y(0):.1f}" x2="{x(1):.1f}" y2="{y(1):.1f}" '
            'stroke="#999" stroke-dasharray="4 4"/>'
        )
    for index, (name, points) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        path: list[str] = []
        previous: Point | None = None
        for point in points:
            if previous is None:
                path.append(f"M{x(point[0]):.1f} {y(point[1]):.1f}")
            elif steps:
                path.append(f"H{x(point[0]):.1f}V{y(point[1]):.1f}")
            else:
                path.append(f"L{x(point[0]):.1f} {y(point[1]):.1f}")
            previous = point
        if path:
            parts.append(
                f'<path d="{"".join(path)}" fill="none" stroke="{colour}" stroke-width="2">'
                f"<title>{escape(name)}</title></path>"
            )
        legend_y = height + 16 * index - 6
        parts.append(
            f'<g class="legend"><rect x="{left}" y="{legend_y}" width="10" height="10" '
            f'fill="{colour}"/><text x="{left + 14}" y="{legend_y + 9}" font-size="11">'
            f"{escape(name)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def document(charts: Sequence[str]) -> str:
    """Charts stacked in one standalone SVG document (what ``--curves FILE`` writes)."""
    body: list[str] = []
    offset = 0.0
    width = 0.0
    for chart in charts:
        box = chart.split('viewBox="', 1)[1].split('"', 1)[0].split()
        w, h = float(box[2]), float(box[3])
        body.append(
            chart.replace("<svg ", f'<svg x="0" y="{offset:g}" width="{w:g}" height="{h:g}" ', 1)
        )
        offset += h
        width = max(width, w)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{offset:g}" '
        f'viewBox="0 0 {width:g} {offset:g}">' + "".join(body) + "</svg>\n"
    )
