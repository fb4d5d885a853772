"""The pages: one blueprint module per area (auth, annotator, organiser, members, reports,
judge), each rendering ``templates/AREA/``; :mod:`annotate.web.access` holds who may open
what. A blueprint imports the access helpers and :mod:`annotate.services`, never another
blueprint (``tests/test_layers.py``)."""
