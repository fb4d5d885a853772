"""Systems built from a TSAR/MLSP gold file for the parity tests: deterministic, so that the
figures the official ``tsar_eval.py`` printed on them (recorded in
``tests/data/tsar_official.json``) can be asserted wherever the shared data is present."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

Row = tuple[str, str, list[str]]


def gold_rows(path: Path) -> list[Row]:
    """Each line's sentence, word and substitutes, as written (no stripping)."""
    rows = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            fields = line.split("\t")
            rows.append((fields[0], fields[1], fields[2:]))
    return rows


def by_count(substitutes: Sequence[str]) -> list[str]:
    """The distinct substitutes (stripped), most frequent first, ties in first-come order."""
    counts: dict[str, int] = {}
    for substitute in substitutes:
        counts[substitute.strip()] = counts.get(substitute.strip(), 0) + 1
    return sorted(counts, key=lambda s: -counts[s])


def ranked_system(rows: Sequence[Row]) -> list[Row]:
    """The gold's own substitutes, most frequent first."""
    return [(s, w, by_count(subs)) for s, w, subs in rows]


def mixed_system(rows: Sequence[Row]) -> list[Row]:
    """Noisy on purpose: every 7th item missing, every 5th line empty, the word itself
    first, the gold's rarest substitutes first, a case variant, repeats, padding and the
    next item's substitutes."""
    out: list[Row] = []
    for i, (s, w, subs) in enumerate(rows):
        if i % 7 == 3:
            continue
        ranked = by_count(subs)
        if i % 5 == 0:
            out.append((s, w.rstrip(), []))
            continue
        other = by_count(rows[(i + 1) % len(rows)][2])
        labels = [w.strip(), *ranked[::-1][:3], *(x.upper() for x in ranked[:1]), *ranked[:2]]
        labels += [f" {x} " for x in other[:2]]
        out.append((s, w, labels))
    return out


SYSTEMS = {"ranked": ranked_system, "mixed": mixed_system}


def write_system(path: Path, rows: Sequence[Row]) -> Path:
    path.write_text("".join("\t".join([s, w, *subs]) + "\n" for s, w, subs in rows), "utf-8")
    return path


# --- complexity (MLSP's *_lcp.tsv) -------------------------------------------------------

LcpRow = tuple[str, float]


def lcp_rows(path: Path) -> list[LcpRow]:
    """Each line's id and complexity."""
    rows = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            fields = line.split("\t")
            rows.append((fields[0], float(fields[4])))
    return rows


def rounded_system(rows: Sequence[LcpRow]) -> list[LcpRow]:
    """The gold rounded to one decimal: many ties (Spearman's average ranks)."""
    return [(ident, round(value, 1)) for ident, value in rows]


def shifted_system(rows: Sequence[LcpRow]) -> list[LcpRow]:
    """The gold shifted by a fixed pattern in [-0.1, 0.1], in reverse order, with an id
    the gold does not have (ignored)."""
    shifted = [(ident, value + ((i * 37) % 11 - 5) / 50) for i, (ident, value) in enumerate(rows)]
    return [*shifted[::-1], ("not_in_gold", 0.5)]


LCP_SYSTEMS = {"rounded": rounded_system, "shifted": shifted_system}


def write_lcp_system(path: Path, rows: Sequence[LcpRow]) -> Path:
    """Two columns ``ID<TAB>VALUE``."""
    path.write_text("".join(f"{ident}\t{value!r}\n" for ident, value in rows), "utf-8")
    return path
