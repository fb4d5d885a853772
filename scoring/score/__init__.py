"""The score.pl drop-in: ``lexsub score`` (:mod:`scoring.score.cli`, ``python -m
scoring.score``) and, as a library, :func:`scoring.score.library.score` (a system's text
against a gold's text) and :func:`~scoring.score.library.score_files` (two paths), which
return a :class:`~scoring.score.library.ScoreResult`. Beside them: the official scan of a
whole file (:mod:`~scoring.score.scan`), the diagnosis of what score.pl's defects changed
(:mod:`~scoring.score.diagnose`), its printing (:mod:`~scoring.score.report`) and the gold
cache the command uses when asked (:mod:`~scoring.score.cache`)."""
