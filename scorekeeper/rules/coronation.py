"""Variant 3, coronation (two players): crown corners, slay the dragon, win deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import (
    N_,
    Game,
    GameResult,
    Round,
    RoundResult,
    RuleError,
    Setting,
    Term,
    Why,
    Word,
    resolve_settings,
)
from .seats import left_of
from .table import Table, Variant

CORNERS = 4
SETTINGS = (
    Setting("deals_to_win", N_("Deals to win the match"), int, minimum=1, maximum=99,
            quick=(1, 3, 5), help=N_("The first player to win this many deals wins the match.")),
)
DEFAULTS = {"deals_to_win": 1}


def check_deal(players: Sequence[str], corners: Sequence[str | None],
               dragon: str | None) -> tuple[str | None, ...]:
    """Return the corners as a tuple, or raise RuleError naming the impossible entry."""
    if isinstance(corners, (str, bytes)) or not isinstance(corners, Sequence):
        raise RuleError("must be a list of who completed each corner", "corners")
    if len(corners) > CORNERS:
        raise RuleError("a deal has only %(corners)s corners, not %(count)s", "corners",
                        corners=CORNERS, count=len(corners))
    for index, entry in enumerate(corners):
        if entry is not None and entry not in players:
            raise RuleError("%(name)s is not a player in this game", f"corners[{index}]",
                            name=repr(entry))
    if dragon is not None and dragon not in players:
        raise RuleError("%(name)s is not a player in this game", "dragon", name=repr(dragon))
    return tuple(corners)


def victory(points: Mapping[str, int], winner: str | None) -> str:
    """Return the class of a deal: absolute (5-0), incredible (winner has 4), normal, draw."""
    if winner is None:
        return N_("draw")
    loser_points = sum(value for name, value in points.items() if name != winner)
    if points[winner] == CORNERS + 1 and loser_points == 0:
        return N_("absolute")
    if points[winner] == CORNERS:
        return N_("incredible")
    return N_("normal")


def deal_terms(name: str, corners: Sequence[str | None], dragon: str | None) -> tuple[Term, Term]:
    """Return what a player's points for a checked deal are made of: a point for each
    corner they crowned (which, by place), one for slaying the dragon."""
    crowned = tuple(index for index, entry in enumerate(corners) if entry == name)
    slain = 1 if name == dragon else 0
    return (Term("corner", len(crowned), 1, len(crowned), crowned),
            Term("dragon", slain, 1, slain))


def score_deal(players: Sequence[str], corners: Sequence[str | None],
               dragon: str | None) -> dict[str, Any]:
    """Return a checked deal's points, its winner (None on a draw) and its victory class."""
    points = {}
    for name in players:
        crowned, slain = deal_terms(name, corners, dragon)
        points[name] = crowned.total + slain.total
    best = max(points.values())
    leaders = [name for name in players if points[name] == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return {"points": points, "deal_winner": winner, "victory": victory(points, winner)}


def preview_deal(players: Sequence[str], corners: Sequence[str | None],
                 dragon: str | None) -> dict[str, Any]:
    """Check and score one deal as typed so far: points, deal_winner, victory."""
    return score_deal(players, check_deal(players, corners, dragon), dragon)


def dragon_of(players: Sequence[str], rnd: Round) -> str | None:
    """Return who slew the dragon: `dragon`, else `went_out` (the first to empty their hand)."""
    if rnd.went_out is None:
        return rnd.dragon
    if rnd.went_out not in players:
        raise RuleError("%(name)s is not a player in this game", "went_out",
                        name=repr(rnd.went_out))
    if rnd.dragon is not None and rnd.dragon != rnd.went_out:
        raise RuleError("the first to empty their hand slays the dragon, so went_out must "
                        "be the dragon (%(dragon)s), not %(went_out)s", "went_out",
                        dragon=rnd.dragon, went_out=rnd.went_out)
    return rnd.went_out


class CoronationTable(Table):
    """Deals won and points scored while a match's deals are replayed."""

    already_over = Word("the match was already over after deal %(number)s")
    already_over_field = "dragon"

    def __init__(self, game: Game):
        super().__init__(game.players, game.first_dealer)
        self.deals_to_win = game.settings["deals_to_win"]
        self.won = {name: 0 for name in self.players}
        self.points_total = {name: 0 for name in self.players}
        self.deciding_victory: str | None = None

    def play_round(self, number: int, rnd: Round) -> RoundResult:
        """Score one deal; playing first is an advantage, so the start alternates."""
        dragon = dragon_of(self.players, rnd)
        corners = check_deal(self.players, rnd.corners, dragon)
        deal = score_deal(self.players, corners, dragon)
        winner = deal["deal_winner"]
        if winner is not None:
            self.won[winner] += 1
        for name in self.players:
            self.points_total[name] += deal["points"][name]
        extra = dict(deal, corners=list(corners), dragon=dragon)
        hand_winners = (winner,) if winner is not None else ()
        result = RoundResult(number, self.dealer, self.first_player(), hand_winners,
                             dict(deal["points"]), dict(self.won), extra)
        if winner is not None and self.won[winner] >= self.deals_to_win:
            self.over = True
            self.deciding_victory = deal["victory"]
        self.dealer = left_of(self.players, self.dealer)
        return result

    def totals(self) -> dict[str, int]:
        """Return the deals won so far."""
        return dict(self.won)

    def extra(self) -> dict[str, Any]:
        """Return the class of the deciding deal and the points scored in all."""
        return {"deciding_victory": self.deciding_victory,
                "points_total": dict(self.points_total)}


class Coronation(Variant):
    """Coronation (docs/rules.md): two players, points per deal, deals won decide the match."""

    name = "coronation"
    label = N_("Coronation")
    blurb = N_("Two players. A point for each corner crowned King to Ace and one for "
               "slaying the dragon; more points win the deal.")
    max_players = 2
    settings = SETTINGS
    presets: Mapping[str, Mapping[str, Any]] = {N_("standard"): DEFAULTS}

    def resolve_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full settings: defaults filled in, each value checked."""
        return resolve_settings(SETTINGS, DEFAULTS, given)

    def table(self, game: Game) -> CoronationTable:
        """Return a table of deals won."""
        return CoronationTable(game)

    def explain(self, game: Game, result: GameResult) -> tuple[dict[str, Why], ...]:
        """Return each deal's points as they were scored: corners crowned and the dragon."""
        explained = []
        for done in result.rounds:
            corners, dragon = done.extra["corners"], done.extra["dragon"]
            why = {}
            for name in game.players:
                terms = deal_terms(name, corners, dragon)
                why[name] = Why(terms, sum(term.total for term in terms),
                                name == done.extra["deal_winner"])
            explained.append(why)
        return tuple(explained)


CORONATION = Coronation()
