"""The packages to install, beside pyproject.toml (which holds everything else).

pyproject.toml cannot say that a folder outside a package installs inside it: the top-level
``templates/`` goes into the wheel as ``annotate/templates`` (package data, with every other
data folder of ``annotate``: migrations, static files, catalogues), so that ``pip install
'.[web]'`` and ``flask --app annotate`` work from any folder. In a checkout the app reads
``templates/`` where it stands (:data:`annotate.factory.TEMPLATES`).
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).resolve().parent
TEMPLATE_FOLDERS = sorted(
    path.relative_to(ROOT / "templates").as_posix()
    for path in (ROOT / "templates").rglob("*")
    if path.is_dir() and path.name != "__pycache__"
)

setup(
    packages=[
        *find_namespace_packages(
            where=str(ROOT), include=["annotate", "annotate.*", "scoring", "scoring.*"]
        ),
        "annotate.templates",
        *(f"annotate.templates.{folder.replace('/', '.')}" for folder in TEMPLATE_FOLDERS),
    ],
    package_dir={"annotate.templates": "templates"},
)
