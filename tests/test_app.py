from flask.testing import FlaskClient


def test_home_page_names_the_tool(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"<h1>lexsub</h1>" in response.data
    assert b"python -m scoring.score" in response.data


def test_wsgi_module_exposes_an_app() -> None:
    import wsgi

    assert wsgi.app.name == "annotate"
