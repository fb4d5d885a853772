"""Screenshots of the pages the documentation shows, taken in a real browser: the dataset
home, the study page, the scores page, the annotation page and the onboarding, each at
1280 and 375 px wide (the top of the page, as a screen shows it).

A normal test run takes them into the test's own temporary folder and checks them (the
page answered 200 at its address, the image is a PNG of the screen's size, small enough to
commit): no tracked file changes. ``bash scripts/screenshots.sh`` (which sets
``LEXSUB_SCREENSHOTS=1``) writes them into ``docs/screenshots/`` instead, to commit.
"""

from __future__ import annotations

import base64
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect

from tests.browser.conftest import Live
from tests.browser.test_a11y import Study, _study, log_in

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENS = {1280: 800, 375: 812}
"""Each width taken, with the height of its screen (a laptop's, a phone's)."""
MAX_BYTES = 150_000
"""The most the five screenshots of one width may weigh together, so that the ten in
docs/screenshots stay under 300 KB."""

SHOTS: list[tuple[str, str | None, Callable[[Study], str], Callable[[Study], str]]] = [
    (
        "home",
        "boss",
        lambda s: f"/organiser/datasets/{s.demo}",
        lambda s: f"/organiser/datasets/{s.demo}",
    ),
    (
        "study",
        "boss",
        lambda s: f"/organiser/datasets/{s.demo}/study",
        lambda s: f"/organiser/datasets/{s.demo}/study",
    ),
    (
        "scores",
        "boss",
        lambda s: f"/organiser/datasets/{s.demo}/scores",
        lambda s: f"/organiser/datasets/{s.demo}/scores",
    ),
    ("annotate", "ann", lambda s: f"/annotate/{s.second}", lambda s: f"/annotate/{s.second}"),
    (
        "onboarding",
        None,  # the study link logs the visitor in as participant "here"
        lambda s: f"/study/{s.token}?participant=here",
        lambda s: f"/study/dataset/{s.demo}/start",
    ),
]
"""(file name, who is logged in, the address opened, the page it must end on)."""


def writing() -> bool:
    """Whether this run was asked to write the screenshots into docs/screenshots."""
    return os.environ.get("LEXSUB_SCREENSHOTS", "") == "1"


LEVELS = 16
"""Each colour channel is rounded to this many levels (0, 17, 34, ... 255) before the
screenshot is stored as a palette PNG: a page's text and its anti-aliasing then take a few
dozen colours, and the file a third of the size of Chromium's own PNG, still sharp."""

POSTERIZE = """async ([png, levels]) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d");
  context.drawImage(bitmap, 0, 0);
  const rgba = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const step = 255 / (levels - 1);
  const palette = new Map();
  const indices = new Uint8Array(bitmap.width * bitmap.height);
  for (let i = 0; i < indices.length; i++) {
    const r = Math.round(Math.round(rgba[4 * i] / step) * step);
    const g = Math.round(Math.round(rgba[4 * i + 1] / step) * step);
    const b = Math.round(Math.round(rgba[4 * i + 2] / step) * step);
    const key = (r << 16) | (g << 8) | b;
    if (!palette.has(key)) palette.set(key, palette.size);
    indices[i] = palette.get(key) & 255;
  }
  let text = "";
  for (let i = 0; i < indices.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, indices.subarray(i, i + 0x8000));
  }
  return {width: bitmap.width, height: bitmap.height, palette: [...palette.keys()],
          indices: btoa(text)};
}"""
"""Decode a PNG in the browser, round its colours to ``levels`` a channel and number them:
the size, the colours (0xRRGGBB, in order of appearance) and each pixel's number."""


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(png: bytes, blank: Page) -> bytes:
    """``png`` with its colours rounded to :data:`LEVELS` a channel, as an 8-bit palette PNG
    (``blank``, a page of no site, decodes it)."""
    found = blank.evaluate(POSTERIZE, [base64.b64encode(png).decode("ascii"), LEVELS])
    width, height, colours = found["width"], found["height"], found["palette"]
    assert len(colours) <= 256, f"{len(colours)} colours after rounding: too many for a palette"
    pixels = base64.b64decode(found["indices"])
    rows = b"".join(b"\0" + pixels[y * width : (y + 1) * width] for y in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
        + chunk(b"PLTE", b"".join(colour.to_bytes(3, "big") for colour in colours))
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def png_size(path: Path) -> tuple[int, int]:
    """The width and height a PNG file's header gives (its IHDR chunk)."""
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


@pytest.fixture
def study(live: Live, tmp_path: Path) -> Study:
    return _study(live, tmp_path)


@pytest.mark.parametrize("width", sorted(SCREENS, reverse=True))
def test_the_documented_pages_are_shot_at_each_width(
    study: Study, new_page: Callable[..., Page], tmp_path: Path, width: int
) -> None:
    folder = DOCS if writing() else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    screen = {"width": width, "height": SCREENS[width]}
    blank = new_page()
    pages: dict[str | None, Page] = {}
    weight = 0
    for name, who, opened, shown in SHOTS:
        if who not in pages:
            pages[who] = new_page(viewport=screen)
            if who is not None:
                log_in(pages[who], study, who)
        page = pages[who]
        response = page.goto(study.url(opened(study)))
        assert response is not None and response.status == 200, (name, response)
        assert page.url == study.url(shown(study)), name
        expect(page.locator("h1")).to_be_visible()
        path = folder / f"{name}-{width}.png"
        shot = page.screenshot(type="png", animations="disabled", caret="hide")
        path.write_bytes(palette_png(shot, blank))
        assert png_size(path) == (width, SCREENS[width]), name
        weight += path.stat().st_size
    assert weight <= MAX_BYTES, sorted(folder.glob(f"*-{width}.png"))
