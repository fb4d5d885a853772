"""The compile page: the command line's options, the summary before the
download, and a download that is the same bytes as ``lexsub compile`` with them."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import login

pytestmark = pytest.mark.database

OPTIONS = [
    ({}, []),
    ({"only_t": "on"}, ["--only-t"]),
    (
        {"t_rule": "responses", "no_normalise": "on", "no_lemmatise": "on"},
        ["--t-rule", "responses", "--no-normalise", "--no-lemmatise"],
    ),
]


@pytest.mark.parametrize(("query", "flags"), OPTIONS)
def test_download_is_the_command_s_bytes(
    answered: Flask,
    client: FlaskClient,
    dataset: int,
    tmp_path: Path,
    query: dict[str, str],
    flags: list[str],
) -> None:
    result = answered.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", "small", "--out", str(tmp_path / "out"), *flags]
    )
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    login(client, "boss")
    archive = client.get(f"/organiser/datasets/{dataset}/gold", query_string=query)
    assert archive.status_code == 200
    files = zipfile.ZipFile(io.BytesIO(archive.data))
    assert sorted(files.namelist()) == sorted(path.name for path in out.iterdir())
    for name in files.namelist():
        assert files.read(name) == (out / name).read_bytes(), name
        single = client.get(
            f"/organiser/datasets/{dataset}/gold", query_string={**query, "file": name}
        )
        assert single.data == (out / name).read_bytes(), name
    # the same files give the same zip
    assert (
        client.get(f"/organiser/datasets/{dataset}/gold", query_string=query).data == archive.data
    )


def test_page_shows_options_summary_and_command(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}/compile").get_data(as_text=True)
    assert "--t-rule" in html and "--only-t" in html and "--no-normalise" in html
    assert '<code id="command">lexsub compile --dataset small --out DIR</code>' in html
    assert "<th>In T</th><td>2</td>" in html
    # stand.n.v: tolerated → tolerate applied to the two responses
    assert "1 applied to 2 responses" in html
    assert '<code>"tolerated"</code> → <code>"tolerate"</code>' in html
    html = client.get(
        f"/organiser/datasets/{dataset}/compile",
        query_string={"only_t": "on", "no_lemmatise": "on", "t_rule": "responses"},
    ).get_data(as_text=True)
    assert (
        "lexsub compile --dataset small --out DIR --no-lemmatise --t-rule responses --only-t</code>"
    ) in html
    assert "only_t=on" in html and "0 applied to 0 responses" in html
    assert 'value="on" checked> Only the items in T' in html
    html = client.get(f"/organiser/datasets/{dataset}/compile?t_rule=x").get_data(as_text=True)
    assert "T rule &#39;x&#39; is not annotators or responses" in html
    assert client.get(f"/organiser/datasets/{dataset}/gold?t_rule=x").status_code == 400
    assert client.get(f"/organiser/datasets/{dataset}/gold?file=nope").status_code == 404
