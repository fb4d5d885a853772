"""annotate.numeric: every id in a path and every number of a form or query string, sent
out of range or in other digits than 0-9, is a 404 or a 400 that names the field, the
value and the rule; never a server error (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import select

from annotate.numeric import MAX_ID, FormError, IdConverter, whole_number
from tests.conftest import login, make_round, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

BAD = (
    "99999999999999999999",
    "2147483648",  # 2^31: past PostgreSQL's integer
    "²",
    "①",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: int() reads it as 3
    "1" * 30,
    "-1",
)
"""Numbers no id and no form field takes."""


@pytest.mark.parametrize(
    ("value", "expected"), [("0", 0), ("12", 12), (" 7 ", None), ("0012", 12), ("100", 100)]
)
def test_whole_number_takes_ascii_digits_in_range(value: str, expected: int | None) -> None:
    if expected is None:  # form_number strips; whole_number itself takes digits only
        with pytest.raises(FormError):
            whole_number(value, "size", 0, 100)
    else:
        assert whole_number(value, "size", 0, 100) == expected


@pytest.mark.parametrize("value", [*BAD, "", "+5", "1.0", "1e3", "101", "1_0", "\u0661\u0660"])
def test_whole_number_refuses_with_the_field_value_and_rule(value: str) -> None:
    with pytest.raises(FormError) as raised:
        whole_number(value, "sample size", 0, 100)
    assert raised.value.code == 400
    assert raised.value.description == (
        f"sample size {value!r} is not a whole number from 0 to 100"
    )


def test_a_long_value_is_cut_in_the_message() -> None:
    with pytest.raises(FormError) as raised:
        whole_number("9" * 5000, "seed", 0, 10)
    assert raised.value.description == f"seed {'9' * 40!r}… is not a whole number from 0 to 10"


def test_every_route_with_an_id_uses_the_id_converter(app: Flask) -> None:
    """No ``<int:…>`` is left; the routes with an id are the ones the table below tries."""
    found = {
        rule.rule
        for rule in app.url_map.iter_rules()
        for converter in rule._converters.values()
        if isinstance(converter, IdConverter)
    }
    assert not [r.rule for r in app.url_map.iter_rules() if "<int:" in r.rule]
    assert found == set(ID_ROUTES)


ID_ROUTES = {
    "/annotate/dataset/<id:dataset_id>": "GET",
    "/annotate/dataset/<id:dataset_id>/done": "GET",
    "/annotate/<id:instance_id>": "GET",
    "/organiser/datasets/<id:dataset_id>": "GET",
    "/organiser/datasets/<id:dataset_id>/settings": "GET",
    "/organiser/datasets/<id:dataset_id>/progress": "GET",
    "/organiser/datasets/<id:dataset_id>/export": "GET",
    "/organiser/users/<id:user_id>/active": "POST",
    "/organiser/users/<id:user_id>/password": "POST",
    "/organiser/datasets/<id:dataset_id>/lemmas": "GET",
    "/organiser/datasets/<id:dataset_id>/compile": "GET",
    "/organiser/datasets/<id:dataset_id>/gold": "GET",
    "/organiser/datasets/<id:dataset_id>/members": "GET",
    "/organiser/datasets/<id:dataset_id>/agreement": "GET",
    "/organiser/datasets/<id:dataset_id>/problems": "GET",
    "/organiser/datasets/<id:dataset_id>/items/<item_id:xml_id>": "GET",
    "/organiser/datasets/<id:dataset_id>/answers": "GET",
    "/organiser/datasets/<id:dataset_id>/annotators/<username>": "GET",
    "/organiser/datasets/<id:dataset_id>/scores": "GET",
    "/organiser/datasets/<id:dataset_id>/scores/rescore": "POST",
    "/organiser/datasets/<id:dataset_id>/scores/delete": "POST",
    "/organiser/datasets/<id:dataset_id>/scores/benchmark": "POST",
    "/organiser/datasets/<id:dataset_id>/delete": "GET",
    "/organiser/datasets/<id:dataset_id>/exclusions": "POST",
    "/organiser/datasets/<id:dataset_id>/methods": "GET",
    "/organiser/datasets/<id:dataset_id>/study": "GET",
    "/study/dataset/<id:dataset_id>/start": "GET",
    "/organiser/rounds/<id:round_id>": "GET",
    "/organiser/rounds/<id:round_id>/export": "GET",
    "/organiser/rounds/<id:round_id>/report": "GET",
    "/judge/<id:round_id>": "GET",
    "/judge/<id:round_id>/done": "GET",
    "/judge/<id:round_id>/<id:index>": "GET",
}
"""Every route with an id, with a method it answers."""


@pytest.fixture
def boss(app: Flask, client: FlaskClient, dataset: int) -> FlaskClient:
    """The organiser "boss", logged in (every page opens to them), judging a round."""
    make_user(app, "boss", "organiser")
    make_round(app, judge="boss")
    login(client, "boss")
    return client


def _ids(app: Flask, dataset: int) -> dict[str, str]:
    from annotate.extensions import db
    from annotate.models import Instance, JudgementRound, User

    with app.app_context():
        return {
            "dataset_id": str(dataset),
            "instance_id": str(db.session.scalar(select(Instance.id))),
            "user_id": str(db.session.scalar(select(User.id))),
            "round_id": str(db.session.scalar(select(JudgementRound.id))),
            "index": "1",
            "xml_id": "1",
            "username": "boss",
        }


@pytest.mark.parametrize("value", BAD)
def test_an_id_out_of_range_or_in_other_digits_is_a_404(
    app: Flask, boss: FlaskClient, dataset: int, value: str
) -> None:
    """Each id of each route set to ``value`` (the others real): 404, the styled page."""
    real = _ids(app, dataset)
    for route, method in ID_ROUTES.items():
        for name in [n for n in real if f"<id:{n}>" in route]:
            url = route
            for other, given in real.items():
                given = value if other == name else given
                url = (
                    url.replace(f"<id:{other}>", given)
                    .replace(f"<path:{other}>", given)
                    .replace(f"<{other}>", given)
                )
            response = boss.open(url, method=method)
            assert response.status_code == 404, (url, response.status_code)
            assert "No such page." in response.get_data(as_text=True), url


def test_the_largest_id_is_a_plain_404(app: Flask, boss: FlaskClient, dataset: int) -> None:
    """2^31 - 1 is an id the databases can hold: the route matches, the row is missing."""
    for url in (f"/annotate/{MAX_ID}", f"/judge/{MAX_ID}", f"/organiser/datasets/{MAX_ID}"):
        assert boss.get(url).status_code == 404, url
    assert boss.get(f"/annotate/dataset/{dataset}").status_code == 302  # its own still opens


FIELDS = [
    # (method, url, form or query, the field's key, its name in the message, low, high)
    (
        "POST",
        "/organiser/datasets/{dataset}/members",
        {"action": "design", "design": "overlap", "batch_size": "2"},
        "per_sentence",
        "annotators per sentence",
        1,
        1000,
    ),
    (
        "POST",
        "/organiser/datasets/{dataset}/members",
        {"action": "design", "design": "overlap", "per_sentence": "2"},
        "batch_size",
        "batch size",
        1,
        100000,
    ),
    (
        "POST",
        "/organiser/datasets/{dataset}/members",
        {"action": "members"},
        "user",
        "annotator",
        1,
        MAX_ID,
    ),
    ("POST", "/organiser/users/bulk", {"usernames": "newbie"}, "dataset", "dataset", 1, MAX_ID),
    (
        "POST",
        "/organiser/rounds",
        {"action": "posthoc", "name": "r2", "sample": "2"},
        "dataset",
        "dataset",
        1,
        MAX_ID,
    ),
    (
        "POST",
        "/organiser/rounds",
        {"action": "posthoc", "name": "r2", "dataset": "{dataset}"},
        "sample",
        "sample size",
        1,
        100000,
    ),
    (
        "POST",
        "/organiser/rounds",
        {"action": "posthoc", "name": "r2", "dataset": "{dataset}", "sample": "2"},
        "seed",
        "seed",
        0,
        MAX_ID,
    ),
    (
        "POST",
        "/organiser/rounds",
        {"action": "posthoc", "name": "r2", "dataset": "{dataset}", "sample": "2", "seed": "1"},
        "stored",
        "stored system",
        1,
        MAX_ID,
    ),
    ("POST", "/organiser/rounds/{round}", {}, "user", "judge", 1, MAX_ID),
    ("POST", "/organiser/datasets/{dataset}/scores/delete", {}, "system", "system", 1, MAX_ID),
    ("GET", "/organiser/datasets/{dataset}/agreement", {}, "seed", "seed", 0, MAX_ID),
    (
        "GET",
        "/organiser/datasets/{dataset}/scores",
        {"significance": "on"},
        "seed",
        "seed",
        0,
        MAX_ID,
    ),
]


@pytest.mark.parametrize("value", BAD)
@pytest.mark.parametrize(
    ("method", "url", "form", "key", "field", "low", "high"),
    FIELDS,
    ids=[
        str(case[1]).format(dataset="D", round="R").strip("/").replace("/", "-") + f"-{case[3]}"
        for case in FIELDS
    ],
)
def test_a_form_number_out_of_range_or_in_other_digits_is_a_400_saying_so(
    app: Flask,
    boss: FlaskClient,
    dataset: int,
    method: str,
    url: str,
    form: dict[str, str],
    key: str,
    field: str,
    low: int,
    high: int,
    value: str,
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, JudgementRound, User

    round_id = _ids(app, dataset)["round_id"]
    url = url.format(dataset=dataset, round=round_id)
    data = {k: v.format(dataset=dataset) for k, v in {**form, key: value}.items()}
    get = method == "GET"
    response = boss.get(url, query_string=data) if get else boss.post(url, data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 400, (url, key, value, response.status_code)
    message = f"{field} {value!r} is not a whole number from {low} to {high}"
    assert str(escape(message)) in page, page
    with app.app_context():  # nothing was changed
        assert db.session.scalar(select(User.id).where(User.username == "newbie")) is None
        assert len(list(db.session.scalars(select(JudgementRound)))) == 1
        assert db.session.get(Dataset, dataset).design == "all"  # type: ignore[union-attr]


def test_a_round_without_a_sample_size_is_a_400_saying_so(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    form = {"action": "posthoc", "name": "r2", "dataset": str(dataset), "sample": " "}
    response = boss.post("/organiser/rounds", data=form)
    assert response.status_code == 400
    message = "sample size '' is not a whole number from 1 to 100000"
    assert str(escape(message)) in response.get_data(as_text=True)
