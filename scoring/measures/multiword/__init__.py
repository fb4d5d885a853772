"""The mw family."""
