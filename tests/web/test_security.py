"""Only the hosts the app answers to, headers on every response, private files."""

from __future__ import annotations

import http.client
import os
import stat

import pytest

from scorekeeper import config
from scorekeeper.extensions import db
from scorekeeper.web import security
from tests.helpers import make_app, serve, start_game, stop_serving

PAGES = ["/", "/games/new", "/history/", "/players", "/backup", "/join", "/import",
         "/games/1", "/games/1/version?since=0", "/no/such/page", "/static/app.css",
         "/history/games/1/export.csv"]


def test_every_response_carries_the_headers(app, client):
    start_game(client)
    for path in PAGES:
        response = client.get(path)
        assert response.status_code < 500, path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert response.headers["Referrer-Policy"] == "same-origin", path
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0], path


def test_no_page_carries_a_script_of_its_own(app, client):
    """Every script is a file of the app's, which the policy allows; inline ones it forbids."""
    start_game(client)
    for path in ["/", "/games/1", "/games/1/hands/new", "/games/new", "/history/games/1"]:
        html = client.get(path).get_data(as_text=True)
        assert "<script>" not in html and " on" + "click=" not in html, path
        # theme.js runs before the first paint, so it alone is not deferred.
        assert html.count("<script") == html.count("<script defer src=\"/static/") + html.count(
            "<script src=\"/static/theme.js?"), path


def test_a_page_asked_for_under_another_name_is_refused(app, client):
    """A web page elsewhere that points a name of its own at this machine gets nothing."""
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "evil.example:8000"}).status_code == 400
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200


def test_the_real_server_refuses_a_stranger_s_host_and_answers_its_own():
    app = make_app(":memory:")
    server, base = serve(app)
    try:
        port = int(base.rsplit(":", 1)[1])
        for host, status in (("evil.example", 400), (f"127.0.0.1:{port}", 200)):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/healthz", headers={"Host": host})
            assert connection.getresponse().status == status, host
            connection.close()
    finally:
        stop_serving(server)


def test_the_hosts_come_from_the_machine_public_url_and_configuration(monkeypatch):
    monkeypatch.setattr(security, "lan_addresses", lambda: ("192.168.1.23",))
    monkeypatch.setattr(security.socket, "gethostname", lambda: "Den-Laptop")
    hosts = security.trusted_hosts("http://cards.home:8000/", "tv.lan, Kitchen.Lan ")
    assert hosts == ["localhost", "127.0.0.1", "::1", "192.168.1.23", "den-laptop",
                     "den-laptop.local", "cards.home", "tv.lan", "kitchen.lan"]


def test_the_session_cookie_stays_with_this_site(app, client):
    game_id = start_game(client)
    response = client.post(f"/games/{game_id}/end")  # says "Game ended." on the next page
    assert response.status_code == 302
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie


@pytest.fixture
def open_umask():
    """Let new files be world-readable unless the app says otherwise."""
    before = os.umask(0)
    yield
    os.umask(before)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_secret_key_and_database_are_private_from_the_moment_they_exist(tmp_path,
                                                                             open_umask):
    assert config.secret_key(tmp_path)
    assert mode(tmp_path / "secret_key") == 0o600
    app = make_app(tmp_path / "private.sqlite")
    with app.app_context():
        db.session.execute(db.text("SELECT 1"))  # opened, written to
        db.engine.dispose()
    assert mode(tmp_path / "private.sqlite") == 0o600


def test_an_instance_folder_from_an_earlier_version_is_made_private(tmp_path, open_umask):
    folder = tmp_path / "instance"
    folder.mkdir(mode=0o755)
    (folder / "secret_key").write_text("kept")
    os.chmod(folder / "secret_key", 0o644)
    config.private_folder(folder)
    assert mode(folder) == 0o700
    assert config.secret_key(folder) == "kept"
    assert mode(folder / "secret_key") == 0o600
