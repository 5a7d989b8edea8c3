"""The story of a night in a few lines, worked out from its games: who won most (of a crowd
night: who won the night by its standings, and each round's top table), the winning runs it
started, stretched or ended ("Cy won 3 of 5 and ended Ann's 6-game run"), the table's
records it set, and the biggest rise of a rating.

Read from the results cache (who won each finished game), so a correction of an old hand,
which rewrites that cache, rewrites the story after it too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from flask_babel import gettext, ngettext
from sqlalchemy import bindparam, select, tuple_

from .. import variants
from ..db.models import Game, ResultSeat
from ..extensions import db
from ..words import points, together
from . import crowd, history, records
from .ratings import PROVISIONAL, figure, figures_after

RUN = 3  # a run of this many wins or more is worth a line
RECORDS = 2  # at most this many records set in a night are told (the registry's order)


@dataclass(frozen=True)
class Finished:
    """A finished game of the night: its id, and who won it."""

    game_id: int
    winners: tuple[int, ...]


# The statements are built once, what they ask bound when they run (building one costs more
# than SQLite takes to answer it).
# The games played up to one (the night's last), latest first, a window of them at a time
# along the order played (the day, then when each was entered: ix_game_played_on, the order
# a player's ratings and runs count in), each with its seats' results (a game with none on
# a row of its own).
LAST = bindparam("last")
_LAST_ON = select(Game.played_on).where(Game.id == LAST).scalar_subquery()
_LAST_AT = select(Game.created_at).where(Game.id == LAST).scalar_subquery()
_BACK = (select(Game.id, Game.played_on, Game.created_at)
         .where(tuple_(Game.played_on, Game.created_at, Game.id)
                <= tuple_(_LAST_ON, _LAST_AT, LAST))
         .order_by(Game.played_on.desc(), Game.created_at.desc(), Game.id.desc())
         .limit(bindparam("window")).offset(bindparam("skip")).subquery())
BACK_SEATS = (select(_BACK.c.id, ResultSeat.player_id, ResultSeat.won, ResultSeat.over)
              .select_from(_BACK).outerjoin(ResultSeat, ResultSeat.game_id == _BACK.c.id)
              .order_by(_BACK.c.played_on.desc(), _BACK.c.created_at.desc(),
                        _BACK.c.id.desc()))


def _night(results: Iterable[tuple]) -> tuple[list[Finished], dict[int, str]]:
    """Return the night's finished games in the order played, and everyone who sat in one
    of its games, by name, from its seats' results in the order played
    (history.NightSummary.results)."""
    games: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for game_id, player_id, name, won, over, *_ in results:
        names[player_id] = name
        if over:
            winners = games.setdefault(game_id, [])
            if won:
                winners.append(player_id)
    # Each game's winners in the order of their ids, whatever order their seats came in.
    return [Finished(game_id, tuple(sorted(winners))) for game_id, winners in games.items()], names


WINDOW = 16  # games read first, back from the night's last; twice as many each time after


def _games_up_to(players: Iterable[int], first: int, last: int) -> dict[int, list]:
    """Return each player's finished games up to the night's last, in the order played:
    every game of the night, and enough before it to reach the loss that began each
    player's run. Read back from the night's last game (`last`) a window of games at a
    time, so a long history is not read for short runs; a game read after the night's
    first (`first`) was played before the night."""
    found: dict[int, list[tuple[int, bool]]] = {player: [] for player in players}
    open_runs = set(found)  # whose loss before the night is not read yet
    skip, window, reading, before_night = 0, WINDOW, None, False
    while open_runs:
        rows = db.session.execute(
            BACK_SEATS, {"last": last, "window": window, "skip": skip}).all()
        read = 0
        for game_id, player_id, won, over in rows:  # the latest first
            if game_id != reading:
                before_night = before_night or reading == first
                reading, read = game_id, read + 1
            if not over or player_id not in open_runs:
                continue
            found[player_id].append((game_id, won))
            if not won and before_night:
                open_runs.discard(player_id)  # the loss their run began after
        if read < window:
            break  # the first game of all is read
        skip, window = skip + window, window * 2
    return {player: games[::-1] for player, games in found.items()}


def night_story(night_id: int, results: Iterable[tuple] | None = None,
                crowded: crowd.Night | None | object = crowd.UNREAD) -> list[str]:
    """Return a few lines that tell a night: who won most of its games, each winning run of
    RUN or more that the night started, stretched or ended, the table's records it set (at
    most RECORDS), and the biggest rise of a settled rating. `results` are its seats'
    results in the order played, as history.NightSummary keeps them, and `crowded` the
    crowd night it is (crowd.of_night, None for an ordinary night), if read already (the
    night's page reads them for its standings too)."""
    if results is None:
        summary = history.night_summary(night_id)
        results = summary.results if summary is not None else ()
    games, names = _night(results)
    if not games:
        return []
    wins = Counter(winner for game in games for winner in game.winners)
    lines = []
    if crowded is crowd.UNREAD:
        crowded = crowd.of_night(night_id)
    if crowded is not None:
        lines += crowd_lines(crowded)
    elif wins:
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
    lines += _runs(games, names)
    lines += [records.told(best) for best in records.night_records(night_id)[:RECORDS]]
    lines += _rise(results, names)
    return lines


def crowd_lines(night: crowd.Night) -> list[str]:
    """Return the lines of a crowd night by its own standings (docs/crowd.md): who won the
    night (or leads it, while it is played), and who won the top table each round."""
    lines = []
    standings = [line for line in night.standings if line.games]
    if standings:
        first = [line.name for line in standings if line.place == 1]
        said = points(standings[0].points)
        if night.over:
            lines.append(ngettext("%(names)s won the night with %(points)s points",
                                  "%(names)s shared the night with %(points)s points each",
                                  len(first), names=together(first), points=said))
        else:
            lines.append(ngettext("%(names)s leads the night with %(points)s points",
                                  "%(names)s lead the night with %(points)s points each",
                                  len(first), names=together(first), points=said))
    top = [gettext("%(names)s in round %(round)s", names=together(table.winners),
                   round=number)
           for number, tables in sorted(night.rounds.items())
           for table in tables if table.number == 1 and table.over and table.winners]
    if top:
        lines.append(gettext("The top table: %(rounds)s", rounds=" · ".join(top)))
    return lines


def _rise(results: Iterable[tuple], names: dict[int, str]) -> list[str]:
    """Return the line of the night's biggest rise of a rating, from before a player's first
    game of the night to after their last, in one variant (by the steps its seats' results
    carry); a provisional rating (fewer than PROVISIONAL games) moves too much to tell.
    "Before" is the rating their page showed after their previous game: a new season's
    first game widens it first (ratings.SEASON_TAU), which is no move of theirs."""
    moves: dict[tuple[int, str], list] = {}  # (player, variant): [first, last] steps
    for _, player_id, _, _, _, variant, games, *figures in results:
        if variant is None:
            continue  # not rated
        move = moves.get((player_id, variant))
        if move is None:
            moves[player_id, variant] = [(games, *figures), (games, *figures)]
        elif games < move[0][0]:
            move[0] = (games, *figures)
        elif games > move[1][0]:
            move[1] = (games, *figures)
    told = {key: move for key, move in moves.items()
            if move[1][0] >= PROVISIONAL and key[0] in names}
    shown = figures_after((player_id, variant, first[0] - 1)
                          for (player_id, variant), (first, _) in told.items() if first[0] > 1)
    risen = []
    # Of two rises alike (one player's, in two variants), the one whose first step of the
    # night is the fewest games of its variant is told.
    for (player_id, variant), (first, last) in sorted(told.items(),
                                                      key=lambda move: move[1][0][0]):
        before = shown.get((player_id, variant, first[0] - 1), figure(first[1], first[2]))
        after = figure(last[3], last[4])
        if after > before:
            risen.append((after - before, names[player_id], variant, after))
    if not risen:
        return []
    rise, name, variant, after = min(risen, key=lambda r: (-r[0], r[1].casefold()))
    return [gettext("%(name)s's %(variant)s rating rose %(rise)s to %(rating)s", name=name,
                    variant=gettext(variants.get(variant).in_a_sentence), rise=rise,
                    rating=after)]


def _runs(games: list[Finished], names: dict[int, str]) -> list[str]:
    """Return the lines of the winning runs the night ended, and of those still going."""
    in_night = {game.game_id for game in games}
    by_player = _games_up_to(names, games[0].game_id, games[-1].game_id)
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
