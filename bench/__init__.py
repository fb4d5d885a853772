"""Benchmarks, one module per benchmark, run from the checkout as ``python -m bench.NAME``
(bench/RESULTS.md has the figures)."""
