"""The table passcode: off until set; then a phone without it reads everything and changes
nothing, a phone that gives it once is remembered, and guessing is stopped."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import threading
import urllib.parse
from datetime import timedelta

import pytest
from sqlalchemy import delete, select

from scorekeeper.db.models import Game, Guess, Night, Player, Round, Setting, UnlockedPhone
from scorekeeper.extensions import db
from tests.helpers import alerts, hand_data, make_app, serve, start_game, stop_serving

PASSCODE = "four 4 Zoë"
P = ["Ann", "Ben", "Cy"]


def snapshot(app) -> dict:
    """Return every row of every table: what a refused request must leave as it was."""
    with app.app_context():
        return {table.name: sorted(map(repr, db.session.execute(select(table)).all()))
                for table in db.metadata.sorted_tables}


def token_of(html: str) -> str:
    """Return the CSRF token a page's form carries (rendered by hand or by WTForms)."""
    return re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', html).group(1)


def set_by_cli(app, text: str = PASSCODE):
    return app.test_cli_runner().invoke(args=["passcode", "set"], input=f"{text}\nignored\n")


@pytest.fixture
def table(tmp_path):
    """An app with CSRF on, a night of games (a chips game with a tap, a penalty game with a
    hand), two players to merge, and the passcode set from the command line."""
    app = make_app(tmp_path / "passcode.sqlite", csrf=True)
    app.config["WTF_CSRF_ENABLED"] = False  # the table is laid out before the passcode
    host = app.test_client()
    chips = start_game(host, P, variant="chips", preset="house")
    host.post(f"/games/{chips}/chips/events", data={"number": "1", "player": "0", "kind": "pass"})
    penalty = start_game(host, P)
    host.post(f"/games/{penalty}/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}))
    start_game(host, ["Ann", "annie b"])
    host.post("/seasons/", data={"name": "Winter", "first_day": "2026-11-01",
                                 "last_day": "2027-02-28"})
    app.config["WTF_CSRF_ENABLED"] = True
    result = set_by_cli(app)
    assert result.exit_code == 0, result.output
    with app.app_context():
        ids = {"chips": chips, "penalty": penalty,
               "night": db.session.scalar(select(Night.id)),
               "ann": db.session.scalar(select(Player.id).where(Player.name == "Ann")),
               "dup": db.session.scalar(select(Player.id).where(Player.name == "annie b"))}
    yield app, ids
    with app.app_context():
        db.engine.dispose()


def phone(app, address: str = "192.168.1.20"):
    """Return a new phone at the table (a test client from its own address) and a CSRF
    token it got from a page any phone may open (a scoreboard)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client, token_of(client.get("/games/1").get_data(as_text=True))


def every_change(ids: dict) -> dict[str, tuple[str, dict, dict]]:
    """Return, for every endpoint that changes something, a request that would change it:
    (url, form, headers). The test checks this covers every POST the app has."""
    chips, penalty, night, ann, dup = (ids[k] for k in ("chips", "penalty", "night", "ann", "dup"))
    log = {"format": "kings-corners-gamelog", "version": 1, "variant": "penalty",
           "played_on": "2026-11-01", "players": P, "first_dealer": "Ann",
           "settings": {}, "rounds": []}
    return {
        "games.new": ("/games/new", {"variant": "penalty", "dealer": "0", "seat-0": "Dee",
                                     "seat-1": "Eve"}, {}),
        "games.end": (f"/games/{penalty}/end", {}, {}),
        "games.reopen": (f"/games/{penalty}/reopen", {}, {}),
        "games.delete": (f"/games/{penalty}/delete", {}, {}),
        "hands.record": (f"/games/{penalty}/hands/new",
                         hand_data(P, "Cy", {"Ann": 1, "Ben": 2}, number=2), {}),
        "hands.edit": (f"/games/{penalty}/hands/1/edit",
                       hand_data(P, "Ann", {"Ben": 7, "Cy": 7}, number=1), {}),
        "hands.delete_last": (f"/games/{penalty}/hands/last/delete",
                              {"number": "1", "confirmed": "1"}, {}),
        "hands.undo": (f"/games/{penalty}/hands/1/undo", {"token": "t-1", "confirmed": "1"}, {}),
        "games.rematch": (f"/games/{penalty}/rematch", {}, {}),
        "hands.preview": (f"/games/{penalty}/hands/2/preview",
                          hand_data(P, "Cy", {"Ann": 1, "Ben": 2}, number=2), {}),
        "chips.tap": (f"/games/{chips}/chips/events",
                      {"number": "1", "player": "1", "kind": "pass", "token": "tap-1"}, {}),
        "chips.undo": (f"/games/{chips}/chips/undo", {"number": "1", "event": ""}, {}),
        # A phone without a seat taken by the table's QR code: no seat, no part.
        "seats.choose": (f"/games/{penalty}/seat", {"seat": "0"}, {}),
        "seats.leave": (f"/games/{penalty}/seat/leave", {}, {}),
        "seats.new_code": (f"/games/{penalty}/join-code", {}, {}),
        "seats.part": (f"/games/{penalty}/hands/2/part", {"seat": "0", "went_out": "1"}, {}),
        "history.night": (f"/history/nights/{night}", {"name": "Finals", "notes": "n"}, {}),
        "history.move": (f"/history/games/{penalty}/move", {"night": "new"}, {}),
        "logs.import_game": ("/import", {"text": json.dumps(log)}, {}),
        "players.rename": (f"/players/{ann}/rename", {"name": "Annie"}, {}),
        "players.merge": (f"/players/{ann}/merge", {"other": str(dup), "confirmed": "1"}, {}),
        "backup.restore": ("/backup/restore", {}, {}),
        "settings.set_passcode": ("/settings/passcode", {"passcode": "mine now"}, {}),
        "settings.remove_passcode": ("/settings/passcode/remove", {}, {}),
        "settings.forget_phone": ("/settings/phones/1/forget", {}, {}),
        "seasons.add": ("/seasons/", {"name": "Summer", "first_day": "2026-06-01",
                                      "last_day": "2026-08-31"}, {}),
        "seasons.forget": ("/seasons/1/forget", {"confirmed": "1"}, {}),
        "crowds.new": ("/crowds/new", {"new_names": "Ann\nBen\nCy\nDee\nEve",
                                       "variant": "penalty", "table_size": "3"}, {}),
        "crowds.next_round": ("/crowds/1/next", {"after": "1"}, {}),
        "crowds.rounds": ("/crowds/1/rounds", {"rounds": "2"}, {}),
        # A phone that did not come by the night's QR code: it is nobody at the night.
        "crowds.who": ("/crowds/1/who", {"player": "1"}, {}),
    }


def posted(client, url: str, form: dict, csrf: str, **headers):
    return client.post(url, data=form | {"csrf_token": csrf}, headers=headers)


def test_a_new_install_has_no_passcode_and_any_phone_changes_things(app, client):
    game_id = start_game(client)
    assert client.post(f"/games/{game_id}/end").status_code == 302
    page = client.get("/settings").get_data(as_text=True)
    assert "Table passcode" in page and "Set passcode" in page
    with app.app_context():
        assert db.session.get(Setting, "passcode") is None


def test_without_the_passcode_a_phone_reads_every_page(table):
    app, ids = table
    stranger, _ = phone(app)
    chips, penalty = ids["chips"], ids["penalty"]
    for url in ["/", f"/games/{chips}", f"/games/{penalty}", f"/games/{chips}/chips/live",
                "/history/", f"/history/games/{penalty}", f"/history/nights/{ids['night']}",
                "/players", f"/players/{ids['ann']}", f"/players/{ids['ann']}/more", "/join",
                "/join.svg",
                f"/games/{penalty}/export.json", f"/history/games/{penalty}/export.csv",
                f"/games/{penalty}/version?since=0", "/watch", "/seasons/", "/seasons/Winter",
                "/history/?season=all", f"/players/{ids['ann']}?season=Winter"]:
        response = stranger.get(url)
        assert response.status_code in (200, 302), url
        if response.status_code == 302:
            assert "/unlock" not in response.headers["Location"], url
    board = stranger.get(f"/games/{penalty}").get_data(as_text=True)
    assert "Read-only" in board and "/unlock?next=/games/" in board


def test_without_the_passcode_every_change_is_refused_and_nothing_is_written(table):
    app, ids = table
    changes = every_change(ids)
    posts = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    open_to_all = {e for e in posts if getattr(app.view_functions[e], "open_to_all", False)}
    # The language switch is per phone, like the unlock form: it changes nothing at the table.
    assert open_to_all == {"settings.unlock", "settings.forget", "language.choose"}
    assert set(changes) == posts - open_to_all  # a new way to change things is tried here
    stranger, csrf = phone(app)
    before = snapshot(app)
    for endpoint, (url, form, headers) in changes.items():
        response = posted(stranger, url, form, csrf, **headers)
        assert response.status_code == 403, endpoint
        assert "Unlock this phone" in response.get_data(as_text=True), endpoint
        live = posted(stranger, url, form, csrf, **{"X-Live-Panel": "1"})
        assert live.status_code == 403 and live.headers["X-Unlock"].startswith("/unlock"), endpoint
    assert snapshot(app) == before
    # The same requests from a phone that gave the passcode go through: the refusals were
    # the passcode's, not the requests' own.
    host, csrf = phone(app, "192.168.1.21")
    unlocked = host.post("/unlock", data={"unlock_passcode": PASSCODE, "unlock_next": "/",
                                          "csrf_token": csrf})
    assert unlocked.status_code == 303
    for endpoint in ("players.rename", "history.night", "chips.tap", "hands.record"):
        url, form, headers = changes[endpoint]
        assert posted(host, url, form, csrf, **headers).status_code in (200, 302), endpoint
    assert snapshot(app) != before


def test_a_page_that_only_leads_to_a_change_asks_first_then_carries_on(table):
    app, ids = table
    stranger, csrf = phone(app)
    penalty = ids["penalty"]
    asking = [e for e, view in app.view_functions.items() if getattr(view, "asks_passcode", 0)]
    # new game, record, edit, delete, import, merge, backup x2, settings, a night for a crowd
    assert len(asking) == 10
    for url in ["/games/new", f"/games/{penalty}/hands/new?hand=2", f"/games/{penalty}/delete",
                f"/games/{penalty}/hands/1/edit", "/import", f"/players/{ids['ann']}/merge",
                "/backup", "/backup/download", "/settings", "/crowds/new"]:
        response = stranger.get(url)
        assert response.status_code == 302, url
        assert response.headers["Location"].startswith("/unlock?next="), url
    asked = stranger.get(f"/games/{penalty}/hands/new?hand=2", follow_redirects=True)
    assert "Table passcode" in asked.get_data(as_text=True)
    answer = stranger.post("/unlock", data={
        "unlock_passcode": f"  {PASSCODE} ", "csrf_token": csrf,
        "unlock_next": f"/games/{penalty}/hands/new?hand=2"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/games/{penalty}/hands/new?hand=2"
    assert stranger.get(answer.headers["Location"]).status_code == 200


def test_a_form_refused_for_the_passcode_is_sent_again_once_it_is_given(table):
    app, ids = table
    stranger, csrf = phone(app)
    penalty = ids["penalty"]
    form = hand_data(P, "Cy", {"Ann": 1, "Ben": 2}, number=2) | {"csrf_token": csrf}
    refused = stranger.post(f"/games/{penalty}/hands/new", data=form)
    assert refused.status_code == 403
    page = refused.get_data(as_text=True)
    carried = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
    assert carried["went_out"] == "2" and carried["unlock_again"] == "1"
    assert carried["unlock_next"] == f"/games/{penalty}/hands/new"
    answer = stranger.post("/unlock", data=carried | {"unlock_passcode": PASSCODE})
    assert answer.status_code == 307  # the browser posts the same form again
    again = stranger.post(answer.headers["Location"], data=carried | {
        "unlock_passcode": PASSCODE}, follow_redirects=True)
    assert again.status_code == 200
    with app.app_context():
        assert db.session.get(Game, penalty).rounds[-1].number == 2


def test_a_phone_gives_the_passcode_once_and_is_remembered_until_it_changes(table):
    app, ids = table
    host, csrf = phone(app, "192.168.1.30")
    wrong = host.post("/unlock", data={"unlock_passcode": "four 4 zoe", "unlock_next": "/",
                                       "csrf_token": csrf})
    assert wrong.status_code == 401
    assert alerts(wrong.get_data(as_text=True)) == ["That is not the table&#39;s passcode."]
    assert "kc_phone" not in wrong.headers.get("Set-Cookie", "")
    # The same passcode typed in the other Unicode spelling of ë is the same passcode.
    right = host.post("/unlock", data={"unlock_passcode": "four 4 Zoe\u0308",
                                       "unlock_next": "/", "csrf_token": csrf})
    assert right.status_code == 303
    cookie = right.headers["Set-Cookie"]
    assert "kc_phone=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) == 180 * 24 * 3600
    key = re.search(r"kc_phone=([^;]+)", cookie).group(1)
    with app.app_context():  # the server keeps the key's digest and its end, not the key
        kept = db.session.scalars(select(UnlockedPhone)).all()
    assert [k.digest for k in kept] == [hashlib.sha256(key.encode()).hexdigest()]
    assert timedelta(days=179) < kept[0].expires_at - kept[0].created_at <= timedelta(days=180)
    for n in range(3):  # hand after hand, never asked again
        assert host.post(f"/players/{ids['ann']}/rename",
                         data={"name": f"Ann {n}", "csrf_token": csrf}).status_code == 302
    other, csrf2 = phone(app, "192.168.1.31")  # another phone is not let in by this one
    assert other.post(f"/players/{ids['ann']}/rename",
                      data={"name": "Ann", "csrf_token": csrf2}).status_code == 403
    # A new passcode, set from this phone, forgets every other phone that knew the old one.
    second, csrf3 = phone(app, "192.168.1.32")
    second.post("/unlock", data={"unlock_passcode": PASSCODE, "unlock_next": "/",
                                 "csrf_token": csrf3})
    changed = host.post("/settings/passcode", data={"passcode": "new one", "csrf_token": csrf})
    assert changed.status_code == 302
    assert host.post(f"/players/{ids['ann']}/rename",
                     data={"name": "Ann", "csrf_token": csrf}).status_code == 302
    assert second.post(f"/players/{ids['ann']}/rename",
                       data={"name": "Ann 9", "csrf_token": csrf3}).status_code == 403


def test_wrong_guesses_are_stopped_with_the_wait_and_right_answers_never_count(table):
    app, _ = table
    guesser, csrf = phone(app, "192.168.1.40")
    for n in range(5):
        response = guesser.post("/unlock", data={"unlock_passcode": f"guess {n}",
                                                 "unlock_next": "/", "csrf_token": csrf})
        assert response.status_code == 401
    before = snapshot(app)
    stopped = guesser.post("/unlock", data={"unlock_passcode": PASSCODE, "unlock_next": "/",
                                            "csrf_token": csrf})
    assert stopped.status_code == 429  # even the right one, until the wait is over
    wait = int(stopped.headers["Retry-After"])
    assert 1 <= wait <= 60
    said = alerts(stopped.get_data(as_text=True))
    assert said == [f"Too many wrong passcodes from this phone. Try again in {wait} s."]
    assert "kc_phone" not in stopped.headers.get("Set-Cookie", "")
    assert snapshot(app) == before
    # Another phone at the table is not held up by the guesser.
    host, csrf2 = phone(app, "192.168.1.41")
    for _ in range(8):  # and right answers, however many, are never counted as guesses
        assert host.post("/unlock", data={"unlock_passcode": PASSCODE, "unlock_next": "/",
                                          "csrf_token": csrf2}).status_code == 303


def test_the_passcode_is_stored_hashed_and_set_or_cleared_from_the_command_line(table):
    app, ids = table
    with app.app_context():
        stored = db.session.get(Setting, "passcode").value
    assert PASSCODE not in stored and stored.startswith(("scrypt:", "pbkdf2:"))
    short = set_by_cli(app, "abc")
    assert short.exit_code == 1
    assert "refused, nothing set: passcode: a passcode needs at least 4 characters" in short.output
    with app.app_context():
        assert db.session.get(Setting, "passcode").value == stored
    cleared = app.test_cli_runner().invoke(args=["passcode", "clear"])
    assert cleared.exit_code == 0 and "passcode cleared" in cleared.output
    stranger, csrf = phone(app)
    assert stranger.post(f"/players/{ids['ann']}/rename",
                         data={"name": "Annie", "csrf_token": csrf}).status_code == 302
    again = app.test_cli_runner().invoke(args=["passcode", "clear"])
    assert again.exit_code == 0 and "there was no passcode" in again.output


def test_the_settings_page_sets_changes_and_removes_the_passcode(guarded_app, guarded):
    page = guarded.get("/settings").get_data(as_text=True)
    csrf = token_of(page)
    short = guarded.post("/settings/passcode", data={"passcode": "12", "csrf_token": csrf})
    assert short.status_code == 422
    html = short.get_data(as_text=True)
    assert alerts(html) == ["A passcode needs at least 4 characters."]
    # A passcode is never written back, not even a refused one (the field names the fault).
    (box,) = re.findall(r'<input[^>]*name="passcode"[^>]*>', html)
    assert 'value=""' in box and 'value="12"' not in html
    done = guarded.post("/settings/passcode", data={"passcode": "1234", "csrf_token": csrf},
                        follow_redirects=True)
    assert "Passcode set." in done.get_data(as_text=True)
    assert "Remove passcode" in done.get_data(as_text=True)
    stranger = guarded_app.test_client()
    assert stranger.get("/settings").headers["Location"] == "/unlock?next=/settings"
    removed = guarded.post("/settings/passcode/remove",
                           data={"csrf_token": csrf, "confirmed": "1"},
                           follow_redirects=True)
    assert "Passcode removed." in removed.get_data(as_text=True)
    assert stranger.get("/settings").status_code == 200


def test_a_phone_can_make_itself_read_only_again(table):
    app, ids = table
    host, csrf = phone(app)
    host.post("/unlock", data={"unlock_passcode": PASSCODE, "unlock_next": "/",
                               "csrf_token": csrf})
    assert host.get("/settings").status_code == 200
    host.post("/settings/forget", data={"csrf_token": csrf})
    assert host.get("/settings").status_code == 302


def test_the_unlock_form_never_sends_a_phone_to_another_site(table):
    app, _ = table
    host, csrf = phone(app)
    for target in ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x"]:
        response = host.post("/unlock", data={"unlock_passcode": PASSCODE, "csrf_token": csrf,
                                              "unlock_next": target})
        assert response.headers["Location"] == "/", target


def test_a_live_tap_without_the_passcode_is_told_where_to_unlock(table):
    app, ids = table
    stranger, csrf = phone(app)
    board = f"/games/{ids['chips']}"
    before = snapshot(app)
    response = stranger.post(f"{board}/chips/events", data={
        "number": "1", "player": "1", "kind": "pass", "csrf_token": csrf},
        headers={"X-Live-Panel": "1", "Referer": f"http://localhost{board}"})
    assert response.status_code == 403
    assert response.headers["X-Unlock"] == f"/unlock?next={board}"
    assert snapshot(app) == before


def test_the_watch_link_follows_the_game_being_played_with_no_buttons(table):
    app, ids = table
    onlooker, _ = phone(app)
    response = onlooker.get("/watch")
    assert response.status_code == 302
    with app.app_context():
        newest = db.session.scalar(select(Game.id).order_by(Game.updated_at.desc()).limit(1))
    assert response.headers["Location"] == f"/games/{newest}?watch=1"
    board = onlooker.get(f"/games/{ids['chips']}?watch=1").get_data(as_text=True)
    assert "<form" not in board and "Record hand" not in board
    assert 'class="pot"' in board  # the pot is still shown
    # A TV page: no bar of links, nothing that says to tap, its own big layout.
    assert 'class="bar"' not in board and "<button" not in board and "✎" not in board
    assert '<body class="tv"' in board
    assert "/join?to=/watch" in board  # the QR code beside it is the watch link too
    settings = make_app(":memory:").test_client().get("/settings").get_data(as_text=True)
    assert "Watch-only link" in settings and "/join.svg?to=/watch" in settings


def test_with_no_game_yet_the_watch_page_waits_for_one(client):
    page = client.get("/watch").get_data(as_text=True)
    assert "No game yet" in page and 'http-equiv="refresh"' in page


def unlock(client, csrf: str, passcode: str = PASSCODE):
    return client.post("/unlock", data={"unlock_passcode": passcode, "unlock_next": "/",
                                        "csrf_token": csrf})


def test_each_phone_has_its_own_key_and_a_forgotten_phone_is_refused_even_with_its_cookie(
        table):
    app, ids = table
    ann_phone, csrf_a = phone(app, "192.168.1.50")
    ben_phone, csrf_b = phone(app, "192.168.1.51")
    keys = [re.search(r"kc_phone=([^;]+)", unlock(c, t).headers["Set-Cookie"]).group(1)
            for c, t in ((ann_phone, csrf_a), (ben_phone, csrf_b))]
    assert keys[0] != keys[1]  # no shared value to copy between phones
    rename = f"/players/{ids['ann']}/rename"
    assert ann_phone.post(rename, data={"name": "Ann 1", "csrf_token": csrf_a}).status_code == 302
    # Ann's phone lists both, marks itself, and forgets Ben's (lost, say).
    page = ann_phone.get("/settings").get_data(as_text=True)
    assert "Phones that can change things" in page and "this phone" in page
    with app.app_context():
        ben_id = db.session.scalar(select(UnlockedPhone.id).where(
            UnlockedPhone.digest == hashlib.sha256(keys[1].encode()).hexdigest()))
    assert page.count('/forget"') == 1 + 1  # Ben's Forget, and "Make this phone read-only"
    forgot = ann_phone.post(f"/settings/phones/{ben_id}/forget", data={"csrf_token": csrf_a})
    assert forgot.status_code == 302
    # Ben's phone, or anyone holding a copy of its cookie, is a reader now.
    copy = app.test_client()
    copy.set_cookie("kc_phone", keys[1])
    _, csrf_c = phone(app, "192.168.1.52")
    copy_csrf = token_of(copy.get("/games/1").get_data(as_text=True))
    for client, csrf in ((ben_phone, csrf_b), (copy, copy_csrf)):
        assert client.post(rename, data={"name": "Ben's", "csrf_token": csrf}).status_code == 403
    # Ann's phone is not touched by it.
    assert ann_phone.post(rename, data={"name": "Ann 2", "csrf_token": csrf_a}).status_code == 302


def test_a_phone_key_expires_on_the_server_whatever_its_cookie_says(table):
    app, ids = table
    host, csrf = phone(app)
    unlock(host, csrf)
    rename = f"/players/{ids['ann']}/rename"
    assert host.post(rename, data={"name": "Ann 1", "csrf_token": csrf}).status_code == 302
    with app.app_context():
        for row in db.session.scalars(select(UnlockedPhone)):
            row.expires_at = row.created_at - timedelta(seconds=1)
        db.session.commit()
    assert host.post(rename, data={"name": "Ann 2", "csrf_token": csrf}).status_code == 403
    assert "None yet." not in host.get("/unlock?next=/").get_data(as_text=True)


def test_the_passcode_is_never_written_into_a_page_after_the_form_is_sent_again(table):
    app, ids = table
    stranger, csrf = phone(app)
    penalty = ids["penalty"]
    # Deleting the last hand asks first without JavaScript; that page carries the form on.
    refused = stranger.post(f"/games/{penalty}/hands/last/delete",
                            data={"number": "1", "csrf_token": csrf})
    carried = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                              refused.get_data(as_text=True)))
    answer = stranger.post("/unlock", data=carried | {"unlock_passcode": PASSCODE})
    assert answer.status_code == 307
    asked = stranger.post(answer.headers["Location"],
                          data=carried | {"unlock_passcode": PASSCODE})
    page = asked.get_data(as_text=True)
    assert "Delete hand" in page or "delete" in page.lower()
    assert PASSCODE not in page and "four 4" not in page
    assert "unlock_passcode" not in page


def test_a_form_without_this_phones_token_is_never_carried_through_the_unlock_page(table):
    app, ids = table
    penalty = ids["penalty"]
    victim, csrf = phone(app)
    forged = hand_data(P, "Ann", {"Ben": 25, "Cy": 25}, number=1)
    for token in (None, "forged-token", csrf + "x"):  # another site's post, no good token
        data = forged | ({"csrf_token": token} if token else {})
        page = victim.post(f"/games/{penalty}/hands/1/edit", data=data)
        html = page.get_data(as_text=True)
        assert page.status_code == 403 and "Nothing was sent" in html
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))
        assert "went_out" not in fields and "unlock_again" not in fields
        # Giving the passcode then only unlocks the phone: nothing is sent on.
        answer = victim.post("/unlock", data=fields | {"unlock_passcode": PASSCODE})
        assert answer.status_code == 303
        victim.post("/settings/forget", data={"csrf_token": csrf})
    with app.app_context():
        first = db.session.scalar(select(Round).where(Round.game_id == penalty,
                                                      Round.number == 1))
        assert "25" not in repr(first.hands)


def guess_together(port: int, how_many: int, trial: int) -> list[int]:
    """Send `how_many` wrong guesses from threads released at once; return the statuses."""
    barrier = threading.Barrier(how_many)
    statuses: list[int] = []

    def guess(n: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        body = urllib.parse.urlencode({"unlock_passcode": f"wrong {trial} {n}",
                                       "unlock_next": "/"})
        barrier.wait()
        connection.request("POST", "/unlock", body,
                           {"Content-Type": "application/x-www-form-urlencoded"})
        statuses.append(connection.getresponse().status)
        connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(how_many)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    return statuses


def test_guesses_sent_together_are_counted_before_they_are_checked(tmp_path):
    """16 wrong guesses from one address released at once, against the real server: only
    5 are checked (401), the rest wait (429)."""
    app = make_app(tmp_path / "guess.sqlite", csrf=False)
    assert set_by_cli(app).exit_code == 0
    server, base = serve(app, threads=8)
    port = int(base.rsplit(":", 1)[1])
    try:
        for trial in range(3):
            with app.app_context():  # the last trial's guesses forgotten, as an hour does
                db.session.execute(delete(Guess))
                db.session.commit()
            assert sorted(guess_together(port, 16, trial)) == [401] * 5 + [429] * 11, trial
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()
