"""The ranking family."""
