"""The families of measures, one module each: a family owns its named columns (a
``Column`` enum), the route that computes them for every item at once (bulk, numpy where
the leaderboard needs speed), the exact route (Fractions, the test oracle of the bulk
one) and the measures it registers (:mod:`scoring.registry` lists them).

============================  ===============================================================
:mod:`~.official`             best and oot as score.pl computes them (McCarthy & Navigli 2007)
:mod:`~.revised`              new best, best-1, weighted recall and precision, rank (Jabbari
                              et al. 2010)
:mod:`~.ranking`              GAP, AP, AUC, P@k, R@k of ranked candidates
:mod:`~.multiword`            mw detection and identification (``score.pl -t mw``)
:mod:`~.swords`               SWORDS' figures (Lee et al. 2021)
============================  ===============================================================

How to add a measure: docs/measures.md. This package imports nothing (the drop-in scorer
loads one family of it and no numpy).
"""
