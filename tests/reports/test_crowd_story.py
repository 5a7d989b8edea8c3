"""A crowd night looked back on: its story names who won the night by its standings (not by
games won) and who won the top table each round; its share card shows the night's
standings, its top MOST_PLAYERS and the others counted, over its rounds and tables."""

from __future__ import annotations

import re
from html import unescape

from scorekeeper import crowd
from scorekeeper.db.models import Crowd
from scorekeeper.extensions import db
from scorekeeper.reports import crowd as reading
from scorekeeper.reports import history, share_card, story
from scorekeeper.words import points
from tests.helpers import ELEVEN, play_out


def play_night(app, rounds: int, played: int) -> tuple[int, int, list[str]]:
    """Start a progressive night of 11 at tables of 4 and play `played` of its rounds,
    each table's seat order its finishing order; return the crowd, its night, and the top
    table's winner of each round."""
    with app.app_context():
        crowd_id = crowd.start(crowd.Plan(ELEVEN, "penalty", {}, 4, rounds=rounds), seed=7)
        night_id = db.session.get(Crowd, crowd_id).night_id
        tops = []
        for number in range(1, played + 1):
            if number > 1:
                crowd.next_round(crowd_id, number - 1, seed=number)
            for table in reading.night(crowd_id).tables:
                order = play_out(table.game_id)
                if table.number == 1:
                    tops.append(order[0])
    return crowd_id, night_id, tops


def told(app, night_id) -> tuple[list[str], share_card.Card]:
    with app.test_request_context():
        summary = history.night_summary(night_id)
        lines = story.night_story(night_id, summary.results)
        return lines, share_card.night_card(summary, lines)


def test_the_story_names_the_nights_winner_by_its_standings_and_each_top_table(app):
    crowd_id, night_id, tops = play_night(app, 3, 3)
    lines, card = told(app, night_id)
    with app.test_request_context():
        view = reading.night(crowd_id)
        best = view.standings[0]
        assert view.over and view.winners == [best.name]
        assert lines[0] == f"{best.name} won the night with {points(best.points)} points"
    assert lines[1] == ("The top table: " + " · ".join(
        f"{name} in round {number}" for number, name in enumerate(tops, 1)))
    assert not any(" of 9 games" in line for line in lines)  # games won is not the rule
    # The card: the winner over the night's standings, its top 8 and the others counted.
    assert card.headline == lines[0]
    assert card.subtitle.endswith("3 rounds · 3 tables")
    assert [row.name for row in card.rows] == [line.name for line in view.standings[:8]]
    assert card.rows[0].won and card.rows[0].figure == f"{points(best.points)} points"
    assert card.lines[0] == "and 3 more players"
    assert lines[1] in card.lines


def test_a_night_still_played_says_who_leads_it(app):
    crowd_id, night_id, tops = play_night(app, 3, 1)
    lines, card = told(app, night_id)
    with app.app_context():
        leaders = [line.name for line in reading.night(crowd_id).standings if line.place == 1]
    assert len(leaders) == 3  # three tables won, 3 points each
    assert lines[0].endswith("lead the night with 3 points each")
    assert all(name in lines[0] for name in leaders)
    assert lines[1] == f"The top table: {tops[0]} in round 1"
    assert card.subtitle.endswith("1 round · 3 tables") and not any(r.won for r in card.rows)


def test_the_nights_page_and_card_tell_it(app):
    crowd_id, night_id, tops = play_night(app, 2, 2)
    client = app.test_client()
    after = " ".join(unescape(re.sub(r"<[^>]+>", " ", client.get(
        f"/crowds/{crowd_id}").get_data(as_text=True))).split())
    with app.app_context():
        view = reading.night(crowd_id)
    assert "The night is over" in after and f"{view.winners[0]} wins the night" in after
    for number, tables in view.rounds.items():  # every round and table, with its winner
        said = after.split(f"Round {number} Table 1", 1)[1]
        for table in tables:
            assert f"Table {table.number}" in said and f"{table.winners[0]} wins" in said
    assert f"{tops[-1]} wins" in after.split("Round 2 Table 1", 1)[1]
    page = unescape(client.get(f"/history/nights/{night_id}").get_data(as_text=True))
    shared = page.split('data-share-text="', 1)[1].split('"', 1)[0]
    assert "won the night with" in shared and "The top table: " in shared
    assert "and 3 more players" in shared and "Penalty points:" not in shared
    picture = client.get(f"/history/nights/{night_id}/card.png")
    assert picture.status_code == 200 and picture.data[:4] == b"\x89PNG"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert points(7.5) == "7,5"
