"""Hostile input never gets a 500 or a traceback, and nothing is written when it is refused.

Hypothesis throws at the app what a stranger's fuzzer would: ids past what a database holds,
numbers that pass `str.isdigit()` but not `int()`, thousands of digits, control characters,
JSON of every shape in place of any part of a game log or a backup.
"""

from __future__ import annotations

import copy
import io
import json
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.db.models import Event, Game, Night, Player, Round
from scorekeeper.extensions import db
from scorekeeper.reports import backup
from scorekeeper.web import passcode
from tests.helpers import emptied_app, fresh, hand_data, make_app, start_game, stop_serving

P = ["Ann", "Ben", "Cy"]
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

# What a field may be sent: text of any kind, and the numbers that fool a parser.
nasty = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["²", "٣", "1e3", "-1", " 7 ", "NaN", "0x10", "\x00", "9" * 5000, "9" * 400,
                     str(2**63), str(-2**63), "1" * 4400, "Zoe\u0308", "\u202eAnn", "a" * 300]),
)
# JSON of every shape, nested a little.
anything = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**80, max_value=2**80)
    | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def table(request, tmp_path_factory):
    """An app holding a penalty game with a hand, a chips game and a coronation match, on
    SQLite and on PostgreSQL (where a value too long for its column once gave a 500)."""
    if request.param == "postgres":
        app = emptied_app()
    else:
        app = make_app(tmp_path_factory.mktemp("hostile") / "hostile.sqlite")
    client = app.test_client()
    penalty = start_game(client, P)
    client.post(f"/games/{penalty}/hands/new", data=hand_data(P, "Ann", {"Ben": 2, "Cy": 3}))
    chips = start_game(client, P, variant="chips")
    crown = start_game(client, ["Ann", "Ben"], variant="coronation")
    app.testing = False  # an exception becomes the 500 a phone would get, not a test error
    yield app, {"penalty": penalty, "chips": chips, "crown": crown}
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def rows(app) -> tuple[int, ...]:
    """Return how many games, hands, taps, players and nights are stored."""
    with app.app_context():
        counts = tuple(db.session.scalar(select(func.count()).select_from(model))
                       for model in (Game, Round, Event, Player, Night))
        db.session.remove()
        return counts


@FUZZ
@given(number=st.integers(min_value=2**31 - 2, max_value=2**80) | st.integers(max_value=0))
def test_no_id_in_a_url_gives_a_500(table, number):
    app, _ = table
    client = app.test_client()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or not rule.arguments:
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<int:{name}>", str(number)).replace(f"<{name}>", "x")
        for method in sorted(rule.methods & {"GET", "POST"}):
            assert client.open(path, method=method).status_code < 500, (method, path)


def forms(games: dict[str, int]) -> list[tuple[str, dict[str, str]]]:
    """Return each form that writes, with what a phone would send in it."""
    penalty, chips, crown = games["penalty"], games["chips"], games["crown"]
    hand = {"number": "2", "token": "", "went_out": "0", "cards-1": "3", "cards-2": "2",
            "kings-1": "0", "kings-2": "1", "cards_more-1": ""}
    return [
        (f"/games/{penalty}/hands/new", hand),
        (f"/games/{penalty}/hands/1/edit", {**hand, "number": "1", "was": ""}),
        (f"/games/{penalty}/hands/2/preview", hand),
        (f"/games/{penalty}/hands/last/delete", {"number": "1", "confirmed": "1"}),
        (f"/games/{penalty}/hands/1/undo", {"token": "t-1", "confirmed": "1"}),
        (f"/games/{chips}/chips/events", {"number": "1", "player": "0", "kind": "pass"}),
        (f"/games/{chips}/chips/undo", {"number": "1", "event": "1"}),
        (f"/games/{crown}/hands/new", {"number": "1", "token": "", "corner-0": "0",
                                       "corner-1": "1", "corner-2": "none", "corner-3": "0",
                                       "dragon": "1"}),
        ("/games/new", {"variant": "penalty", "dealer": "0", "seat-0": "Dee", "seat-1": "Eve",
                        "rules-penalty-target-other": "30"}),
        ("/players/1/rename", {"name": "Ann"}),
        ("/players/1/merge", {"other": "2", "confirmed": "1"}),
        (f"/history/games/{penalty}/move", {"night": "new"}),
        ("/history/nights/1", {"name": "Friday", "notes": ""}),
        ("/import", {"text": "{}"}),
        ("/settings/passcode", {"passcode": "1234"}),
        ("/unlock", {"unlock_passcode": "1234", "unlock_next": "/", "unlock_again": ""}),
    ]


@FUZZ
@given(which=st.integers(min_value=0, max_value=15), field=st.integers(min_value=0),
       value=nasty)
def test_no_field_of_any_form_gives_a_500(table, which, field, value):
    app, games = table
    url, data = forms(games)[which]
    name = sorted(data)[field % len(data)]
    before = rows(app)
    answer = app.test_client().post(url, data={**data, name: value})
    assert answer.status_code < 500, (url, name, value[:20])
    if answer.status_code >= 400:
        assert rows(app) == before, (url, name, value[:20])  # refused: nothing written
    with app.app_context():  # a passcode set by one example would lock out the next ones
        passcode.clear()
        db.session.commit()


LOG = {"format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 50},
       "players": ["Ann", "Ben"], "first_dealer": "Ben", "played_on": "2026-11-20",
       "ended": False, "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 3, "kings": 1}}}]}


def paths(doc, prefix=()):
    """Yield the path to every value in a JSON document."""
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield from paths(value, (*prefix, index))


def replaced(doc, path, value):
    """Return a copy of `doc` with the value at `path` replaced."""
    if not path:
        return value
    doc = copy.deepcopy(doc)
    here = doc
    for step in path[:-1]:
        here = here[step]
    here[path[-1]] = value
    return doc


LOG_PATHS = list(paths(LOG))


@FUZZ
@given(where=st.sampled_from(LOG_PATHS), value=anything | nasty)
def test_no_game_log_gives_a_500_and_a_refused_one_writes_nothing(table, where, value):
    app, _ = table
    before = rows(app)
    text = json.dumps(replaced(LOG, where, value), ensure_ascii=False)
    answer = app.test_client().post("/import", data={"text": text})
    assert answer.status_code in (302, 422), (where, text[:80])
    if answer.status_code == 422:
        assert rows(app) == before


@pytest.mark.parametrize("text", [
    "[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000, "9" * 5000,
    '{"format": "kings-corners-game/1", "variant": "penalty", "played_on": "9999-12-31",'
    ' "players": ["Ann", "Ben"], "rounds": []}',
    '{"format": "kings-corners-game/1", "variant": "penalty", "players": ["Zoë", "Zoe\u0308"],'
    ' "rounds": []}',
])
def test_a_game_log_built_to_break_the_parser_is_refused_with_a_reason(table, text):
    app, _ = table
    before = rows(app)
    answer = app.test_client().post("/import", data={"text": text})
    assert answer.status_code == 422
    assert "Nothing was imported." in answer.get_data(as_text=True)
    assert rows(app) == before


@pytest.fixture(scope="module")
def a_backup(tmp_path_factory):
    """Return the backup document of a small database: a night, two games, a roster."""
    app = make_app(tmp_path_factory.mktemp("source") / "source.sqlite")
    client = app.test_client()
    game = start_game(client, P)
    client.post(f"/games/{game}/hands/new", data=hand_data(P, "Ann", {"Ben": 2, "Cy": 3}))
    start_game(client, ["Ann", "Ben"], variant="coronation")
    with app.app_context():
        doc = backup.document()
        db.engine.dispose()
    return doc


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_backup_gives_a_500_and_a_refused_one_leaves_the_database_empty(
        a_backup, kept_apps, data):
    where = data.draw(st.sampled_from(list(paths(a_backup))))
    value = data.draw(anything | nasty | st.sampled_from(
        ["2026-11-20T19:30:00+02:00", "9999-12-31T23:59:59", "0001-01-01T00:00:00"]))
    text = json.dumps(replaced(a_backup, where, value), ensure_ascii=False)
    app = fresh(kept_apps, csrf=False)
    app.testing = False
    answer = app.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(text.encode()), "b.json")},
        content_type="multipart/form-data")
    assert answer.status_code in (302, 422), (where, text[:80])
    if answer.status_code == 422:
        assert rows(app) == (0, 0, 0, 0, 0)
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("args, given", [
    (["games", "export", str(2**63)], None),
    (["games", "export", "-5"], None),
    (["games", "import", "-"], b"\xff\xfe not text"),
    (["games", "import", "-"], b"[" * 5000),
    (["games", "import", "-"], b'{"format": "kings-corners-game/1", "played_on": "9999-12-31"}'),
    (["restore", "-"], b"\xff\xfe not text"),
    (["passcode", "set"], b"\xff\xfe not text\n"),
    (["passcode", "set"], b"1\x002\x003\x004\n"),
    (["passcode", "set"], b""),
    (["passcode", "set"], b"x" * 100_000),
    (["restore", "-"], b'{"format": "kings-corners-backup/1", "roster": 5}'),
    (["restore", "-"], b'{"format": "kings-corners-backup/1", "roster": [{"name": "Ann", '
                       b'"created_at": "2026-11-20T19:30:00+02:00"}]}'),
])
def test_the_command_line_refuses_with_a_message_never_a_traceback(app, args, given):
    result = app.test_cli_runner().invoke(args=args, input=given)
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


@pytest.mark.parametrize("key, value, said", [
    ("name", "N" * 81, "nights[0].name: can be at most 80 characters"),
    ("name", "Friday\u202e", "nights[0].name: has a character that cannot be shown"),
    ("notes", "n" * 5001, "nights[0].notes: can be at most 5000 characters"),
    ("started_at", "2026-11-20T19:30:00+02:00", "nights[0].started_at: must be the table"),
    ("started_at", "9999-12-31T23:59:59", "nights[0].started_at: must be a time from 1900"),
])
def test_a_restore_checks_what_the_forms_check(a_backup, tmp_path, key, value, said):
    """What one database took another takes: a backup's nights meet the night form's rules."""
    doc = copy.deepcopy(a_backup)
    doc["nights"][0][key] = value
    app = make_app(tmp_path / "checked.sqlite")
    answer = app.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(json.dumps(doc).encode()), "b.json")},
        content_type="multipart/form-data")
    assert answer.status_code == 422
    assert said.lower() in " ".join(answer.get_data(as_text=True).split()).lower()
    assert rows(app) == (0, 0, 0, 0, 0)
    with app.app_context():
        db.engine.dispose()


def big_log(rounds: int, events_each: int = 0) -> dict:
    """Return a valid penalty game log of `rounds` hands (and chips-like events, if asked)."""
    hand = {"went_out": "Ann", "hands": {"Ben": {"cards": 1, "kings": 0}}}
    if events_each:
        hand["events"] = [{"player": "Ben", "kind": "pass"}] * events_each
    return {**LOG, "rules": {"target": 10000}, "rounds": [hand] * rounds}


@pytest.mark.parametrize("log, said", [
    (big_log(1001), "a game can have at most 1000 rounds, not 1001"),
    (big_log(101, 100), "a game can have at most 10000 chips events, not 10100"),
])
def test_a_game_too_long_for_any_table_is_refused(table, log, said):
    app, _ = table
    before = rows(app)
    answer = app.test_client().post("/import", data={"file": (
        io.BytesIO(json.dumps(log).encode()), "long.json")}, content_type="multipart/form-data")
    assert answer.status_code == 422
    assert said in answer.get_data(as_text=True)
    assert rows(app) == before


def test_a_19_mb_game_log_is_refused_at_once_while_another_phone_saves(tmp_path):
    """Refused before it is read: the phone saving a hand meanwhile never waits on it."""
    import http.client
    import threading
    import time
    import urllib.parse

    from tests.helpers import serve

    app = make_app(tmp_path / "busy.sqlite")
    game_id = start_game(app.test_client(), P)
    server, base = serve(app, threads=4)
    port = int(base.rsplit(":", 1)[1])
    body = json.dumps(big_log(1)).encode()[:-1] + b', "padding": "' + b"x" * (19 * 2**20) + b'"}'
    answers = {}
    barrier = threading.Barrier(2)

    def importing():
        barrier.wait()
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        boundary = "kc-boundary"
        payload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                   f"filename=\"big.json\"\r\nContent-Type: application/json\r\n\r\n"
                   ).encode() + body + f"\r\n--{boundary}--\r\n".encode()
        try:
            connection.request("POST", "/import", payload, {
                "Content-Type": f"multipart/form-data; boundary={boundary}"})
            response = connection.getresponse()
            answers["import"] = (response.status, response.read().decode(),
                                 time.perf_counter() - started)
        except (ConnectionError, OSError):  # the server may close before all 19 MB are sent
            answers["import"] = (413, "closed", time.perf_counter() - started)
        connection.close()

    def saving():
        barrier.wait()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", f"/games/{game_id}/hands/new", urllib.parse.urlencode(
            hand_data(P, "Ann", {"Ben": 2, "Cy": 3})),
            {"Content-Type": "application/x-www-form-urlencoded"})
        answers["save"] = connection.getresponse().status
        connection.close()

    threads = [threading.Thread(target=importing), threading.Thread(target=saving)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    stop_serving(server)
    status, page, took = answers["import"]
    assert status == 413 and took < 1.0, (status, took)
    assert page == "closed" or "A game log can be at most 2 MB" in page
    assert answers["save"] == 302
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1
        db.engine.dispose()


def test_the_command_line_refuses_a_game_log_bigger_than_any_game(app, tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**big_log(1), "padding": "x" * (3 * 2**20)}))
    result = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert result.exit_code == 1
    assert "a game log can be at most 2 MB" in result.output


BIG = "9" * 400  # passes int(), but past what a float holds: WTForms' range check raised


@pytest.mark.parametrize("where", ["record", "delete", "tap", "undo", "cards"])
def test_a_number_of_400_digits_is_refused_never_a_500(table, where):
    app, games = table
    penalty, chips = games["penalty"], games["chips"]
    url, data = {
        "record": (f"/games/{penalty}/hands/new", hand_data(P, "Ben", {"Ann": 1, "Cy": 2},
                                                              number=BIG)),
        "delete": (f"/games/{penalty}/hands/last/delete", {"number": BIG, "confirmed": "1"}),
        "tap": (f"/games/{chips}/chips/events", {"number": BIG, "player": "0", "kind": "pass"}),
        "undo": (f"/games/{chips}/chips/undo", {"number": BIG, "event": BIG}),
        "cards": (f"/games/{penalty}/hands/new",
                  hand_data(P, "Ben", {"Ann": 1, "Cy": 2}, number=2) | {"cards_more-2": BIG}),
    }[where]
    before = rows(app)
    answer = app.test_client().post(url, data=data)
    assert answer.status_code < 500
    assert rows(app) == before
    if where == "cards":  # a number a person typed: the message names whose it is
        assert answer.status_code == 422
        said = " ".join(re.findall(r'role="alert">([^<]+)<', answer.get_data(as_text=True)))
        assert "Cy" in said, said


def test_a_join_link_longer_than_any_page_is_cut_to_the_home_page_not_a_500(table):
    app, _ = table
    client = app.test_client()
    for path in ("/join", "/join.svg"):
        started = time.perf_counter()
        answer = client.get(f"{path}?to=/" + "a" * 2400)
        assert answer.status_code == 200
        assert time.perf_counter() - started < 0.5  # no QR code of 2,400 characters drawn
    page = client.get("/join?to=/" + "b" * 500).get_data(as_text=True)
    assert "b" * 101 not in page
    assert re.search(r"<title>QR code of http://[^/<]+/</title>", page)  # the home page's
    page = client.get("/join?to=/games/12/watch").get_data(as_text=True)
    assert re.search(r"<title>QR code of http://[^/<]+/games/12/watch</title>", page)
