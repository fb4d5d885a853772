"""The official family."""
