"""What every variant's play loop shares: replay rounds in order, then rank and crown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import GameResult, Round, RoundResult, RuleError, Why, Word
from .seats import check_seating, left_of


class Table:
    """A game being replayed round by round; each variant says how one round is played."""

    already_over = Word("the game was already over after round %(number)s")
    already_over_field = "went_out"

    def __init__(self, players: Sequence[str], first_dealer: str):
        self.players = tuple(players)
        self.dealer = first_dealer
        self.out: set[str] = set()
        self.over = False

    def first_player(self) -> str:
        """Return who plays first next: the player in the game left of the dealer."""
        return left_of(self.players, self.dealer, self.out)

    def play_round(self, number: int, rnd: Round) -> RoundResult:
        """Play one entered round, move the deal on, and say what it did."""
        raise NotImplementedError

    def totals(self) -> dict[str, int]:
        """Return what decides the game so far, per player."""
        raise NotImplementedError

    def extra(self) -> Mapping[str, Any]:
        """Return what the variant adds to the game's result."""
        return {}


def replay(table: Table, rounds: Sequence[Round]) -> tuple[RoundResult, ...]:
    """Play every round in order; refuse one after the end and tag errors with their round."""
    results = []
    for number, rnd in enumerate(rounds, start=1):
        if table.over:
            raise RuleError(table.already_over, table.already_over_field, number,
                            number=number - 1)
        try:
            results.append(table.play_round(number, rnd))
        except RuleError as error:
            raise error.at_round(number) from None
    return tuple(results)


def finish(table: Table, results: tuple[RoundResult, ...], ended: bool,
           lower_is_better: bool) -> GameResult:
    """Return where the game stands: ranking, winners once over, who deals next."""
    over = table.over or ended
    players = table.players
    totals = table.totals()
    sign = 1 if lower_is_better else -1
    ranking = tuple(sorted(players, key=lambda name: (sign * totals[name], players.index(name))))
    winners: tuple[str, ...] = ()
    if over:
        best = (min if lower_is_better else max)(totals.values())
        winners = tuple(name for name in players if totals[name] == best)
    return GameResult(
        rounds=results, totals=totals, over=over, winners=winners, ranking=ranking,
        next_dealer=None if over else table.dealer,
        next_first_player=None if over else table.first_player(),
        out=frozenset(table.out), extra=table.extra())


class Variant:
    """The rules of one variant: settings, seats, and how a table plays its rounds."""

    name = ""
    label = ""
    blurb = ""
    min_players = 2
    max_players = 6
    lower_is_better = False
    records_events = False  # its hands hold events tapped during them (see live())
    settings: tuple = ()
    presets: Mapping[str, Mapping[str, Any]] = {}
    # Its home on the web side (scorekeeper.variants), set there when the home registers:
    # the rules' registry is the one registry of variants, and their homes are found in it.
    home: Any = None

    def resolve_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full settings: defaults filled in, each value checked."""
        raise NotImplementedError

    def table(self, game) -> Table:
        """Return the table a game's rounds are replayed on."""
        raise NotImplementedError

    def explain(self, game, result: GameResult) -> tuple[dict[str, Why], ...]:
        """Return how each player's score of each round was worked out, from the same
        computation that scored it: a dict a round, of every player who took part."""
        raise NotImplementedError

    def live(self, game, events=(), result=None, number=None) -> dict[str, Any]:
        """Show the hand in progress after the events tapped during it, or refuse events."""
        raise RuleError("a %(variant)s game records no passes or penalties during a hand; "
                        "only a chip-pot game does", "kind", variant=Word(self.label.lower()))

    def replay(self, game) -> tuple[Table, tuple[RoundResult, ...]]:
        """Return the table after every entered round, and what each round did."""
        check_seating(game.players, game.first_dealer, self.min_players, self.max_players)
        table = self.table(game)
        return table, replay(table, game.rounds)

    def play(self, game) -> GameResult:
        """Score every round in order and tell where the game stands."""
        table, results = self.replay(game)
        return finish(table, results, game.ended, self.lower_is_better)
