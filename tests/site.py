"""A table's worth of games on one database, and every page a phone can open on it: what the
accessibility and markup audits (tests/test_markup.py, tests/browser/test_look_browser.py)
walk through, and what scripts/lighthouse.sh serves."""

from __future__ import annotations

import json

from scorekeeper.db.models import Player
from scorekeeper.extensions import db
from tests.helpers import hand_data, make_app, start_game

RTL = "دانة"  # a right-to-left name at every table, to see it isolated on every page
PENALTY = ["Ann", "Ben", RTL]
CHIPS = ["Ann", "Cy", RTL]
CORONATION = [RTL, "Ben"]


def _deal(number: int, corners, dragon) -> dict:
    """Return a coronation deal as its form posts it (corners and dragon by seat)."""
    data = {"number": str(number), "token": f"deal-{number}-{''.join(corners)}",
            "dragon": dragon}
    data.update({f"corner-{i}": seat for i, seat in enumerate(corners)})
    return data


def _deal_saved(response) -> None:
    """Check that a deal was recorded (a refused one shows its form again)."""
    assert response.status_code == 302, response.get_data(as_text=True)[:500]


def _hands(client, game_id: int, players, hands: list) -> None:
    """Record hands (went_out, {name: cards}) through the record-hand form."""
    for number, (went_out, held) in enumerate(hands, start=1):
        response = client.post(f"/games/{game_id}/hands/new",
                               data=hand_data(players, went_out, held, number))
        assert response.status_code == 302, response.get_data(as_text=True)[:500]


def seed(path) -> dict[str, int]:
    """Fill an SQLite file with games of every variant, in play and over; return their ids."""
    app = make_app(path, csrf=False)
    client = app.test_client()
    ids = {}
    ids["penalty_over"] = start_game(client, ["Eve", "Finn"])
    _hands(client, ids["penalty_over"], ["Eve", "Finn"], [("Eve", {"Finn": 1})])
    client.post(f"/games/{ids['penalty_over']}/end")
    ids["chips_over"] = start_game(client, CHIPS, variant="chips", preset="house")
    _hands(client, ids["chips_over"], CHIPS, [("Ann", {"Cy": 3, RTL: 1})])
    client.post(f"/games/{ids['chips_over']}/end")
    ids["coronation_over"] = start_game(client, CORONATION, variant="coronation",
                                        deals_to_win=1)
    _deal_saved(client.post(f"/games/{ids['coronation_over']}/hands/new",
                            data=_deal(1, ["0", "0", "1", "0"], "0")))
    ids["coronation"] = start_game(client, CORONATION, variant="coronation", deals_to_win=3)
    _deal_saved(client.post(f"/games/{ids['coronation']}/hands/new",
                            data=_deal(1, ["0", "1", "none", "0"], "1")))
    ids["chips"] = start_game(client, CHIPS, variant="chips", preset="house")
    _hands(client, ids["chips"], CHIPS, [(RTL, {"Ann": 2, "Cy": 1})])
    client.post(f"/games/{ids['chips']}/chips/events",
                data={"number": "2", "player": "1", "kind": "pass", "token": "seed-tap"})
    ids["penalty"] = start_game(client, PENALTY)  # the game in play, last started
    _hands(client, ids["penalty"], PENALTY,
           [("Ann", {"Ben": 3, RTL: 1}), (RTL, {"Ann": 2, "Ben": (4, 1)})])
    # Hand 3 filling in from the players' phones: Ann's part in, the others to come.
    client.post(f"/games/{ids['penalty']}/hands/3/part", data={"seat": "0", "went_out": "1"})
    # Last summer's league: a season of its own, so the pages offer a row of seasons.
    client.post("/import", data={"text": json.dumps({
        "format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 25},
        "players": PENALTY, "played_on": "2025-07-04", "ended": True, "rounds": [
            {"went_out": "Ben", "hands": {"Ann": {"cards": 4, "kings": 1},
                                          RTL: {"cards": 2, "kings": 0}}}]})})
    client.post("/seasons/", data={"name": "Summer league", "first_day": "2025-06-01",
                                   "last_day": "2025-08-31"})
    # A night for a crowd, its first round half played (table 1's game over).
    night = client.post("/crowds/new", data={
        "new_names": "\n".join(["Ann", "Ben", RTL, "Dee", "Eve"]), "variant": "penalty",
        "table_size": "3", "seating": "random", "moving": "progressive", "rounds": "3"})
    ids["crowd"] = int(night.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        from scorekeeper.db import crowds
        ids["rtl_player"] = db.session.query(Player.id).filter_by(name=RTL).scalar()
        ids["crowd_night"] = crowds.get(ids["crowd"]).night_id
        first = crowds.tables(ids["crowd"], 1)[0].game_id
        db.engine.dispose()
    client.post(f"/games/{first}/end")
    return ids


def pages(ids: dict[str, int]) -> dict[str, str]:
    """Return every page to audit, by a name for reports and screenshots: name -> path."""
    out = {"home": "/", "new-game": "/games/new", "how-to-play": "/how-to-play"}
    for variant in ("penalty", "chips", "coronation"):
        game = ids[variant]
        out[f"scoreboard-{variant}"] = f"/games/{game}"
        out[f"scoreboard-{variant}-over"] = f"/games/{ids[variant + '_over']}"
        out[f"record-{variant}"] = f"/games/{game}/hands/new"
        out[f"edit-{variant}"] = f"/games/{game}/hands/1/edit"
        out[f"history-game-{variant}"] = f"/history/games/{game}"
    out.update({
        "watch-scoreboard": f"/games/{ids['penalty']}?watch=1",
        "history": "/history/",
        "night": "/history/nights/1",
        "roster": "/players",
        "player": "/players/1",
        "player-rtl": f"/players/{ids['rtl_player']}",
        "player-more": "/players/1/more",
        "player-rtl-more": f"/players/{ids['rtl_player']}/more",
        "merge": "/players/1/merge",
        "settings": "/settings",
        "seasons": "/seasons/",
        "season": "/seasons/Summer%20league",
        "player-all-time": "/players/1?season=all",
        "backup": "/backup",
        "import": "/import",
        "join": "/join",
        "delete-game": f"/games/{ids['penalty_over']}/delete",
        "not-found": "/games/9999",
        "which-one": f"/games/{ids['penalty']}/seat",
        "part-penalty": f"/games/{ids['penalty']}/hands/3/part?seat=1",
        "part-coronation": f"/games/{ids['coronation']}/hands/2/part?seat=1",
        "crowd-new": "/crowds/new",
        "crowd-night": f"/crowds/{ids['crowd']}",
        "crowd-who": f"/crowds/{ids['crowd']}/who",
        "crowd-history-night": f"/history/nights/{ids['crowd_night']}",
    })
    return out

