"""The field's benchmarks scored as their own code scores them: SWORDS
(:mod:`scoring.benchmark.swords`), the SemEval-2007 task and CoInCo in the
candidate-ranking and generation settings. ``lexsub benchmark BENCHMARK
SYSTEM --data DATASET`` (:mod:`scoring.benchmark.cli`); each benchmark is a module that
:data:`scoring.benchmark.cli.BENCHMARKS` names.
"""
