"""What the pages (:mod:`annotate.web`) and the commands (:mod:`annotate.cli`) do in the
database, one module per area; :mod:`annotate.services.rules` holds the rules they check
without it. A service imports no Flask and nothing of the pages or the commands, so a
figure or a rule can never differ between a page and a command."""
