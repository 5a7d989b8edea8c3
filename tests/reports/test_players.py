"""The roster and player pages read the results cache with SQL; what they show equals the
statistics worked out by replaying every game through the rules."""

from __future__ import annotations

import json
import random

from sqlalchemy import event, select

from scorekeeper import variants
from scorekeeper.db.models import Player, RatingStep
from scorekeeper.extensions import db
from scorekeeper.reports import calendar, ratings
from scorekeeper.reports import figures as roster
from tests.reports import oracle

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def random_log(rng: random.Random, day: int, year: int = 2026) -> dict:
    """Return a game log of a random variant and hands, finished or not, on a day of June."""
    variant = rng.choice(["penalty", "penalty", "chips", "jax", "coronation"])
    players = rng.sample(NAMES, 2 if variant == "coronation" else rng.randint(2, 4))
    rounds = []
    for _ in range(rng.randint(0, 6)):
        if variant == "coronation":
            rounds.append({"corners": [rng.choice(players + [None]) for _ in range(4)],
                           "dragon": rng.choice(players + [None])})
            continue
        went_out = rng.choice(players + [None])
        hands = {p: {"cards": rng.randint(1, 6), "kings": rng.randint(0, 1)}
                 for p in players if p != went_out}
        if went_out is None and len({h["cards"] for h in hands.values()}) == 1:
            hands[players[0]]["cards"] += 1
        rounds.append({"went_out": went_out, "hands": hands})
    rules = {"penalty": {"target": rng.choice([15, 25])},
             "chips": {"preset": "house", "start_chips": 12},
             "jax": {"preset": "jax", "target": 20}, "coronation": {"deals_to_win": 2}}[variant]
    return {"format": "kings-corners-game/1", "variant": "chips" if variant == "jax" else variant,
            "rules": rules, "players": players, "played_on": f"{year}-06-{day:02d}",
            "ended": rng.random() < 0.3, "rounds": rounds}


def fill(client, seed: int, games: int = 40, year: int = 2026) -> None:
    """Import random games until `games` were accepted (a log the rules refuse is skipped),
    four a day from the first of June of `year`."""
    rng = random.Random(seed)
    stored = 0
    while stored < games:
        log = random_log(rng, 1 + stored // 4, year)
        stored += client.post("/import", data={"text": json.dumps(log)}).status_code == 302


def test_every_player_s_figures_from_sql_equal_a_replay_of_every_game(app, client):
    fill(client, seed=11)
    with app.app_context():
        assert roster.records() == oracle.records(oracle.played_games())
        for player in db.session.scalars(select(Player)):
            from_sql = oracle.app_stats(player)
            replayed = oracle.player_stats(player.name, oracle.played_games(player))
            assert from_sql.hands == +replayed.hands  # the same facts, zeros left out
            assert from_sql == oracle.PlayerStats(**{**replayed.__dict__,
                                                   "hands": from_sql.hands}), player.name


def charted(player_id: int, numbers, season: str | None = None,
            inside=lambda day: True) -> tuple[list, dict]:
    """Return what a player's rating chart draws at these steps (by number), worked out from
    every step of theirs: the day of each, and each variant's rating after its latest step
    up to it (of `season`, played on a day `inside` it, with `season`), None before the
    first."""
    steps = db.session.scalars(select(RatingStep).where(RatingStep.player_id == player_id)
                               .order_by(RatingStep.number)).all()
    days, lines = [], {}
    for i, number in enumerate(numbers):
        days.append(next(step.played_on for step in steps if step.number == number))
        for step in steps:
            if step.number <= number and (season is None or step.season == season
                                          and inside(step.played_on)):
                line = lines.setdefault(step.variant, [None] * len(numbers))
                line[i] = (step.mu_after, step.sigma_after)
    return days, lines


def season_s_figures_are_those_of_its_games_alone(app, client) -> None:
    """Hold what a player's page reads for a season (its figures, runs and rating line) to
    the same worked out from the season's games alone, and the season's page's ratings to
    each variant's roster of the season: a year, a year with a named season
    carved out of it (two runs of days), and the named season."""
    fill(client, seed=5, games=24, year=2025)
    fill(client, seed=6, games=24, year=2026)
    assert client.post("/seasons/", data={"name": "Midsummer", "first_day": "2025-06-03",
                                          "last_day": "2025-06-04"}).status_code == 302
    with app.app_context():
        named = calendar.named()
        for name, inside in (("2025", lambda d: d.year == 2025 and not 3 <= d.day <= 4),
                             ("Midsummer", lambda d: d.year == 2025 and 3 <= d.day <= 4),
                             ("2026", lambda d: d.year == 2026)):
            shown = calendar.Calendar(named).shown(name)
            # The season's page: each variant's ratings at its end, read in one statement.
            ends = ratings.season_rosters(name)
            assert ends and ends == {
                home.name: ratings.roster(home.name, name) for home in variants.homes()
                if ratings.roster(home.name, name)}, name
            for player in db.session.scalars(select(Player)):
                games = [p for p in oracle.played_games(player) if inside(p.played_on)]
                from_sql = oracle.app_stats(player, shown)
                replayed = oracle.player_stats(player.name, games)
                assert from_sql.hands == +replayed.hands, (name, player.name)
                assert from_sql == oracle.PlayerStats(**{**replayed.__dict__,
                                                       "hands": from_sql.hands}), (name,
                                                                                   player.name)
                wins = [oracle.won(p, player.name) for p in games if p.result.over]
                longest = current = 0
                for win in wins:  # imported in the order played: the runs' order too
                    current = current + 1 if win else 0
                    longest = max(longest, current)
                season_s = ratings.played(player.id, name, shown.span)
                assert (season_s.longest_run, season_s.current_run) == (longest, current), (
                    name, player.name)
                days, _ = ratings.chart_points(player.id, season_s.numbers)
                assert all(inside(day) for day in days), (name, player.name)
                assert len(season_s.numbers) == len(wins)
                # The rating chart of the season: each variant's line, from its steps alone.
                drawn = season_s.numbers[::2]  # the first among them, as the page draws
                assert ratings.chart_points(player.id, drawn, name, shown.span) == \
                    charted(player.id, drawn, name, inside), (name, player.name)
            for player in db.session.scalars(select(Player)):
                every = ratings.played(player.id).numbers
                assert ratings.chart_points(player.id, every) == \
                    charted(player.id, every), player.name


def test_a_season_s_figures_are_those_of_its_games_alone(app, client):
    season_s_figures_are_those_of_its_games_alone(app, client)


def test_a_season_s_figures_on_postgresql(pg_app):
    season_s_figures_are_those_of_its_games_alone(pg_app, pg_app.test_client())


def test_every_page_costs_the_same_statements_whatever_the_history(app, client):
    def statements(path: str) -> int:
        seen: list[str] = []

        def listener(*args) -> None:
            seen.append(args[2])

        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", listener)
            try:
                assert client.get(path).status_code in (200, 204)
            finally:
                event.remove(db.engine, "before_cursor_execute", listener)
        return len(seen)

    pages = ["/", "/players", "/players/1", "/players/1/more", "/history/", "/history/nights/1",
             "/games/1", "/history/games/1", "/games/1/version?since=0", "/games/1/hands/new"]
    fill(client, seed=3, games=10)  # player 1 has finished 2 games: their rating chart
    small = [statements(page) for page in pages]
    fill(client, seed=4, games=60)
    assert [statements(page) for page in pages] == small


def test_each_line_of_the_list_of_nights_says_what_the_night_s_page_says(app, client):
    """The list of nights groups in SQL what a night's page works out game by game."""
    from scorekeeper.db.models import Night
    from scorekeeper.reports import history

    fill(client, seed=5)
    with app.app_context():
        nights = list(db.session.scalars(select(Night).order_by(Night.id)))
        assert len(nights) > 3
        for line, night in zip(history.night_lines([history.NightRow.of(n) for n in nights]),
                               nights):
            whole = history.night_summary(night.id)
            assert (line.players, line.games, line.wins, line.unfinished, line.broken) == (
                whole.players, len(whole.games), whole.wins, whole.unfinished, whole.broken)


def test_years_of_nights_chart_the_same_spread_points_as_the_replay(app):
    """Past CHART_POINTS nights the database picks the chart's nights as the statistics would."""
    from tests.helpers import fill as weekly_nights

    weekly_nights(app, 130, hands=3, ended=True)
    with app.app_context():
        ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
        from_sql = oracle.app_stats(ann)
        replayed = oracle.player_stats("Ann", oracle.played_games(ann))
        assert from_sql.nights == replayed.nights == 130
        assert len(from_sql.form) == roster.CHART_POINTS
        assert from_sql.form == replayed.form
        assert from_sql.best_night == replayed.best_night
