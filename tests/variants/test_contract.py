"""Every registered variant goes through the same path, and so does one made up here.

The made-up variant, "Fewest cards" (each hand, whoever went out or holds the fewest
cards wins it; first to 3 hands won wins), is defined only in this file: its rules, its
home and its registration. If playing it through the pages, the game log, the CSV, the
backup and the statistics needed a change anywhere else, the variants would not have
one home each.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from scorekeeper import rules, variants
from scorekeeper.db import read_game
from scorekeeper.reports import csv_export
from scorekeeper.rules.base import (
    Hand,
    Round,
    RoundResult,
    Setting,
    Term,
    Why,
    resolve_settings,
)
from scorekeeper.rules.hands import check_hands, hand_winners
from scorekeeper.rules.seats import left_of
from scorekeeper.rules.table import Table, Variant
from scorekeeper.variants.cards import CardsHome
from tests.helpers import PACKAGE, ROOT, alerts, disposed, make_app

# -- the made-up variant, whole -------------------------------------------------------
FEWEST_SETTINGS = (Setting("hands_to_win", "Hands to win", int, minimum=1, maximum=50,
                           quick=(3, 5)),)
FEWEST_DEFAULTS = {"hands_to_win": 3}


class FewestTable(Table):
    """Hands won so far."""

    def __init__(self, game):
        super().__init__(game.players, game.first_dealer)
        self.to_win = game.settings["hands_to_win"]
        self.won = {name: 0 for name in self.players}

    def play_round(self, number, rnd):
        hands = check_hands(self.players, rnd)
        winners = hand_winners(self.players, rnd, hands)
        for name in winners:
            self.won[name] += 1
        result = RoundResult(number, self.dealer, self.first_player(), winners,
                             {n: int(n in winners) for n in self.players}, dict(self.won))
        self.over = max(self.won.values()) >= self.to_win
        self.dealer = left_of(self.players, self.dealer)
        return result

    def totals(self):
        return dict(self.won)


class Fewest(Variant):
    """Each hand, the fewest cards left wins it; the first to win 3 hands wins."""

    name = "fewest"
    label = "Fewest cards"
    blurb = "The fewest cards left wins the hand; first to 3 hands wins."
    settings = FEWEST_SETTINGS
    presets = {"standard": FEWEST_DEFAULTS}

    def resolve_settings(self, given):
        return resolve_settings(FEWEST_SETTINGS, FEWEST_DEFAULTS, given)

    def table(self, game):
        return FewestTable(game)

    def explain(self, game, result):
        return tuple({name: Why((Term("won", int(name in done.hand_winners), 1,
                                      int(name in done.hand_winners)),),
                                done.scores[name], name in done.hand_winners)
                      for name in game.players} for done in result.rounds)


class FewestHome(CardsHome):
    """The made-up variant's home: the cards form and the shared pages, its own words."""

    rules = Fewest()

    def totals_label(self, settings):
        return "Hands won"

    def target(self, settings):
        return settings["hands_to_win"]

    def summary(self, settings):
        return f"first to {settings['hands_to_win']} hands"

    def rules_lines(self, core):
        return ["The fewest cards left win the hand.",
                f"The first to win {core.settings['hands_to_win']} hands wins."]

    def why_words(self, settings, name, why, done):
        return f"{name}: {'won' if why.won else 'lost'} the hand: {why.score}"


@pytest.fixture
def fewest():
    """Register the made-up variant for one test, then take it out again."""
    home = variants.register(FewestHome())
    yield home
    rules.unregister(home.name)


def test_one_registry_holds_each_variant_with_its_home(fewest):
    assert rules.get_variant(fewest.name).home is fewest is variants.get(fewest.name)
    assert [home.name for home in variants.homes()] == [
        name for name, variant in rules.VARIANTS.items() if variant.home is not None]
    rules.unregister(fewest.name)
    assert not variants.known(fewest.name) and fewest not in variants.homes()
    rules.register(fewest.rules)  # as it was, for the fixture to take out
    fewest.rules.home = fewest


# -- the shared path --------------------------------------------------------------------
SAMPLES = (
    # A hand of cards: Ann went out; the others held cards (a king among them).
    Round(went_out="Ann", hands={"Ben": Hand(3, 1), "Cy": Hand(2)}),
    Round(went_out=None, hands={"Ann": Hand(1), "Ben": Hand(2), "Cy": Hand(4)}),
    # A deal: corners and the dragon.
    Round(corners=("Ann", "Ben", None, "Ann"), dragon="Ann"),
    Round(corners=("Ben", "Ben", "Ben", None), dragon="Ben"),
)


def seated(home) -> tuple[str, ...]:
    """Return the players a game of this variant seats: three, or as many as it takes."""
    return ("Ann", "Ben", "Cy")[:min(3, home.rules.max_players)]


def samples(home) -> list[Round]:
    """Return the sample rounds this variant's rules accept and its form can enter."""
    players = seated(home)
    fitting = []
    for sample in SAMPLES:
        rnd = Round(sample.went_out, {n: h for n, h in sample.hands.items() if n in players},
                    sample.events, sample.corners, sample.dragon)
        game = rules.Game(home.name, players, players[0], home.rules.resolve_settings({}),
                          (rnd,))
        try:
            rules.play(game)
        except rules.RuleError:
            continue
        # Only a round the variant's own form can say: refilled and read back, it is the same.
        errors = variants.Errors()
        if home.read_round(home.round_values(players, rnd), players, errors) == rnd:
            fitting.append(rnd)
    return fitting


def form_of(home, players, rnd: Round, number: int, token: str) -> dict[str, str]:
    """Return the round form's data for a round, as the variant refills its own form."""
    return {**home.round_values(players, rnd), "number": str(number), "token": token}


def start(client, home) -> int:
    """Start a game of this variant through the new-game form; return its id."""
    data = {"variant": home.name, "dealer": "0"}
    data.update({f"seat-{i}": name for i, name in enumerate(seated(home))})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, alerts(response.get_data(as_text=True))
    return int(response.headers["Location"].rsplit("/", 1)[1])


def exported(client, game_id: int) -> dict:
    """Return a game's exported log."""
    response = client.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200
    return json.loads(response.get_data(as_text=True))


def play_the_path(app, client, home) -> None:
    """New game, form, preview, record, edit, scoreboard, exports, import, stats, delete."""
    players = seated(home)
    first, second = samples(home)[:2]
    game_id = start(client, home)
    form = client.get(f"/games/{game_id}/hands/new")
    assert form.status_code == 200
    assert f"Save {home.word()} 1" in form.get_data(as_text=True)
    preview = client.post(f"/games/{game_id}/hands/1/preview",
                          data=form_of(home, players, first, 1, "p"))
    assert preview.status_code == 200 and "data-slot" in preview.get_data(as_text=True)

    saved = client.post(f"/games/{game_id}/hands/new",
                        data=form_of(home, players, first, 1, f"{home.name}-1"))
    assert saved.status_code == 302
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"{home.rounds(1)} played" in board and home.label in board
    with app.app_context():
        game = read_game(game_id)
        assert game.core.rounds == (first,)
        # This game's rules, in words, one tap from its scoreboard; each score explained by
        # the rules' own terms, which add up to it.
        (why,) = home.rules.explain(game.core, game.result)
        done = game.result.rounds[0]
        assert {name: sum(t.total for t in one.terms) for name, one in why.items()} == {
            name: done.scores[name] for name in why}
        with app.test_request_context():
            lines, said = home.rules_lines(game.core), home.explain(game)
    sheet = re.search(r'<details class="rules-sheet".*?</details>', board, re.S).group(0)
    assert len(lines) >= 2 and sheet.count("<li>") == len(lines)
    assert len(said) == 1 and set(said[0]) == set(why) and all(said[0].values())
    assert board.count('<p class="why-text">') == len(why)
    # The words come on a tap, from the hand's own address: a sentence each.
    told = client.get(f"/games/{game_id}/hands/1/why", headers={"X-Fragment": "1"})
    assert told.status_code == 200
    assert told.get_data(as_text=True).count("<li data-name=") == len(why)
    assert said[0][players[0]] not in board

    # A correction opens filled in with what was stored, and saves the new round.
    edit = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
    for name, value in home.round_values(players, first).items():
        assert re.search(rf'name="{name}" value="{value}" checked|name="{name}" value="{value}"',
                         edit), name
    changed = client.post(f"/games/{game_id}/hands/1/edit",
                          data=form_of(home, players, second, 1, ""))
    assert changed.status_code == 302
    with app.app_context():
        assert read_game(game_id).core.rounds == (second,)

    # The game log round-trips through import; the CSV has the variant's columns.
    log = exported(client, game_id)
    assert log["variant"] == home.name and len(log["rounds"]) == 1
    imported = client.post("/import", data={"text": json.dumps(log)})
    assert imported.status_code == 302
    again = exported(client, int(imported.headers["Location"].rsplit("/", 1)[1]))
    assert again == log
    sheet = client.get(f"/history/games/{game_id}/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(sheet.lstrip("\ufeff"))))
    assert tuple(rows[0]) == csv_export.columns(home.name)
    assert {row["player"] for row in rows} <= set(players) and rows[0]["hand"] == "1"

    # History, the roster and a player's page show it; deleting the round empties it.
    assert client.get(f"/history/games/{game_id}").status_code == 200
    assert client.get("/players").status_code == 200
    assert client.get("/players/1").status_code == 200
    assert client.get("/").status_code == 200
    deleted = client.post(f"/games/{game_id}/hands/last/delete",
                          data={"number": "1", "confirmed": "1"}, follow_redirects=True)
    assert f"{home.word().capitalize()} 1 deleted." in deleted.get_data(as_text=True)
    with app.app_context():
        assert read_game(game_id).core.rounds == ()


def backup_round_trip(app, tmp_path) -> None:
    """Back the database up, restore it into an empty one, back up again: the same file."""
    first = app.test_client().get("/backup/download").get_data(as_text=True)
    other = make_app(tmp_path / "restored.sqlite")
    try:
        restored = other.test_client().post(
            "/backup/restore", data={"file": (io.BytesIO(first.encode()), "b.json")},
            content_type="multipart/form-data")
        assert restored.status_code == 302
        assert other.test_client().get("/backup/download").get_data(as_text=True) == first
    finally:
        list(disposed(other))


@pytest.mark.parametrize("name", [home.name for home in variants.homes()])
def test_every_variant_goes_through_the_same_path(app, client, tmp_path, name):
    home = variants.get(name)
    assert len(samples(home)) >= 2, "the test has no sample round this variant accepts"
    play_the_path(app, client, home)
    backup_round_trip(app, tmp_path)


def test_a_variant_defined_only_here_goes_through_the_same_path(fewest, app, client, tmp_path):
    play_the_path(app, client, fewest)
    backup_round_trip(app, tmp_path)


def test_a_variant_defined_only_here_is_played_to_its_winner_and_counted(fewest, client):
    new = client.get("/games/new").get_data(as_text=True)
    assert "Fewest cards" in new and 'name="rules-fewest-hands_to_win"' in new
    game_id = start(client, fewest)
    players = seated(fewest)
    ann_out = Round(went_out="Ann", hands={"Ben": Hand(3), "Cy": Hand(2)})
    for number in (1, 2, 3):
        response = client.post(f"/games/{game_id}/hands/new",
                               data=form_of(fewest, players, ann_out, number, f"f{number}"))
        assert response.status_code == 302
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ann wins!" in board and "Hands won, hand by hand" in board
    assert "first to 3 hands" in board
    # A fourth hand is refused: the game is over.
    refused = client.post(f"/games/{game_id}/hands/new",
                          data=form_of(fewest, players, ann_out, 4, "f4"))
    assert refused.status_code in (302, 422)
    roster = client.get("/players").get_data(as_text=True)
    assert re.search(r"Ann</span>\s*<span class=\"muted\">1 game · 1 win", roster)
    ann = client.get("/players/1").get_data(as_text=True)
    assert "Fewest cards" in ann and "Kings left in hand" in ann


def test_outside_the_rules_and_its_home_no_file_names_a_variant():
    homes = variants.homes()
    mine = {home.name: type(home).__module__.split(".")[-1] for home in homes}
    checked = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".html", ".js")]
    assert len(checked) > 30
    for path in checked:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("scorekeeper/rules/"):
            continue
        text = path.read_text(encoding="utf-8")
        for name, package in mine.items():
            # Its home, its templates and scripts, and the blueprint of its own live page.
            if (f"/variants/{package}/" in f"/{relative}"
                    or relative == f"scorekeeper/web/views/{package}.py"):
                continue
            assert not re.search(rf"""["']{name}["']""", text), f"{relative} names {name}"
            assert not re.search(rf"rules\.{name}\b|rules import {name}\b", text), (
                f"{relative} imports the rules of {name}")


@pytest.mark.parametrize("name", [home.name for home in variants.homes()])
def test_a_page_of_a_game_reads_it_once_and_replays_it_once(app, client, monkeypatch, name):
    from scorekeeper.db import reader
    from scorekeeper.rules import table

    home = variants.get(name)
    players = seated(home)
    first, second = samples(home)[:2]
    game_id = start(client, home)
    response = client.post(f"/games/{game_id}/hands/new",
                           data=form_of(home, players, first, 1, "once"))
    assert response.status_code == 302
    counted = {"reads": 0, "replays": 0}
    read_batch, replay = reader._read_batch, table.replay

    def counting_read(*args, **kwargs):
        counted["reads"] += 1
        return read_batch(*args, **kwargs)

    def counting_replay(*args, **kwargs):
        counted["replays"] += 1
        return replay(*args, **kwargs)

    monkeypatch.setattr(reader, "_read_batch", counting_read)
    monkeypatch.setattr(table, "replay", counting_replay)
    pages = [("get", f"/games/{game_id}"), ("get", f"/games/{game_id}/hands/1/edit"),
             ("get", f"/history/games/{game_id}"), ("get", f"/games/{game_id}/export.json"),
             ("get", f"/history/games/{game_id}/export.csv"),
             ("post", f"/games/{game_id}/hands/1/preview")]
    for method, url in pages:
        counted.update(reads=0, replays=0)
        data = form_of(home, players, second, 1, "") if method == "post" else None
        response = getattr(client, method)(url, data=data)
        assert response.status_code == 200, url
        assert counted["reads"] == 1 and counted["replays"] <= 1, (url, counted)
