"""The gold of a simplification or a complexity study, in its benchmark's layout (pure).

- **Simplification** (TSAR-2022's gold, Saggion et al. 2022): one line per answered
  sentence, ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE<TAB>…``, one column for each time an
  annotator gave a substitute (so a substitute's columns are its count), the most given
  first, ties in the order they were first given; as typed (TSAR scores by exact string).
  ``name`` and ``nil`` answers give no column; a sentence without a substitute has no line.
- **Complexity** (MLSP-2024's ``*_lcp.tsv``, Shardlow et al. 2024):
  ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>COMPLEXITY`` for each rated target, the
  complexity the mean of (rating - 1) / 4 over its annotators, so that 1 (very easy) is 0
  and 5 (very difficult) is 1, as MultiLS scaled its five-point ratings.

Lines follow the dataset's order of sentences.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.agreement.ratings import SCALE


@dataclass(frozen=True, slots=True)
class TaskInstance:
    """A sentence of the study: its id, its whole text and its target as written."""

    id: str
    sentence: str
    word: str


def simplification_columns(answers: Sequence[Sequence[str]]) -> list[str]:
    """Each annotator's substitutes (``answers``, in a fixed order) as TSAR's columns:
    the most given first, ties in the order first given, each repeated by its count.

    >>> simplification_columns([["easy", "simple"], ["simple"], ["plain", "easy"]])
    ['easy', 'easy', 'simple', 'simple', 'plain']
    """
    counts: Counter[str] = Counter()
    for answer in answers:
        counts.update(answer)
    order = {word: index for index, word in enumerate(counts)}  # first given first
    ranked = sorted(counts, key=lambda word: (-counts[word], order[word]))
    return [word for word in ranked for _ in range(counts[word])]


def simplification_gold(
    instances: Sequence[TaskInstance], answers: Mapping[str, Sequence[Sequence[str]]]
) -> str:
    """TSAR's gold of the sentences (module docstring); ``answers`` maps an instance id
    to each annotator's substitutes."""
    lines = []
    for instance in instances:
        columns = simplification_columns(answers.get(instance.id, ()))
        if columns:
            lines.append("\t".join([instance.sentence, instance.word, *columns]))
    return "".join(line + "\n" for line in lines)


def complexity(ratings: Sequence[int]) -> Fraction:
    """The mean of (rating - 1) / 4: MultiLS's complexity in [0, 1] of 1-5 ratings.

    >>> complexity([1, 2]), complexity([5, 5, 5])
    (Fraction(1, 8), Fraction(1, 1))
    """
    if not ratings:
        raise ValueError("a complexity needs at least one rating")
    for rating in ratings:
        if isinstance(rating, bool) or rating not in SCALE:
            raise ValueError(f"rating {rating!r} is not one of {SCALE[0]}-{SCALE[-1]}")
    return sum((Fraction(rating - 1, 4) for rating in ratings), Fraction()) / len(ratings)


def complexity_gold(
    instances: Sequence[TaskInstance], ratings: Mapping[str, Sequence[int]], language: str
) -> str:
    """MLSP's ``*_lcp.tsv`` of the rated targets (module docstring); ``language`` is the
    second column as MLSP writes it (``english``)."""
    lines = []
    for instance in instances:
        rated = ratings.get(instance.id, ())
        if rated:
            value = float(complexity(rated))
            fields = [instance.id, language, instance.sentence, instance.word, repr(value)]
            lines.append("\t".join(fields))
    return "".join(line + "\n" for line in lines)
