"""Races between phones, tried for real: a waitress server, clients released together.

Each case is tried many times on SQLite and on PostgreSQL. After every trial the game
still loads, its hands run 1..n, chips are conserved, and a refused write said why.
"""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from datetime import date

from sqlalchemy import func, select

from scorekeeper import rules
from scorekeeper.db import read_game, results
from scorekeeper.db.models import Event, Game, Player, Round, Season
from scorekeeper.extensions import db
from scorekeeper.reports import figures as roster
from scorekeeper.reports import ratings
from tests.helpers import alerts, hand_data, start_game

P = ["Ann", "Ben", "Cy"]
TRIALS = 20


def send(port: int, path: str, data: dict | None = None, cookie: str = ""):
    """Send one request on a connection of its own; return (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Cookie": cookie} if cookie else {}
    if data is None:
        connection.request("GET", path, headers=headers)
    else:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request("POST", path, urllib.parse.urlencode(data), headers)
    response = connection.getresponse()
    body = response.read().decode("utf-8")
    connection.close()
    return response.status, dict(response.getheaders()), body


def together(port: int, *requests: tuple[str, dict]) -> list[tuple[int, str]]:
    """Send the requests from threads released at once; return each (status, what it said).

    A redirect's flashed message is read from the page it leads to, with its cookie.
    """
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def phone(index: int, path: str, data: dict) -> None:
        barrier.wait()
        status, headers, body = send(port, path, data)
        said = " ".join(alerts(body))
        if status == 302:
            cookie = headers.get("Set-Cookie", "").split(";")[0]
            _, _, page = send(port, urllib.parse.urlparse(headers["Location"]).path,
                              cookie=cookie)
            said = " ".join(re.findall(r'class="flash" role="status">([^<]+)<', page))
        answers[index] = (status, said)

    threads = [threading.Thread(target=phone, args=(i, path, data))
               for i, (path, data) in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def check_sound(app, game_id: int) -> rules.GameResult:
    """Assert the game loads, its hands run 1..n and no tap sits past the hand in progress."""
    with app.app_context():
        game = read_game(game_id)
        result = game.result  # raises if the stored game fails the rules
        numbers = list(db.session.scalars(select(Round.number)
                                          .where(Round.game_id == game_id)
                                          .order_by(Round.number)))
        assert numbers == list(range(1, len(numbers) + 1))
        hands = set(db.session.scalars(select(Event.hand_number)
                                       .where(Event.game_id == game_id)))
        assert all(1 <= n <= len(numbers) + 1 for n in hands)
        db.session.remove()
        return result


def one_saved_one_refused(answers, refused_words: str) -> None:
    """Assert exactly one write went through and the other was refused with a reason."""
    statuses = sorted(status for status, _ in answers)
    assert statuses == [302, 422], answers
    said = next(text for status, text in answers if status == 422)
    assert re.search(refused_words, said), said


def setup_client(app):
    """Return a test client of the same app, to set a game up before the race."""
    return app.test_client()


def game_with_hands(client, count: int, went_out: str, hands: dict) -> int:
    """Start a penalty game and record `count` alike hands in it; return its id."""
    game_id = start_game(client, P)
    for number in range(1, count + 1):
        client.post(f"/games/{game_id}/hands/new", data=hand_data(P, went_out, hands, number))
    return game_id


def test_a_correction_that_ends_the_game_against_the_next_hand(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = game_with_hands(client, 2, "Ann", {"Ben": 3, "Cy": 2})
        ending = hand_data(P, "Ann", {"Ben": (20, 1), "Cy": 2}, 2)
        answers = together(port, (f"/games/{game_id}/hands/2/edit", ending),
                           (f"/games/{game_id}/hands/new",
                            hand_data(P, "Ann", {"Ben": 1, "Cy": 1}, 3)))
        one_saved_one_refused(answers, r"already over after round 2")
        result = check_sound(app, game_id)
        assert len(result.rounds) in (2, 3) and result.over == (len(result.rounds) == 2)


def test_recording_while_another_phone_deletes_the_last_hand(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = game_with_hands(client, 2, "Cy", {"Ann": 1, "Ben": 1})
        answers = together(port, (f"/games/{game_id}/hands/new",
                                  hand_data(P, "Ann", {"Ben": 1, "Cy": 1}, 3)),
                           (f"/games/{game_id}/hands/last/delete",
                            {"number": "2", "confirmed": "1"}))
        statuses = sorted(status for status, _ in answers)
        result = check_sound(app, game_id)
        if len(result.rounds) == 1:  # the delete went first: hand 3 was refused
            assert statuses == [302, 422]
            assert "Hand 2 was deleted on another phone" in answers[0][1]
        else:  # the hand went first: the delete was refused
            assert len(result.rounds) == 3 and statuses == [302, 302]
            assert "Hand 2 is no longer the last" in answers[1][1]


def test_two_corrections_of_one_hand_opened_together(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = game_with_hands(client, 1, "Ann", {"Ben": 3, "Cy": 2})
        html = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
        was = re.search(r'name="was" type="hidden" value="([^"]+)"', html).group(1)
        answers = together(
            port, (f"/games/{game_id}/hands/1/edit",
                   {**hand_data(P, "Ann", {"Ben": 4, "Cy": 2}), "was": was}),
            (f"/games/{game_id}/hands/1/edit",
             {**hand_data(P, "Ann", {"Ben": 7, "Cy": 2}), "was": was}))
        one_saved_one_refused(answers, r"Hand 1 was changed on another phone")
        result = check_sound(app, game_id)
        kept = 4 if answers[0][0] == 302 else 7
        assert result.totals["Ben"] == kept


def test_two_phones_recording_the_same_hand(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = start_game(client, P)
        answers = together(port, (f"/games/{game_id}/hands/new",
                                  hand_data(P, "Ann", {"Ben": 3, "Cy": 2}, 1)),
                           (f"/games/{game_id}/hands/new",
                            hand_data(P, "Ben", {"Ann": 3, "Cy": 2}, 1)))
        one_saved_one_refused(answers, r"Hand 1 was recorded on another phone")
        assert len(check_sound(app, game_id).rounds) == 1


def test_a_chips_tap_while_another_phone_deletes_the_last_hand(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = start_game(client, P, variant="chips")
        client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}))
        answers = together(port, (f"/games/{game_id}/chips/events",
                                  {"number": "2", "player": "1", "kind": "pass"}),
                           (f"/games/{game_id}/hands/last/delete",
                            {"number": "1", "confirmed": "1"}))
        result = check_sound(app, game_id)
        with app.app_context():
            game = read_game(game_id)
            now = rules.get_variant("chips").live(game.core, game.waiting_events(), game.result)
            in_play = game.result.extra["chips_in_play"]
            db.session.remove()
        assert sum(now["stacks"].values()) + now["pot"] == in_play  # chips are conserved
        # The delete always goes through (hand 1 is the last either way), and the tap never
        # lands in a hand nobody played: refused if it came second, deleted with hand 1's
        # next hand if it came first.
        assert result.rounds == () and answers[1][0] == 302 and now["pot"] == 3
        assert answers[0][0] == 302 or "Hand 2 is not being played now" in answers[0][1]


def test_games_started_while_another_phone_taps_are_all_saved(server):
    """A write that takes no game's lock (a new game) never fails because another wrote."""
    app, port = server
    client = setup_client(app)
    chips = start_game(client, P, variant="chips")
    for trial in range(TRIALS):
        new = {"variant": "penalty", "dealer": "0", "seat-0": f"Dee{trial}", "seat-1": "Eve"}
        tap = {"number": "1", "player": str(trial % 3), "kind": "pass"}
        answers = together(port, ("/games/new", new), (f"/games/{chips}/chips/events", tap),
                           (f"/games/{chips}/chips/events", tap))
        assert all(status in (302, 422) for status, _ in answers), answers
        assert answers[0][0] == 302
    with app.app_context():
        assert len(check_sound(app, chips).rounds) == 0


def ended_together(client, port: int, one: list[str], other: list[str]) -> tuple[int, int]:
    """Start two games to 10 and end both at the same moment from two phones: the first won
    by its first player, the second by its second (each other player holding 12 points);
    return their ids."""
    first = start_game(client, one, target=10)
    second = start_game(client, other, target=10)
    answers = together(
        port, (f"/games/{first}/hands/new", hand_data(one, one[0], {one[1]: 12})),
        (f"/games/{second}/hands/new", hand_data(other, other[1], {other[0]: 12})))
    assert [status for status, _ in answers] == [302, 302], answers
    return first, second


def test_two_games_ending_at_once_both_count_in_a_shared_player_s_figures(server):
    """Neither game's ending, on another phone at the same moment, loses the other's."""
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS):
        ended_together(client, port, ["Ann", "Ben"], ["Ann", "Cy"])
        with app.app_context():
            assert results.check() == []
            ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
            record = roster.summary(ann)
            assert (record.overall.played, record.overall.wins) == (2 * (trial + 1), trial + 1)
            db.session.remove()


def test_two_games_of_a_variant_ending_at_once_are_both_rated(server):
    """Each ending rates the variant again from its game on: on PostgreSQL, where the two
    games' locks are separate rows, the second waits for the first's ratings and reads them,
    so the stored ratings are always what a rebuild from scratch gives."""
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS):
        _, second = ended_together(client, port, ["Ann", "Ben"], ["Ben", "Cy"])
        with app.app_context():
            assert ratings.check() == [], trial
            assert {c.name for c in ratings.game_changes(second)} == {"Ben", "Cy"}
            db.session.remove()


def test_pages_opened_while_hands_are_saved_never_stay_behind(server):
    """Phones open history, the roster, a player's and a game's page while a hand is saved:
    each answers, and once the save is in, the next phone to open them sees the hand."""
    app, port = server
    client = setup_client(app)
    game_id = start_game(client, P, target=100)
    paths = ["/", "/history/", "/history/nights/1", f"/history/games/{game_id}", "/players",
             "/players/2", "/players/2/more"]
    token = re.compile(r'name="(csrf_token|token)" type="hidden" value="[^"]*"')

    def page(path: str) -> str:
        status, _, body = send(port, path)
        assert status == 200, path
        return token.sub("", body)

    for number in range(1, TRIALS + 1):
        hand = hand_data(P, "Ann", {"Ben": 1 + number % 2, "Cy": 1}, number)
        answers = together(port, (f"/games/{game_id}/hands/new", hand),
                           *((path, None) for path in paths * 2))
        assert answers[0][0] == 302, answers[0]
        assert all(status == 200 for status, _ in answers[1:]), answers
        shown = {path: page(path) for path in paths}
        assert f"{number} hand" in shown["/history/nights/1"]
        assert f"/games/{game_id}/hands/{number}/edit" in shown[f"/history/games/{game_id}"]


def test_an_undo_against_the_next_hand_from_another_phone(server):
    """Undo takes back a hand only while it is the last: one of the two goes through."""
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS):
        game_id = game_with_hands(client, 1, "Ann", {"Ben": 1, "Cy": 1})
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(P, "Cy", {"Ann": 1, "Ben": 1}, 2, token=f"mine-{trial}"))
        answers = together(port, (f"/games/{game_id}/hands/2/undo",
                                  {"token": f"mine-{trial}", "confirmed": "1"}),
                           (f"/games/{game_id}/hands/new",
                            hand_data(P, "Ann", {"Ben": 1, "Cy": 1}, 3)))
        result = check_sound(app, game_id)
        assert answers[0][0] == 302
        if len(result.rounds) == 1:  # the undo went first: hand 3 was refused
            assert answers[0][1] == "Hand 2 undone: record it again when you are ready."
            assert answers[1][0] == 422 and "Hand 2 was deleted on another phone" in answers[1][1]
        else:  # hand 3 went first: the undo was refused and changed nothing
            assert len(result.rounds) == 3 and answers[1][0] == 302
            assert answers[0][1].startswith("Hand 2 is no longer the last: hand 3 was recorded")


def test_a_double_tapped_undo_deletes_one_hand(server):
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS):
        game_id = game_with_hands(client, 1, "Ann", {"Ben": 1, "Cy": 1})
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(P, "Cy", {"Ann": 1, "Ben": 1}, 2, token=f"tap-{trial}"))
        undo = (f"/games/{game_id}/hands/2/undo", {"token": f"tap-{trial}", "confirmed": "1"})
        answers = together(port, undo, undo)
        assert len(check_sound(app, game_id).rounds) == 1
        said = sorted(text for _, text in answers)
        assert said[0].startswith("Hand 2 undone") and said[1].startswith(
            "Hand 2 was undone already"), answers


def test_a_player_s_games_of_two_variants_ending_at_once_are_numbered_in_order(server):
    """Ben's penalty game and his chips game end at the same moment from two phones: each
    ending rates its own variant, and the numbers and runs of Ben's steps (every variant's,
    in the order played) are those a rebuild from scratch gives: none counted twice or
    skipped."""
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS):
        penalty = start_game(client, ["Ann", "Ben"], target=10)
        chips = start_game(client, ["Ben", "Cy"], variant="chips")
        answers = together(
            port, (f"/games/{penalty}/hands/new", hand_data(["Ann", "Ben"], "Ben", {"Ann": 12})),
            (f"/games/{chips}/end", {}))
        assert [status for status, _ in answers] == [302, 302], answers
        with app.app_context():
            assert ratings.check() == [], trial
            ben = db.session.scalar(select(Player.id).where(Player.name == "Ben"))
            assert list(ratings.played(ben).numbers) == list(range(1, 2 * trial + 3)), trial
            db.session.remove()


def test_two_phones_tapping_rematch_together_start_one_game(server):
    app, port = server
    client = setup_client(app)
    for _ in range(TRIALS):
        game_id = start_game(client, ["Ann", "Ben"], target=5)
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(["Ann", "Ben"], "Ann", {"Ben": 6}))
        with app.app_context():
            before = db.session.query(Game).count()
            db.session.remove()
        answers = together(port, (f"/games/{game_id}/rematch", {}),
                           (f"/games/{game_id}/rematch", {}))
        said = sorted(text for _, text in answers)
        assert [status for status, _ in answers] == [302, 302], answers
        assert said[0].startswith("Rematch! Ben deals first.")
        assert said[1].startswith("The rematch had started already")
        with app.app_context():
            assert db.session.query(Game).count() == before + 1
            db.session.remove()


def test_a_season_named_while_a_game_ends_leaves_every_rating_as_a_rebuild_gives(server):
    """Naming a season rates every game again; a game ending on another phone at that moment
    is rated once, and the same name sent from two phones at once is taken once."""
    app, port = server
    client = setup_client(app)
    for trial in range(TRIALS // 2):
        game_id = start_game(client, ["Ann", "Ben"], target=10)
        day = date.today()
        season = {"name": f"Cup {trial}", "first_day": day.isoformat(),
                  "last_day": day.isoformat()}
        answers = together(
            port, (f"/games/{game_id}/hands/new", hand_data(["Ann", "Ben"], "Ann", {"Ben": 12})),
            ("/seasons/", season), ("/seasons/", season))
        assert answers[0][0] == 302, answers
        assert sorted(status for status, _ in answers[1:]) == [302, 422], answers
        assert "already a season" in answers[1][1] + answers[2][1]
        with app.app_context():
            assert ratings.check() == [], trial
            assert db.session.scalar(select(func.count()).select_from(Season)) == trial + 1
            db.session.remove()
