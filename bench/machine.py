"""What the benchmarks print about the machine they ran on (bench/RESULTS.md quotes it):
the date, the CPU model, the cores, the memory, the system, and the load average."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path


def _proc_field(path: str, prefix: str) -> str | None:
    """The rest of the first line of a /proc file that starts with ``prefix``."""
    file = Path(path)
    if not file.is_file():
        return None
    for line in file.read_text(errors="replace").splitlines():
        if line.startswith(prefix):
            return line[len(prefix) :]
    return None


def machine_facts() -> list[tuple[str, str]]:
    """(name, value) pairs: date, cpu, cores, memory, os."""
    cpu = _proc_field("/proc/cpuinfo", "model name")
    memory = _proc_field("/proc/meminfo", "MemTotal:")
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return [
        ("date", datetime.datetime.now().astimezone().isoformat(timespec="seconds")),
        ("cpu", "unknown" if cpu is None else cpu.split(":", 1)[1].strip()),
        ("cores", f"{os.cpu_count()} logical, {usable} usable"),
        (
            "memory",
            "unknown" if memory is None else f"{int(memory.split()[0]) / 1024 / 1024:.1f} GiB",
        ),
        ("os", platform.platform()),
    ]


def load_average() -> str:
    """The 1, 5 and 15-minute load averages."""
    return " ".join(f"{load:.2f}" for load in os.getloadavg())
