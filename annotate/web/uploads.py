"""The bytes and text of an uploaded file, read within its bounds
(:mod:`scoring.files.bounded`: counted as they are read, refused at the first bound crossed) and
under the rule every file reader follows (:func:`scoring.files.bounded.decode_text`: UTF-8, a
byte-order mark dropped, UTF-16 refused)."""

from __future__ import annotations

from werkzeug.datastructures import FileStorage

from annotate.services.rules import ServiceError
from scoring.errors import FormatError
from scoring.files.bounded import Bounds, bounded_bytes, bounded_text


def upload_name(upload: FileStorage, default: str = "the file") -> str:
    """The name the browser gave an upload (only its last part), for messages."""
    name = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    return name or default


def uploaded_bytes(upload: FileStorage, bounds: Bounds) -> bytes:
    """The bytes of ``upload`` (gunzipped when they are gzip) read a chunk at a time
    within ``bounds``; :class:`ServiceError` naming it, the line and the bound crossed."""
    try:
        return bounded_bytes(upload.stream, upload_name(upload), bounds)
    except FormatError as error:
        raise ServiceError(str(error)) from None


def uploaded_text(upload: FileStorage, bounds: Bounds) -> str:
    """The text of ``upload`` read within ``bounds``; :class:`ServiceError` naming it, the
    line and the rule when it crosses one or is not UTF-8 text."""
    try:
        return bounded_text(upload.stream, upload_name(upload), bounds)
    except FormatError as error:
        raise ServiceError(str(error)) from None
