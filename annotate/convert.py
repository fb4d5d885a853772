"""``lexsub convert``: the conversions of :mod:`scoring.benchmark.convert`, and
``lexsub convert FILE --to hf --out DIR [--format swords|coinco|tsar]``: a SWORDS, CoInCo,
TSAR or MLSP gold in the Hugging Face layout of ``lexsub export-hf``
(:func:`scoring.formats.importers.hub.converted_hub`, which reads the file as ``lexsub
import`` does); every other conversion is handed to the library's.

Exit status: 0 done, 1 bad input or pyarrow missing (one line ``Error: …``), 2 usage.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from scoring.benchmark import convert
from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.formats.hf import NeedsPyarrow, need_pyarrow, write_hub


def to_hf(argv: Sequence[str], stdout: TextIO) -> int:
    """``lexsub convert FILE --to hf --out DIR [--format F]``; the exit status."""
    from scoring.formats.importers.hub import CONVERTED, converted_hub
    from scoring.formats.importers.read import read_limited

    parser = ArgumentParser(
        prog="lexsub convert",
        command="lexsub convert",
        description="Convert a SWORDS, CoInCo, TSAR or MLSP gold to the Hugging Face layout.",
    )
    parser.add_argument("file", metavar="FILE", help="the gold (gzip-compressed or not)")
    parser.add_argument("--to", required=True, choices=("hf",), help="the layout: hf")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write")
    parser.add_argument(
        "--format", choices=CONVERTED, help="the file's format (default: told from the content)"
    )
    args = parser.parse_args(argv)
    try:
        need_pyarrow()
        hub = converted_hub(read_limited(args.file), args.file, args.format)
        write_hub(hub, args.out)
    except NeedsPyarrow as error:
        return fail(str(error))
    except FAILURES as error:
        return fail(describe(error))
    with_gold = sum(1 for item in hub.items if item.substitutes)
    stdout.write(
        f"wrote {len(hub.items)} items ({with_gold} with substitutes) and README.md to {args.out}\n"
    )
    return 0


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Run ``lexsub convert ARGV``; the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if any(argument == "--to" or argument.startswith("--to=") for argument in arguments):
        return to_hf(arguments, stdout or sys.stdout)
    return convert.main(arguments, stdout)


if __name__ == "__main__":
    sys.exit(main())
