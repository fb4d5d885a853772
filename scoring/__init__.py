"""lexsub scoring: readers, the official SemEval-2007 measures and their command lines.

Pure logic: nothing here imports Flask or SQLAlchemy.
"""

__version__ = "0.1.0"
