"""A finished game as a play for BG Stats, the board-game log many players keep on their phone.

BG Stats takes a play pushed from another app as a link: its createPlay page with the play
as JSON in `data` (documented by BG Stats under "Push plays to BG Stats from other apps").
Tapping the link on a phone with BG Stats opens its import dialog, where the game and the
players are matched to its own once; this app sends nothing anywhere itself.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from .. import rules
from ..db import Loaded
from .share_card import places

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
GAME_NAME = "Kings in the Corner"
SOURCE = "Kings Corners Scorekeeper"


def play(game: Loaded, board: str) -> dict[str, Any]:
    """Return a finished game as BG Stats' play: the players with their totals, ranks (ties
    shared) and winners, who played first, and whether the highest or lowest total wins.

    It is dated the day it was played (an imported game was stored later: its hour is not
    known: it is sent as noon of that day), and carries
    the game's id as `sourcePlayId`, so a game sent twice updates its play in BG Stats."""
    result = game.result
    lower = rules.get_variant(game.variant).lower_is_better
    totals = result.totals
    ranks = places(dict(totals), lower)
    first = result.rounds[0].first_player if result.rounds else None
    players = [{"name": name, "score": totals[name], "rank": ranks[name],
                "winner": name in result.winners, "startPlayer": name == first,
                "sourcePlayerId": str(game.player_ids[seat]), "role": ""}
               for seat, name in enumerate(game.players)]
    minutes = max(int((game.updated_at - game.created_at).total_seconds() // 60), 1)
    return {"sourceName": SOURCE, "board": board, "durationMin": minutes,
            "playDate": play_date(game), "sourcePlayId": f"kings-corners-game-{game.id}",
            "game": {"name": GAME_NAME, "highestWins": not lower, "noPoints": False,
                     "sourceGameId": f"kings-corners-{game.variant}"},
            "players": sorted(players, key=lambda p: (p["rank"], game.players.index(p["name"])))}


def play_date(game: Loaded) -> str:
    """Return when a game was played, as BG Stats writes it: "2025-03-07 20:15:00"."""
    if game.created_at.date() == game.played_on:
        return game.created_at.strftime("%Y-%m-%d %H:%M:%S")
    return f"{game.played_on:%Y-%m-%d} 12:00:00"


def link(game: Loaded, board: str) -> str:
    """Return the link that hands a finished game to BG Stats."""
    data = json.dumps(play(game, board), ensure_ascii=False, separators=(",", ":"))
    return CREATE_PLAY + quote(data, safe="")
