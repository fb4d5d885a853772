"""Import speed: the task's 1,710-instance test XML parsed and stored in a fresh SQLite
database (target under 2 s), as `flask --app wsgi lexsub import` does it.

Run: .venv/bin/python -m bench.import_bench [XML_FILE]
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

from annotate import create_app
from annotate.importer import parse_lexsub_xml
from annotate.services.datasets import import_dataset

ROOT = Path(__file__).resolve().parent.parent

DEFAULT = ROOT.parent / "shared" / "data" / "semeval2007" / "test" / "lexsub_test.xml"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not path.exists():
        raise SystemExit(f"import_bench: {path} not found (the shared data)")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite"}
        )
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            data = path.read_bytes()
            started = time.perf_counter()
            result = parse_lexsub_xml(data, str(path))
            parsed = time.perf_counter()
            imported = import_dataset(result, "bench", path.name, data)
            stored = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"import_bench: {path.name}: {imported.instances} instances, {len(result.repairs)} repairs"
    )
    print(
        f"  parse {parsed - started:.3f} s, store {stored - parsed:.3f} s, "
        f"total {stored - started:.3f} s (target < 2 s), peak {peak:.0f} MB"
    )


if __name__ == "__main__":
    main()
