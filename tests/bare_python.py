"""A fresh interpreter for what only a new process shows (what it imports, compiles or
collects at start-up): ``python -S -c CODE ARGS`` with the checkout on its path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def bare_python(
    code: str, *args: str, check: bool = False, bytecode: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in ``python -S`` (no ``site``: nothing but the checkout and the
    standard library is imported before it) with ``args``; its output as text. With
    ``bytecode``, the modules' bytecode is written to and read from that folder, as a
    user's Python does, even where the environment says not to write it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return subprocess.run(
        [sys.executable, "-S", "-c", code, *args],
        capture_output=True,
        text=True,
        check=check,
        env=env,
    )
