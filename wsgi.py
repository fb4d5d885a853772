"""WSGI entry point: ``flask --app wsgi run`` or any WSGI server (``wsgi:app``)."""

from annotate import create_app

app = create_app()
