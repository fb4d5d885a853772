"""How much a page explains: the words of visible prose, measured in the browser.

Prose is the text of ``p``, ``li`` and ``dd`` elements that the reader sees, outside
tables, forms, ``details`` (a collapsed "How this works" is read on demand) and
navigation (``nav``). A prose element inside another (an ``li`` holding a ``p``) is
counted once, through the outer one. Pages that show a study's state first keep this
small: the organiser's dashboard, a dataset's home, the study, agreement and scores pages
stay within :data:`PROSE_LIMIT` words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

PROSE_LIMIT = 120
"""The most words of visible prose on a page that shows a study's state."""

_PROSE_SCRIPT = """
() => {
  const skipped = 'table, form, details, nav';
  const prose = 'p, li, dd';
  const texts = [];
  for (const element of document.querySelectorAll(prose)) {
    if (element.closest(skipped)) continue;
    if (element.parentElement && element.parentElement.closest(prose)) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(element).visibility === 'hidden') continue;
    const text = element.innerText.trim();
    if (text) texts.push(text);
  }
  return texts;
}
"""


def visible_prose(page: Page) -> list[str]:
    """The visible ``p``, ``li`` and ``dd`` texts of ``page`` that are not inside a
    ``table``, ``form``, ``details`` or ``nav``, one per element, in page order
    (``innerText``: text hidden by style is left out)."""
    return [str(text) for text in page.evaluate(_PROSE_SCRIPT)]


def visible_prose_words(page: Page) -> int:
    """How many words :func:`visible_prose` holds (apart by white space): the measure
    of how much a page explains before it shows."""
    return sum(len(text.split()) for text in visible_prose(page))
