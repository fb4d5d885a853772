from flask import Flask
from flask.testing import FlaskClient


def test_home_page_names_the_tool(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"<h1>lexsub</h1>" in response.data
    assert b"lexsub score" in response.data


def test_wsgi_module_exposes_an_app() -> None:
    import wsgi

    assert wsgi.app.name == "annotate"


def test_a_lost_database_connection_is_a_503_page_that_needs_no_database(
    app: Flask, client: FlaskClient
) -> None:
    from sqlalchemy.exc import OperationalError

    def broken() -> str:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    app.add_url_rule("/broken-for-test", view_func=broken)
    response = client.get("/broken-for-test")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    assert b"press Save again" in response.data
