"""The text of an uploaded file, under the rule every file reader follows
(:func:`scoring.files.decode_text`: UTF-8, a byte-order mark dropped, UTF-16 refused)."""

from __future__ import annotations

from werkzeug.datastructures import FileStorage

from annotate.services.rules import ServiceError
from scoring.files import TextError, decode_text


def upload_name(upload: FileStorage, default: str = "the file") -> str:
    """The name the browser gave an upload (only its last part), for messages."""
    name = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    return name or default


def uploaded_text(upload: FileStorage) -> str:
    """The text of ``upload``; :class:`ServiceError` naming it, the line and the rule when
    it is not UTF-8 text."""
    try:
        return decode_text(upload.read(), upload_name(upload))
    except TextError as error:
        raise ServiceError(str(error)) from None
