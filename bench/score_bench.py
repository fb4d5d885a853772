"""Benchmark of ``python -m scoring.score`` against the official ``score.pl``.

What it measures
----------------
Whole processes, interpreter start included, exactly as a user runs them:

* ``python -m scoring.score SYSTEM GOLD -t best|oot`` (the default command, which also
  prints the diagnosis to standard error and reads the gold from its text every run: the
  cache of gold readings is used only on request), and the same with ``--no-diagnosis``;
  with ``--cache-too``, also the default command with ``--cache`` (``ours --cache``: the
  first run against a gold keeps its readings in a cache of the bench's own,
  ``LEXSUB_CACHE_DIR``, empty at the start, and the later runs load them);
* ``perl $SCORE_PL SYSTEM GOLD -t best|oot`` when the environment variable ``SCORE_PL``
  names a copy of the official scorer. Both must print the same standard output, byte for
  byte; a mismatch is reported loudly and makes the exit status 1.

For each command it records the wall time (best of ``--repeat`` runs), the CPU time (user +
system of the child, best of the runs, read from ``os.wait4`` like the peak: on a machine
shared with other work it varies less than the wall time) and the peak memory (largest
maximum resident set size of the child over the runs), and for our scorer the ratios perl
wall / our wall, perl CPU / our CPU and our peak / perl peak. The targets are checked on
the wall time.

Inputs
------
* The real 1,696-item test set: ``../shared/data/semeval2007/test/gold`` (relative to the
  repository root) with the context2vec system ``../shared/data/systems/context2vec/
  test.generated.best`` and ``.oot``. Target: our default command in at most twice
  score.pl's time.
* Synthetic sets of N items (``--sizes``, default 100,000 and 1,000,000), written once
  per size into a temporary directory (or ``--out DIR``, e.g. ``bench/out``, git-ignored).
  The synthetic gold cycles over the real gold lines, giving each a new unique numeric id
  and keeping its lexelt and substitutes; the synthetic best (``LEXELT ID :: a;b``) and
  oot (``LEXELT ID ::: …``, up to 10 guesses) answers are drawn with a fixed seed from the
  item's own substitutes mixed with substitutes of other items (about 2% left
  unanswered), so the scores are realistic. A third system, ``oot-repeats`` (scored with
  ``-t oot``), fills each answer's ten places by repeating its first guess, as oot systems
  do to gain credit (McCarthy & Navigli 2009 discuss it). Targets at 1,000,000 items: the
  default command at least 5x faster than score.pl, with at most a third of its peak
  memory, for every system.

How to run (from the repository root)
-------------------------------------
::

    SCORE_PL=/path/to/score.pl .venv/bin/python -m bench.score_bench
    .venv/bin/python -m bench.score_bench --quick           # sizes 1696,10000, repeat 1
    .venv/bin/python -m bench.score_bench --sizes 1696,100000 --repeat 5 --out bench/out

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench import machine

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
REAL_GOLD = SHARED / "semeval2007" / "test" / "gold"
REAL_SYSTEM = SHARED / "systems" / "context2vec" / "test.generated"
DEFAULT_SIZES = (100_000, 1_000_000)
QUICK_SIZES = (1696, 10_000)
MEASURES = ("best", "oot")
REPEATS = "oot-repeats"  # a synthetic oot system that repeats its first guess
TARGET_SIZE = 1_000_000
TARGET_SPEEDUP = 5.0
TARGET_MEMORY = 1 / 3  # at most a third of score.pl's peak
TARGET_REAL_SPEEDUP = 0.5  # the real test set: at most twice score.pl's time, interpreter included
GOLD_LINE = re.compile(r"([\w.]+) (\S+) :: (.*)")
ENCODING = "utf-8"
ERRORS = "surrogateescape"

OURS = "ours"
OURS_QUIET = "ours --no-diagnosis"
OURS_CACHED = "ours --cache"  # the default command with the cache of gold readings
OURS_BARE = "ours -P -S"
BEFORE = "before -P -S"
PERL = "score.pl"


@dataclass(frozen=True)
class GoldItem:
    """One real gold line: its lexelt, the text after ``::`` and the substitutes in it."""

    lexelt: str
    rest: str
    substitutes: tuple[str, ...]


@dataclass(frozen=True)
class Dataset:
    """The files scored at one size (``real`` for the real test set)."""

    label: str
    items: int
    gold: Path
    systems: dict[str, Path]


@dataclass
class Timing:
    """Best wall time and largest peak RSS of a command over its repeats."""

    wall: float = float("inf")
    cpu: float = float("inf")
    peak_kb: int = 0
    stdout: bytes | None = None
    problems: list[str] = field(default_factory=list)
    instructions: int | None = None  # counted once under callgrind (--instructions)


@dataclass(frozen=True)
class Row:
    """One line of the result table."""

    dataset: Dataset
    measure: str
    tool: str
    timing: Timing


# --------------------------------------------------------------------------- input files


def read_real_gold(path: Path) -> list[GoldItem]:
    """The real gold lines that score.pl's system-line pattern would accept, in order."""
    if not path.is_file():
        raise SystemExit(
            f"score_bench: the real test gold is missing: {path}\n"
            "  (expected at ../shared/data/semeval2007/test/gold relative to the repo root)"
        )
    items: list[GoldItem] = []
    text = path.read_bytes().decode(ENCODING, ERRORS)
    for line in text.splitlines():
        match = GOLD_LINE.match(line)
        if match is None:
            continue
        lexelt, _, rest = match.groups()
        substitutes = tuple(
            entry.strip().rsplit(" ", 1)[0] for entry in rest.split(";") if entry.strip()
        )
        items.append(GoldItem(lexelt, rest, substitutes))
    if not items:
        raise SystemExit(f"score_bench: no gold lines found in {path}")
    return items


def pick(
    rng: random.Random, own: Sequence[str], pool: Sequence[str], own_share: float, count: int
) -> list[str]:
    """``count`` distinct guesses, each the item's own substitute with odds ``own_share``
    (preferring its first, most frequent ones) or else a substitute of any item."""
    guesses: list[str] = []
    tries = 0
    while len(guesses) < count and tries < count * 4:
        tries += 1
        if own and rng.random() < own_share:
            guess = own[min(int(rng.expovariate(0.8)), len(own) - 1)]
        else:
            guess = rng.choice(pool)
        if guess not in guesses:
            guesses.append(guess)
    return guesses


def write_synthetic(items: Sequence[GoldItem], size: int, directory: Path, seed: int) -> Dataset:
    """Write ``gold``, ``best`` and ``oot`` files of ``size`` items (see module doc)."""
    rng = random.Random(seed)
    pool = [sub for item in items for sub in item.substitutes]
    gold_path = directory / f"gold_{size}.txt"
    best_path = directory / f"system_{size}.best"
    oot_path = directory / f"system_{size}.oot"
    repeats_path = directory / f"system_{size}.{REPEATS}"
    with (
        open(gold_path, "w", encoding=ENCODING, errors=ERRORS, newline="\n") as gold,
        open(best_path, "w", encoding=ENCODING, errors=ERRORS, newline="\n") as best,
        open(oot_path, "w", encoding=ENCODING, errors=ERRORS, newline="\n") as oot,
        open(repeats_path, "w", encoding=ENCODING, errors=ERRORS, newline="\n") as repeats,
    ):
        for index in range(size):
            item = items[index % len(items)]
            ident = index + 1
            gold.write(f"{item.lexelt} {ident} :: {item.rest}\n")
            if rng.random() < 0.02:
                best_guesses: list[str] = []
            else:
                best_guesses = pick(
                    rng, item.substitutes, pool, 0.45, 1 if rng.random() < 0.75 else 2
                )
            if rng.random() < 0.02:
                oot_guesses: list[str] = []
            else:
                oot_guesses = pick(rng, item.substitutes, pool, 0.3, rng.randint(6, 10))
            best.write(f"{item.lexelt} {ident} :: {';'.join(best_guesses)}\n")
            oot.write(f"{item.lexelt} {ident} ::: {';'.join(oot_guesses)}\n")
            filled = oot_guesses[:4] + oot_guesses[:1] * (10 - len(oot_guesses[:4]))
            repeats.write(f"{item.lexelt} {ident} ::: {';'.join(filled)}\n")
    systems = {"best": best_path, "oot": oot_path, REPEATS: repeats_path}
    return Dataset(f"{size:,}", size, gold_path, systems)


def real_dataset() -> Dataset:
    systems = {measure: Path(f"{REAL_SYSTEM}.{measure}") for measure in MEASURES}
    for path in systems.values():
        if not path.is_file():
            raise SystemExit(f"score_bench: the real test system is missing: {path}")
    return Dataset("1,696 (real)", 1696, REAL_GOLD, systems)


def check_path(path: Path) -> None:
    """score.pl prints its usage line for a gold path containing ``-t``/``-v`` anywhere."""
    if "-t" in str(path) or "-v" in str(path):
        raise SystemExit(
            f"score_bench: score.pl would refuse the path {path} (it contains "
            "'-t' or '-v'); choose another --out directory"
        )


# --------------------------------------------------------------------------- timing


def child_environment(directory: Path, bytecode_cache: bool) -> dict[str, str]:
    """The commands' environment. With ``bytecode_cache`` the scorer's modules are compiled
    once and cached (in ``directory``, not in the repository), as for a user whose Python
    writes ``__pycache__``; otherwise the environment is left as it is."""
    env = dict(os.environ)
    # the scorer's cache of gold readings (``ours --cache`` only): this run's own, empty at
    # the start, so that its first run reads each gold and the later ones load it
    env["LEXSUB_CACHE_DIR"] = str(directory / "cache")
    env.pop("LEXSUB_GOLD_CACHE", None)  # the default command: no cache
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(directory / "pycache")
    return env


# The command is started by a small launcher process rather than by this one: Linux keeps,
# as a process's max RSS, the peak of the memory it replaced at exec, so a child forked
# from this (larger) process could never report less than this process's own peak. The
# launcher (a bare ``python -I -S``, about 8 MB) spawns the command, waits for it with
# ``os.wait4`` and reports the wall time, the command's CPU time and ru_maxrss on a pipe.
LAUNCHER = """
import os, sys, time
report, argv = int(sys.argv[1]), sys.argv[2:]
os.set_inheritable(report, False)
start = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
cpu = usage.ru_utime + usage.ru_stime
os.write(report, f"{wall!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} {cpu!r}".encode())
"""


def run_once(
    argv: Sequence[str], cwd: Path, env: dict[str, str]
) -> tuple[float, int, int, bytes, bytes, float]:
    """Run a command; return wall seconds, peak RSS in KiB, exit status, stdout, stderr and
    CPU seconds (user + system).

    The wall time runs from the spawn of the command to its end (interpreter start
    included, the launcher's own start excluded)."""
    read_end, write_end = os.pipe()
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            launcher = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", LAUNCHER, str(write_end), *argv],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                pass_fds=(write_end,),
            )
            os.close(write_end)
            write_end = -1
            with os.fdopen(read_end, "rb") as report_file:
                read_end = -1
                report = report_file.read().decode()
            launcher.wait()
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    if launcher.returncode != 0 or not report:
        raise SystemExit(
            f"score_bench: the launcher failed on {' '.join(argv)}:\n"
            + stderr.decode(ENCODING, "replace")
        )
    wall, peak_kb, status, cpu = report.split()
    return float(wall), int(peak_kb), int(status), stdout, stderr, float(cpu)


def memory_floor(env: dict[str, str]) -> int:
    """The smallest max RSS (KiB) the launcher can report: that of ``true``."""
    return run_once(["true"], REPO, env)[1]


def time_command(
    argv: Sequence[str], cwd: Path, env: dict[str, str], repeat: int, timing: Timing
) -> None:
    """Run ``argv`` ``repeat`` times, folding the results into ``timing``."""
    for _ in range(repeat):
        wall, peak_kb, status, stdout, stderr, cpu = run_once(argv, cwd, env)
        timing.wall = min(timing.wall, wall)
        timing.cpu = min(timing.cpu, cpu)
        timing.peak_kb = max(timing.peak_kb, peak_kb)
        if status != 0:
            tail = stderr.decode(ENCODING, "replace").strip().splitlines()[-3:]
            timing.problems.append(f"exit status {status}: " + " | ".join(tail))
        if timing.stdout is None:
            timing.stdout = stdout
        elif timing.stdout != stdout:
            timing.problems.append("standard output differs between repeats")


INSTRUCTIONS_UP_TO = 20_000
"""The largest input whose commands ``--instructions`` counts (callgrind runs them about
fifty times slower)."""
COLLECTED = re.compile(rb"Collected : (\d+)")


def count_instructions(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> int | None:
    """The instructions a whole command executes, counted by callgrind (the same on a busy
    machine as on a quiet one); None when valgrind is missing or says nothing."""
    if shutil.which("valgrind") is None:
        return None
    argv, env = list(argv), dict(env)
    if argv[0] == "env":  # ``env NAME=VALUE … COMMAND``: callgrind counts COMMAND itself
        argv.pop(0)
        while "=" in argv[0]:
            name, _, value = argv.pop(0).partition("=")
            env[name] = value
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    found = COLLECTED.search(done.stderr)
    return int(found.group(1)) if found else None


def commands(
    python: str,
    score_pl: str | None,
    system: Path,
    gold: Path,
    measure: str,
    baseline: Path | None = None,
    cached: bool = False,
) -> dict[str, list[str]]:
    """The commands timed on one system file. With ``baseline`` (a copy of the scorer's
    package at another commit, e.g. ``git archive OLD scoring | tar -x -C DIR``), that
    scorer and ours are also run the same way, by ``python -P -S`` with the tree on
    ``PYTHONPATH`` (an editable install's finder, or the working directory, would
    otherwise pick this checkout): before and after side by side. With ``cached``, also
    the default command with ``--cache`` (the gold's readings kept and loaded)."""
    found = {
        OURS: [python, "-m", "scoring.score", str(system), str(gold), "-t", measure],
        OURS_QUIET: [
            python,
            "-m",
            "scoring.score",
            str(system),
            str(gold),
            "-t",
            measure,
            "--no-diagnosis",
        ],
    }
    if cached:
        found[OURS_CACHED] = [python, "-m", "scoring.score", str(system), str(gold), "-t", measure]
        found[OURS_CACHED].append("--cache")
    if baseline is not None:
        for tool, tree in ((BEFORE, baseline), (OURS_BARE, REPO)):
            found[tool] = [
                "env",
                f"PYTHONPATH={tree}",
                python,
                "-P",
                "-S",
                "-m",
                "scoring.score",
            ]
            found[tool] += [str(system), str(gold), "-t", measure]
    if score_pl is not None:
        found[PERL] = ["perl", score_pl, str(system), str(gold), "-t", measure]
    return found


def bench_dataset(
    dataset: Dataset,
    python: str,
    score_pl: str | None,
    repeat: int,
    env: dict[str, str],
    baseline: Path | None = None,
    instructions: bool = False,
    cached: bool = False,
) -> list[Row]:
    rows: list[Row] = []
    for measure, system in dataset.systems.items():
        task = "oot" if measure == REPEATS else measure
        argvs = commands(python, score_pl, system, dataset.gold, task, baseline, cached)
        timings = {tool: Timing() for tool in argvs}
        for round_ in range(repeat):  # interleave the tools so drift hits them alike
            for tool, argv in argvs.items():
                log(f"  {dataset.label:>13} {measure:<4} {tool:<20} run {round_ + 1}/{repeat}")
                time_command(argv, REPO, env, 1, timings[tool])
        if instructions and dataset.items <= INSTRUCTIONS_UP_TO:
            for tool, argv in argvs.items():
                log(f"  {dataset.label:>13} {measure:<4} {tool:<20} under callgrind")
                timings[tool].instructions = count_instructions(argv, REPO, env)
        rows.extend(Row(dataset, measure, tool, timing) for tool, timing in timings.items())
    return rows


# --------------------------------------------------------------------------- report


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def capture(argv: Sequence[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
    except OSError as error:
        return f"unavailable ({error.strerror})"
    return (done.stdout or done.stderr).strip()


def scorer_fingerprint() -> str:
    """A hash of the scorer's sources, to notice edits made while the bench runs."""
    digest = hashlib.sha256()
    for path in sorted((REPO / "scoring").rglob("*.py")):
        digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def code_version() -> str:
    head = capture(["git", "-C", str(REPO), "log", "-1", "--format=%h %s"])
    dirty = capture(["git", "-C", str(REPO), "status", "--porcelain", "--", "scoring"])
    return f"{head[:70]}" + (" (scoring/ has uncommitted changes)" if dirty else "")


def machine_facts(python: str, score_pl: str | None) -> list[tuple[str, str]]:
    facts = [
        *machine.machine_facts(),
        (
            "python",
            f"{python}: " + capture([python, "-c", "import sys; print(sys.version.split()[0])"]),
        ),
    ]
    if score_pl is not None:
        facts.append(("perl", capture(["perl", "-e", "print $^V"]) + f" ({score_pl})"))
    return facts


def format_table(rows: Sequence[Row]) -> list[str]:
    header = (
        "size",
        "measure",
        "tool",
        "wall s",
        "cpu s",
        "peak MB",
        "perl/ours wall",
        "perl/ours cpu",
        "ours/perl peak",
        "stdout",
        "M instr.",
    )
    body: list[tuple[str, ...]] = []
    perl = {(row.dataset.label, row.measure): row.timing for row in rows if row.tool == PERL}
    for row in rows:
        reference = perl.get((row.dataset.label, row.measure))
        speed = cpu = memory = same = ""
        if reference is not None and row.tool != PERL:
            speed = f"{reference.wall / row.timing.wall:.2f}x"
            cpu = f"{reference.cpu / row.timing.cpu:.2f}x"
            memory = f"{row.timing.peak_kb / reference.peak_kb:.2f}"
            same = "same" if row.timing.stdout == reference.stdout else "MISMATCH"
        if row.timing.problems:
            same = (same + " " if same else "") + "FAILED"
        body.append(
            (
                row.dataset.label,
                row.measure,
                row.tool,
                f"{row.timing.wall:.3f}",
                f"{row.timing.cpu:.3f}",
                f"{row.timing.peak_kb / 1024:.1f}",
                speed,
                cpu,
                memory,
                same,
                "" if row.timing.instructions is None else f"{row.timing.instructions / 1e6:.1f}",
            )
        )
    widths = [max(len(line[col]) for line in [header, *body]) for col in range(len(header))]
    right = {3, 4, 5, 6, 7, 8, 10}

    def render(line: tuple[str, ...]) -> str:
        cells = [
            cell.rjust(widths[col]) if col in right else cell.ljust(widths[col])
            for col, cell in enumerate(line)
        ]
        return "  ".join(cells).rstrip()

    lines = [render(header), render(tuple("-" * width for width in widths))]
    previous = None
    for row, line in zip(rows, body, strict=True):
        if previous is not None and previous != row.dataset.label:
            lines.append("")
        previous = row.dataset.label
        lines.append(render(line))
    return lines


def verdicts(rows: Sequence[Row]) -> list[str]:
    """The targets, checked for the default command and for ``--no-diagnosis``."""
    found: list[str] = []
    by_key = {(row.dataset.label, row.measure, row.tool): row for row in rows}
    for row in rows:
        if row.tool == PERL:
            continue
        if row.dataset.label.endswith("(real)"):
            perl = by_key.get((row.dataset.label, row.measure, PERL))
            if perl is None:
                found.append(
                    f"----  real test set, {row.measure}, {row.tool}: {row.timing.wall:.3f} s "
                    "wall (score.pl not run: set SCORE_PL to check the target)"
                )
                continue
            speed = perl.timing.wall / row.timing.wall
            ok = speed >= TARGET_REAL_SPEEDUP
            found.append(
                f"{'PASS' if ok else 'MISS'}  real test set, {row.measure}, "
                f"{row.tool}: {row.timing.wall:.3f} s wall, {speed:.2f}x score.pl's "
                f"(target >= {TARGET_REAL_SPEEDUP:g}x)"
            )
        elif row.dataset.items == TARGET_SIZE:
            perl = by_key.get((row.dataset.label, row.measure, PERL))
            if perl is None:
                continue
            speed = perl.timing.wall / row.timing.wall
            cpu = perl.timing.cpu / row.timing.cpu
            memory = row.timing.peak_kb / perl.timing.peak_kb
            ok = speed >= TARGET_SPEEDUP and memory <= TARGET_MEMORY
            found.append(
                f"{'PASS' if ok else 'MISS'}  {TARGET_SIZE:,} items, {row.measure}, "
                f"{row.tool}: {speed:.2f}x faster (target >= {TARGET_SPEEDUP:g}x; CPU time "
                f"{cpu:.2f}x), peak {memory:.2f} of score.pl's (target <= {TARGET_MEMORY:.2f})"
            )
    return found


def mismatches(rows: Sequence[Row]) -> list[str]:
    found: list[str] = []
    default = {(row.dataset.label, row.measure): row.timing for row in rows if row.tool == OURS}
    for row in rows:
        mine = default.get((row.dataset.label, row.measure))
        if (
            row.tool in (BEFORE, OURS_BARE)
            and mine is not None
            and row.timing.stdout != mine.stdout
        ):
            found.append(
                f"{row.dataset.label} {row.measure} {row.tool}: standard output differs from ours"
            )
    perl = {(row.dataset.label, row.measure): row.timing for row in rows if row.tool == PERL}
    for row in rows:
        for problem in row.timing.problems:
            found.append(f"{row.dataset.label} {row.measure} {row.tool}: {problem}")
        reference = perl.get((row.dataset.label, row.measure))
        if reference is None or row.tool == PERL or row.timing.stdout == reference.stdout:
            continue
        ours = (row.timing.stdout or b"").decode(ENCODING, "replace")
        theirs = (reference.stdout or b"").decode(ENCODING, "replace")
        found.append(
            f"{row.dataset.label} {row.measure} {row.tool}: standard output differs "
            f"from score.pl's\n--- score.pl\n{theirs}--- {row.tool}\n{ours}"
        )
    return found


def scores(rows: Sequence[Row]) -> list[str]:
    """What the default command printed, one line per size and measure."""
    found: list[str] = []
    for row in rows:
        if row.tool == OURS and row.timing.stdout is not None:
            text = row.timing.stdout.decode(ENCODING, "replace").strip().replace("\n", " | ")
            found.append(f"{row.dataset.label:>13} {row.measure:<4}  {text}")
    return found


# --------------------------------------------------------------------------- main


def parse_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of sizes: {text}") from error
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"sizes must be positive: {text}")
    return sizes


def default_python() -> str:
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.is_file() else sys.executable


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time python -m scoring.score (and score.pl, if SCORE_PL is set)."
    )
    parser.add_argument(
        "--sizes",
        type=parse_sizes,
        default=None,
        help="comma-separated synthetic sizes (default 100000,1000000)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="runs per command; best wall and CPU and max peak are kept (default 3)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: sizes 1696,10000 and repeat 1 unless given"
    )
    parser.add_argument("--seed", type=int, default=2007, help="seed of the synthetic answers")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="keep the synthetic files in this directory (e.g. bench/out)",
    )
    parser.add_argument(
        "--python",
        default=default_python(),
        help="interpreter that runs our scorer (default: the repo's .venv)",
    )
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="leave PYTHONDONTWRITEBYTECODE as the environment has it "
        "(by default the scorer's bytecode is cached, outside the repo)",
    )
    parser.add_argument("--no-real", action="store_true", help="skip the real 1,696-item test set")
    parser.add_argument(
        "--cache-too",
        action="store_true",
        help="also time the default command with --cache (the gold's readings kept and loaded)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="also time the scorer package copied into DIR (before) and ours, both by "
        "python -P -S with the tree on PYTHONPATH",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help=f"also count each command's instructions once under callgrind (inputs of at "
        f"most {INSTRUCTIONS_UP_TO:,} items): a figure the machine's load does not change",
    )
    options = parser.parse_args(argv)
    if options.sizes is None:
        options.sizes = QUICK_SIZES if options.quick else DEFAULT_SIZES
    if options.repeat is None:
        options.repeat = 1 if options.quick else 3
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    return options


@contextmanager
def output_directory(chosen: Path | None) -> Iterator[Path]:
    if chosen is not None:
        chosen.mkdir(parents=True, exist_ok=True)
        yield chosen.resolve()
        return
    with tempfile.TemporaryDirectory(prefix="score_bench_") as directory:
        yield Path(directory)


def score_pl_from_environment() -> str | None:
    named = os.environ.get("SCORE_PL")
    if not named:
        return None
    if not Path(named).is_file():
        raise SystemExit(f"score_bench: SCORE_PL names no file: {named}")
    if shutil.which("perl") is None:
        raise SystemExit("score_bench: SCORE_PL is set but perl is not on PATH")
    return str(Path(named).resolve())


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    load_before = machine.load_average()
    fingerprint = scorer_fingerprint()
    score_pl = score_pl_from_environment()
    items = read_real_gold(REAL_GOLD)
    rows: list[Row] = []
    started = time.perf_counter()
    bytecode_cache = not options.no_bytecode_cache
    with output_directory(options.out) as directory:
        env = child_environment(directory, bytecode_cache)
        warm_up = [options.python, "-c", "import scoring.score.cli"]
        if run_once(warm_up, REPO, env)[2] != 0:
            raise SystemExit(f"score_bench: {options.python} cannot import scoring.score.cli")
        floor_kb = memory_floor(env)
        if not options.no_real:
            log(f"timing the real test set ({options.repeat} runs per command)")
            rows.extend(
                bench_dataset(
                    real_dataset(),
                    options.python,
                    score_pl,
                    options.repeat,
                    env,
                    options.baseline,
                    options.instructions,
                    options.cache_too,
                )
            )
        for size in options.sizes:
            log(f"writing {size:,} synthetic items into {directory}")
            dataset = write_synthetic(items, size, directory, options.seed)
            for path in (dataset.gold, *dataset.systems.values()):
                check_path(path)
            log(f"timing {size:,} items ({options.repeat} runs per command)")
            rows.extend(
                bench_dataset(
                    dataset,
                    options.python,
                    score_pl,
                    options.repeat,
                    env,
                    options.baseline,
                    options.instructions,
                    options.cache_too,
                )
            )
    elapsed = time.perf_counter() - started

    print(
        "score_bench: python -m scoring.score"
        + (" vs perl score.pl" if score_pl else " (set SCORE_PL to compare with score.pl)")
    )
    for name, value in machine_facts(options.python, score_pl):
        print(f"  {name:<7} {value}")
    print(f"  code    {code_version()}; scoring/ sources {fingerprint}")
    print(
        f"  runs    {options.repeat} per command (best wall and CPU, max peak RSS), "
        f"seed {options.seed}, bench took {elapsed:.0f} s"
    )
    print(
        f"  load    1/5/15-min averages {load_before} before, {machine.load_average()} after "
        "(other work on the machine skews the figures)"
    )
    print(
        f"  peak    max RSS of the command via os.wait4 in a launcher; "
        f"floor {floor_kb / 1024:.1f} MB (what `true` reports)"
    )
    print(
        "  pyc     "
        + (
            "scorer bytecode cached (warm), as with a default Python"
            if bytecode_cache
            else "environment as is: PYTHONDONTWRITEBYTECODE="
            + os.environ.get("PYTHONDONTWRITEBYTECODE", "(unset)")
        )
    )
    print()
    for line in format_table(rows):
        print(line)
    print()
    print("Scores printed by the default command:")
    for line in scores(rows):
        print(line)
    found = verdicts(rows)
    if found:
        print()
        print("Targets:")
        for line in found:
            print(f"  {line}")
    problems = mismatches(rows)
    if scorer_fingerprint() != fingerprint:
        problems.append(
            "scoring/ was edited while the bench ran: the figures mix versions "
            "of the scorer; run it again"
        )
    if problems:
        print()
        print("!" * 78)
        print(f"!!! {len(problems)} PROBLEM(S): outputs differ or a command failed")
        print("!" * 78)
        for problem in problems:
            print(problem)
        return 1
    if score_pl:
        print()
        print("All standard outputs identical to score.pl's.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
