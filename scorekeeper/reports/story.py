"""The story of a night in a few lines, worked out from its games: who won most, the
winning runs it started, stretched or ended ("Cy won 3 of 5 and ended Ann's 6-game run"),
the table's records it set, and the biggest rise of a rating.

Read from the results cache (who won each finished game), so a correction of an old hand,
which rewrites that cache, rewrites the story after it too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from flask_babel import gettext, ngettext
from sqlalchemy import bindparam, select

from .. import variants
from ..db.models import Game, Player, RatingStep, ResultSeat
from ..extensions import db
from ..words import together
from . import records
from .ratings import PROVISIONAL, figure

RUN = 3  # a run of this many wins or more is worth a line
RECORDS = 2  # at most this many records set in a night are told (the registry's order)


@dataclass(frozen=True)
class Finished:
    """A finished game of the night: its id, when it began, and who won it."""

    game_id: int
    key: tuple
    winners: tuple[int, ...]


# The statements are built once, what they ask bound when they run (building one costs more
# than SQLite takes to answer it).
NIGHT_SEATS = (select(Game.id, Game.created_at, ResultSeat.player_id, ResultSeat.won,
                      ResultSeat.over)
               .join(ResultSeat, ResultSeat.game_id == Game.id)
               .where(Game.night_id == bindparam("night"))
               .order_by(Game.created_at, Game.id))
UNTIL = bindparam("until")
# The games before a moment (or at it), latest first, a window at a time.
_BACK = select(Game.id, Game.created_at).order_by(Game.created_at.desc(), Game.id.desc())
BEFORE = {True: _BACK.where(Game.created_at < UNTIL).limit(bindparam("window")),
          False: _BACK.where(Game.created_at <= UNTIL).limit(bindparam("window"))}
# By the games' key alone: asked about `over` too, SQLite would read the `over` index from
# one end to the other (every finished game's seats) instead.
SEATS_OF = select(ResultSeat.game_id, ResultSeat.player_id, ResultSeat.won, ResultSeat.over) \
    .where(ResultSeat.game_id.in_(bindparam("games", expanding=True)))
NAMES = select(Player.id, Player.name).where(Player.id.in_(bindparam("ids", expanding=True)))


def _night(night_id: int) -> tuple[list[Finished], set[int]]:
    """Return the night's finished games in the order played, and everyone who sat in one."""
    rows = db.session.connection().execute(NIGHT_SEATS, {"night": night_id}).all()
    games: dict[int, Finished] = {}
    players: set[int] = set()
    for game_id, created_at, player_id, won, over in rows:
        players.add(player_id)
        if not over:
            continue
        found = games.setdefault(game_id, Finished(game_id, (created_at, game_id), ()))
        if won:
            games[game_id] = Finished(game_id, found.key, (*found.winners, player_id))
    return list(games.values()), players


WINDOW = 64  # games read at a time, back from the night's last, until every run is found


def _games_up_to(players: set[int], first: tuple, last: tuple) -> dict[int, list]:
    """Return each player's finished games up to the night's last, in the order played:
    every game of the night, and enough before it to reach the loss that began each
    player's run. Read back from the night's last game a window of games at a time, along
    the games' own order (an index), so a long history is not read for short runs."""
    found: dict[int, list[tuple[int, bool]]] = {player: [] for player in players}
    open_runs = set(players)  # whose loss before the night is not read yet
    until, seen, strictly = last[0], set(), False
    while open_runs:
        read = db.session.connection().execute(
            BEFORE[strictly], {"until": until, "window": WINDOW}).all()
        if not read:
            break  # the first game of all is read
        window = [(g, at) for g, at in read if g not in seen and (at, g) <= last]
        seen.update(g for g, _ in window)
        # The next window from the last time read; past it, if a window held nothing new
        # (more games than a window begun at the same moment).
        until, strictly = read[-1][1], not window
        seats: dict[int, list[tuple[int, bool]]] = {}
        for seat_game, player_id, won, over in db.session.connection().execute(
                SEATS_OF, {"games": [g for g, _ in window]}):
            if over:
                seats.setdefault(seat_game, []).append((player_id, won))
        for seat_game, created_at in window:  # the latest first
            for player_id, won in seats.get(seat_game, ()):
                if player_id not in open_runs:
                    continue
                found[player_id].append((seat_game, won))
                if not won and (created_at, seat_game) < first:
                    open_runs.discard(player_id)  # the loss their run began after
    return {player: games[::-1] for player, games in found.items()}


def _names(ids) -> dict[int, str]:
    return dict(db.session.connection().execute(NAMES, {"ids": list(ids)}).all())


def night_story(night_id: int) -> list[str]:
    """Return a few lines that tell a night: who won most of its games, each winning run of
    RUN or more that the night started, stretched or ended, the table's records it set (at
    most RECORDS), and the biggest rise of a settled rating."""
    games, players = _night(night_id)
    if not games:
        return []
    wins = Counter(winner for game in games for winner in game.winners)
    names = _names(players)
    lines = []
    if wins:
        most = max(wins.values())
        best = sorted((names[p] for p, count in wins.items() if count == most), key=str.casefold)
        if len(best) == 1:
            lines.append(ngettext("%(names)s won %(wins)s of %(num)d game",
                                  "%(names)s won %(wins)s of %(num)d games", len(games),
                                  names=best[0], wins=most))
        else:
            lines.append(ngettext("%(names)s won %(wins)s each of %(num)d game",
                                  "%(names)s won %(wins)s each of %(num)d games", len(games),
                                  names=together(best), wins=most))
    lines += _runs(games, players, names)
    lines += [records.told(best) for best in records.night_records(night_id)[:RECORDS]]
    lines += _rise(night_id, names)
    return lines


# The rating steps of a night's games, each player's in the order played.
NIGHT_STEPS = (select(RatingStep.player_id, RatingStep.variant, RatingStep.games,
                      RatingStep.mu_before, RatingStep.sigma_before, RatingStep.mu_after,
                      RatingStep.sigma_after)
               .join(Game, Game.id == RatingStep.game_id)
               .where(Game.night_id == bindparam("night")).order_by(RatingStep.games))


def _rise(night_id: int, names: dict[int, str]) -> list[str]:
    """Return the line of the night's biggest rise of a rating, from before a player's first
    game of the night to after their last, in one variant; a provisional rating (fewer than
    PROVISIONAL games) moves too much to tell."""
    moves: dict[tuple[int, str], list] = {}  # (player, variant): [before, after, games]
    for player_id, variant, games, mu_before, sigma_before, mu_after, sigma_after in (
            db.session.connection().execute(NIGHT_STEPS, {"night": night_id})):
        move = moves.setdefault((player_id, variant),
                                [figure(mu_before, sigma_before), 0, 0])
        move[1:] = figure(mu_after, sigma_after), games
    risen = [(after - before, names.get(player_id, ""), variant, after)
             for (player_id, variant), (before, after, games) in moves.items()
             if games >= PROVISIONAL and after > before and player_id in names]
    if not risen:
        return []
    rise, name, variant, after = min(risen, key=lambda r: (-r[0], r[1].casefold()))
    return [gettext("%(name)s's %(variant)s rating rose %(rise)s to %(rating)s", name=name,
                    variant=gettext(variants.get(variant).in_a_sentence), rise=rise,
                    rating=after)]


def _runs(games: list[Finished], players: set[int], names: dict[int, str]) -> list[str]:
    """Return the lines of the winning runs the night ended, and of those still going."""
    in_night = {game.game_id for game in games}
    by_player = _games_up_to(players, games[0].key, games[-1].key)
    winners = {game.game_id: game.winners for game in games}
    ended, going = [], []
    for player_id in sorted(by_player, key=lambda p: names[p].casefold()):
        run, grew = 0, False
        for game_id, won in by_player[player_id]:
            if won:
                run += 1
                grew = grew or game_id in in_night
                continue
            if game_id in in_night and run >= RUN and winners.get(game_id):
                ended.append(gettext("%(winners)s ended %(name)s's %(count)s-game run",
                                     winners=together([names[w] for w in winners[game_id]]),
                                     name=names[player_id], count=run))
            run, grew = 0, False
        if run >= RUN and grew:
            going.append(gettext("%(name)s has won %(count)s in a row", name=names[player_id],
                                 count=run))
    return ended + going
