"""A player's rivals and runs, as their page shows them."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.db.models import Player
from scorekeeper.extensions import db
from scorekeeper.reports import figures as roster
from scorekeeper.reports import ratings
from scorekeeper.reports.rivals import rivals
from tests.helpers import hand_data, start_game
from tests.reports import oracle

NAMES = ["Ann", "Ben", "Cy"]


def play(client, order: list[str]) -> None:
    """Play a penalty game to 25 that finishes in `order`: first out, then 10 and 31."""
    game_id = start_game(client, NAMES, target=25)
    held = {order[1]: 10, order[2]: (13, 2)}
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, order[0], held, number=1))


def of(app, name):
    """Return a player's rivals and runs as their page reads them."""
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.name == name))
        return rivals(roster.details(player).head_to_head, ratings.played(player.id))


def test_the_nemesis_the_victim_and_the_runs(app, client):
    for order in (["Ben", "Ann", "Cy"], ["Ben", "Cy", "Ann"], ["Ann", "Ben", "Cy"],
                  ["Ann", "Cy", "Ben"], ["Ann", "Ben", "Cy"], ["Cy", "Ann", "Ben"]):
        play(client, order)
    ann = of(app, "Ann")
    # Ben and Cy each finished ahead of Ann twice in six meetings: a tie goes by name, Ben.
    # Ann finished ahead of each of them four times: Ben again.
    assert (ann.nemesis.name, ann.nemesis.times, ann.nemesis.met) == ("Ben", 2, 6)
    assert (ann.victim.name, ann.victim.times) == ("Ben", 4)
    assert (ann.longest_run, ann.current_run) == (3, 0)
    cy = of(app, "Cy")
    assert (cy.nemesis.name, cy.nemesis.times) == ("Ann", 4)  # Ben: 3
    assert (cy.longest_run, cy.current_run) == (1, 1)


def test_a_new_player_has_no_rivals_yet(app, client):
    start_game(client, NAMES)
    ann = of(app, "Ann")
    assert ann.nemesis is None and ann.victim is None
    assert (ann.longest_run, ann.current_run) == (0, 0)


def test_the_same_on_postgresql(pg_app):
    client = pg_app.test_client()
    for order in (["Ben", "Ann", "Cy"], ["Ann", "Ben", "Cy"], ["Ann", "Cy", "Ben"]):
        play(client, order)
    ann = of(pg_app, "Ann")
    assert (ann.nemesis.name, ann.nemesis.times, ann.victim.name, ann.victim.times) == (
        "Ben", 1, "Cy", 3)
    assert (ann.longest_run, ann.current_run) == (2, 2)


def test_the_rivals_are_those_the_games_replayed_give(app, client):
    """The nemesis and victim read from the page's head-to-head are those worked out by
    replaying every game (tests/reports/oracle.py)."""
    for order in (["Ben", "Ann", "Cy"], ["Ben", "Cy", "Ann"], ["Ann", "Ben", "Cy"],
                  ["Cy", "Ann", "Ben"], ["Cy", "Ben", "Ann"]):
        play(client, order)
    with app.app_context():
        games = oracle.played_games()
        for player in db.session.scalars(select(Player)):
            replayed = oracle.head_to_head(player.name, games)
            steps = ratings.played(player.id)
            worked = rivals(roster.details(player).head_to_head, steps)
            expected = rivals(replayed, steps)
            assert worked.nemesis is not None and worked.victim is not None, player.name
            for one, other in ((worked.nemesis, expected.nemesis),
                               (worked.victim, expected.victim)):
                assert (one.name, one.times, one.met) == (other.name, other.times, other.met)


def test_the_runs_count_games_in_the_order_played_not_entered(app, client):
    """A game entered later but played earlier counts where it was played: Ann won on the
    12th and lost on the 5th, entered the other way round; her run going now is the win."""
    from tests.helpers import import_log

    names = ["Ann", "Ben", "Cy"]
    for went_out, day in (("Ann", "12"), ("Ben", "05")):  # entered: the 12th, then the 5th
        import_log(app, "penalty", names, [{"went_out": went_out, "hands": {
            other: {"cards": 13, "kings": 2} for other in names if other != went_out}}],
            f"2026-01-{day}", ended=True, target=25)
    ann = of(app, "Ann")
    assert (ann.longest_run, ann.current_run) == (1, 1)  # entered order: lost last, run 0
