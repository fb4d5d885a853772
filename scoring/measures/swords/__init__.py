"""The SWORDS family."""
