"""The packages to install, beside pyproject.toml (which holds everything else).

pyproject.toml cannot say that a folder outside a package installs inside it: the top-level
``templates/`` goes into the wheel as ``annotate/templates`` (package data, with every other
data folder of ``annotate``: migrations, static files, catalogues), so that ``pip install
'.[web]'`` and ``flask --app annotate`` work from any folder. In a checkout the app reads
``templates/`` where it stands (:data:`annotate.factory.TEMPLATES`).
"""

import sys
from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).resolve().parent
TEMPLATE_FOLDERS = sorted(
    path.relative_to(ROOT / "templates").as_posix()
    for path in (ROOT / "templates").rglob("*")
    if path.is_dir() and path.name != "__pycache__"
)

PACKAGES = find_namespace_packages(
    where=str(ROOT), include=["annotate", "annotate.*", "scoring", "scoring.*"]
)

if "editable_wheel" in sys.argv:
    # An editable install (pip install -e) reads templates/ in the checkout where it stands:
    # the packages as they lie give setuptools' plain .pth line, with no warning.
    setup(packages=PACKAGES, package_dir={"": "."})
else:
    setup(
        packages=[
            *PACKAGES,
            "annotate.templates",
            *(f"annotate.templates.{folder.replace('/', '.')}" for folder in TEMPLATE_FOLDERS),
        ],
        package_dir={"annotate.templates": "templates"},
    )
