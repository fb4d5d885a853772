"""The revised family."""
