"""Systems that lexsub runs itself, written in the formats the scorer and the benchmarks
read: the WordNet baseline of McCarthy & Navigli (2009, section 2.5)
(:mod:`annotate.generate.wordnet`), on the items of :mod:`annotate.generate.items`."""
