"""The package: the wheel builds, installs in a fresh virtual
environment outside the checkout, and its commands run there.

One real install of the plain wheel (``pip install WHEEL``: no Flask may arrive, and the
scoring commands and the compiler must run without it), then the web extra into the same
environment (``pip install 'WHEEL[web]'``: ``flask --app annotate lexsub init-db``). Slow
(a venv and two installs, from pip's cache after the first run): marked ``slow``, part of
the full suite; ``-m 'not slow'`` leaves it out.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from scoring import __version__
from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = (
    "lexsub",
    "lexsub-score",
    "lexsub-compare",
    "lexsub-agreement",
    "lexsub-compile",
    "lexsub-benchmark",
    "lexsub-judgements",
)
# (defusedxml is not here: NLTK, a base dependency for SWORDS' lemmatiser, needs it too)
WEB = {
    "flask",
    "flask-login",
    "flask-sqlalchemy",
    "flask-migrate",
    "flask-wtf",
    "flask-limiter",
    "sqlalchemy",
    "psycopg",
    "werkzeug",
    "flask-babel",
    "babel",
}

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Venv:
    """A fresh virtual environment outside the checkout, and a scratch folder to run in."""

    path: Path
    work: Path

    def bin(self, name: str) -> str:
        return str(self.path / "bin" / name)

    def run(
        self,
        argv: Sequence[str],
        check: bool = True,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        clean = {
            key: value
            for key, value in os.environ.items()
            if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
        }
        clean["PATH"] = f"{self.path / 'bin'}{os.pathsep}{clean.get('PATH', '')}"
        result = subprocess.run(
            list(argv),
            cwd=cwd or self.work,
            env={**clean, **(env or {})},
            capture_output=True,
            check=False,
            timeout=900,
        )
        if check:
            assert result.returncode == 0, (argv, result.stdout[-2000:], result.stderr[-4000:])
        return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("lexsub-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Venv:
    """The plain install: ``pip install WHEEL`` into a fresh venv."""
    base = tmp_path_factory.mktemp("installed")
    assert not base.resolve().is_relative_to(ROOT)
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
    made = Venv(base / "venv", base / "work")
    made.work.mkdir()
    made.run([made.bin("python"), "-m", "pip", "install", "--quiet", str(wheel)])
    return made


def _requires(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"lexsub-{__version__}.dist-info/METADATA").decode()
    return [
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    ]


def _name(requirement: str) -> str:
    head = requirement.split(";")[0]
    for stop in "<>=![ ":
        head = head.split(stop)[0]
    return head.strip().lower()


def test_the_wheel_holds_the_two_packages_their_data_and_the_scripts(wheel: Path) -> None:
    assert wheel.name == f"lexsub-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        scripts = archive.read(f"lexsub-{__version__}.dist-info/entry_points.txt").decode()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"annotate", "scoring", f"lexsub-{__version__}.dist-info"}
    for data in (
        "annotate/templates/base.html",
        "annotate/templates/reports/agreement.html",
        "annotate/migrations/env.py",
        "annotate/migrations/alembic.ini",
        "annotate/migrations/script.py.mako",
        "annotate/demo/demo.xml",
        "annotate/static/lexsub.css",
        "annotate/static/annotate.js",
        "annotate/static/judge.js",
        "annotate/static/lexsub.js",
        "annotate/translations/de/LC_MESSAGES/messages.mo",
        "annotate/translations/it/LC_MESSAGES/messages.mo",
        "scoring/py.typed",
    ):
        assert data in names, data
    assert any(name.startswith("annotate/migrations/versions/") for name in names)
    for script in SCRIPTS:
        assert f"{script} = " in scripts, script


def test_the_plain_requirements_hold_no_web_package(wheel: Path) -> None:
    requires = _requires(wheel)
    plain = {_name(r) for r in requires if "extra ==" not in r}
    web = {_name(r) for r in requires if 'extra == "web"' in r}
    # simplemma and spacy-lookups-data: the gold compiler's lemmatisers for other languages;
    # nltk: SWORDS' lemmatiser (scoring.benchmark); defusedxml: the safe XML feed
    # (scoring.files.safexml) CoInCo's reader uses; threadpoolctl: one BLAS thread in the
    # resampler's products (scoring.significance); pycountry: a dataset's language, read
    # by the importers (scoring.formats.language)
    assert plain == {
        "defusedxml",
        "numpy",
        "krippendorff",
        "lemminflect",
        "nltk",
        "pycountry",
        "simplemma",
        "spacy-lookups-data",
        "threadpoolctl",
    }
    assert not plain & WEB
    assert {"flask", "flask-sqlalchemy", "flask-migrate", "sqlalchemy", "psycopg"} <= web


def test_the_plain_install_has_no_flask_and_imports_outside_the_checkout(venv: Venv) -> None:
    python = venv.bin("python")
    installed = venv.run([python, "-m", "pip", "list", "--format=json"]).stdout
    names = {entry["name"].lower() for entry in json.loads(installed)}
    assert "lexsub" in names and not names & WEB, sorted(names & WEB)
    assert venv.run([python, "-c", "import flask"], check=False).returncode == 1
    where = (
        venv.run(
            [
                python,
                "-c",
                "import scoring.score.cli, annotate.compile, scoring; "
                "print(scoring.__file__, scoring.__version__)",
            ]
        )
        .stdout.decode()
        .split()
    )
    assert Path(where[0]).is_relative_to(venv.path) and where[1] == __version__


def test_lexsub_score_prints_what_score_pl_prints(venv: Venv) -> None:
    root = shared_path("oracle")
    with (root / "cases.tsv").open(newline="") as handle:
        cases = list(csv.DictReader(handle, delimiter="\t"))
    for case in (cases[0], next(c for c in cases if c["type"] == "oot" and c["verbose"])):
        system = (root.parent / case["system"]).resolve()
        gold = (root.parent / case["gold"]).resolve()
        # score.pl names the system file as given: run where the oracle ran it
        argv = [venv.bin("lexsub-score"), system.name, str(gold), "-t", case["type"]]
        result = venv.run([*argv, case["verbose"]] if case["verbose"] else argv, cwd=system.parent)
        assert result.stdout == (root.parent / case["expected"]).read_bytes(), case["name"]


def test_the_commands_run_without_flask(venv: Venv) -> None:
    gold = shared_path("data", "semeval2007", "trial", "gold.trial")
    system = shared_path("data", "semeval2007", "trial", "BL.out")
    compared = venv.run(
        [
            venv.bin("lexsub-compare"),
            str(gold),
            str(system),
            "--format",
            "json",
            "--measures",
            "best.R",
            "--workers",
            "1",
        ]
    )
    figures = json.loads(compared.stdout)
    # BL.out's best recall on the trial gold under score.pl's rules (README: 7.47)
    assert round(100 * figures["systems"]["BL.out"]["best.R"], 2) == 7.47
    responses = venv.work / "responses.jsonl"
    responses.write_text(
        "".join(
            json.dumps(
                {
                    "annotator": annotator,
                    "lexelt": "bright.a",
                    "instance": str(instance),
                    "kind": "substitutes",
                    "substitutes": substitutes,
                    "multiword": None,
                    "used_dictionary": False,
                    "updated_at": "2026-01-01T00:00:00+00:00",
                }
            )
            + "\n"
            for instance, annotator, substitutes in [
                (1, "ann1", ["shining"]),
                (1, "ann2", ["shining", "brilliant"]),
                (2, "ann1", ["clever"]),
                (2, "ann2", ["smart"]),
            ]
        ),
        encoding="utf-8",
    )
    venv.run([venv.bin("lexsub-compile"), str(responses), "--out", "out"])
    assert (venv.work / "out" / "gold").read_text(encoding="utf-8").splitlines() == [
        "bright.a 1 :: shining 2;brilliant 1;",
        "bright.a 2 :: clever 1;smart 1;",
    ]
    report = venv.run([venv.bin("lexsub-agreement"), "out/annotators.jsonl", "--format", "json"])
    table = json.loads(report.stdout)
    # PA: item 1 |{shining}| / |{shining, brilliant}| = 1/2, item 2: 0; mean 1/4
    assert (table["all"]["PA"], table["all"]["T"]) == (0.25, 2)
    # gold-to-swords reads the task's XML without Flask
    (venv.work / "task.xml").write_text(
        '<corpus lang="english"><lexelt item="bright.a"><instance id="1"><context>'
        'He was <head>bright</head> .</context></instance><instance id="2"><context>'
        "She is <head>bright</head> .</context></instance></lexelt></corpus>",
        encoding="utf-8",
    )
    swords = venv.run(
        [
            venv.bin("python"),
            "-m",
            "scoring.benchmark.convert",
            "gold-to-swords",
            "out/gold",
            "--xml",
            "task.xml",
        ]
    )
    dataset = json.loads(swords.stdout)
    assert [(t["target"], t["offset"], t["pos"]) for t in dataset["targets"].values()] == [
        ("bright", 7, "ADJ"),
        ("bright", 7, "ADJ"),
    ]


def test_the_web_extra_installs_and_init_db_runs_outside_the_checkout(
    venv: Venv, wheel: Path
) -> None:
    venv.run([venv.bin("python"), "-m", "pip", "install", "--quiet", f"{wheel}[web]"])
    database = venv.work / "study.sqlite"
    env = {"DATABASE_URL": f"sqlite:///{database}", "LEXSUB_INSTANCE": str(venv.work / "instance")}
    done = venv.run([venv.bin("flask"), "--app", "annotate", "lexsub", "init-db"], env=env)
    assert b"database ready" in done.stdout
    with sqlite3.connect(database) as connection:
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    assert {"users", "datasets", "instances", "responses", "alembic_version"} <= tables
    assert (venv.work / "instance" / "secret_key").exists()
    # the installed app has its templates (the log-in page), its catalogues (a German page)
    # and its static files, run from a folder that is not the checkout
    shown = venv.run(
        [
            venv.bin("python"),
            "-c",
            "from annotate import create_app\n"
            "from annotate.i18n import use_language\n"
            "from flask_babel import gettext\n"
            "app = create_app()\n"
            "with app.test_request_context('/'):\n"
            "    use_language('de')\n"
            "    print(gettext('Save and next'))\n"
            "client = app.test_client()\n"
            "print(client.get('/static/lexsub.js').status_code, "
            "client.get('/static/lexsub.css').status_code)\n"
            "login = client.get('/login')\n"
            "print(login.status_code, b'name=\"password\"' in login.data)\n",
        ],
        env=env,
    )
    assert shown.stdout.decode().splitlines() == ["Speichern und weiter", "200 200", "200 True"]


def test_an_editable_install_prints_no_warning_of_the_project_s(tmp_path: Path) -> None:
    """``pip install -e .`` as the set-up scripts run it: no setuptools warning (the
    transitional ``compat`` editable mode printed a 12-line BuildBackendWarning, and the
    meta path finder of setuptools' default mode an 8-line one), and the checkout on the
    path by a plain ``.pth`` line."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # scripts/_venv.sh upgrades pip first; pip 24 and later show the build backend's warnings
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--no-deps", "-e", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout + done.stderr
    for word in ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "!!", "deprecat"):
        assert word not in printed, printed
    pth = next((venv / "lib").glob("python3*/site-packages/__editable__.lexsub-*.pth"))
    assert pth.read_text().strip() == str(ROOT)
