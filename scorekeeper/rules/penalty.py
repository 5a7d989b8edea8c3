"""Variant 1, penalty points: cards left cost points; the lowest total wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import (
    N_,
    Game,
    GameResult,
    Hand,
    Round,
    RoundResult,
    Setting,
    Term,
    Why,
    resolve_settings,
)
from .hands import check_hands, hand_winners
from .seats import left_of
from .table import Table, Variant

SETTINGS = (
    Setting("target", N_("Play to"), int, minimum=1, maximum=10_000, quick=(25, 50),
            help=N_("The game ends after the hand in which a total gets there.")),
    Setting("end_when", N_("Game ends when a total"), str,
            choices=(N_("reaches"), N_("exceeds")),
            help=N_("reaches: total ≥ target; exceeds: total > target.")),
    Setting("king_points", N_("Points per king left"), int, minimum=0, maximum=1000),
    Setting("card_points", N_("Points per other card left"), int, minimum=0, maximum=1000),
)
DEFAULTS = {"target": 25, "end_when": "reaches", "king_points": 10, "card_points": 1}


def hand_terms(hand: Hand, settings: Mapping[str, Any]) -> tuple[Term, Term]:
    """Return what a non-winner's penalty is made of: the other cards, then the kings."""
    others, kings = hand.cards - hand.kings, hand.kings
    card_points, king_points = settings["card_points"], settings["king_points"]
    return (Term("card", others, card_points, others * card_points),
            Term("king", kings, king_points, kings * king_points))


def hand_points(hand: Hand, settings: Mapping[str, Any]) -> int:
    """Return the penalty for what a non-winner held: its terms added up."""
    cards, kings = hand_terms(hand, settings)
    return cards.total + kings.total


def crossed(total: int, settings: Mapping[str, Any]) -> bool:
    """Tell whether a total has got to the target under this game's `end_when`."""
    if settings["end_when"] == "exceeds":
        return total > settings["target"]
    return total >= settings["target"]


def to_target(settings: Mapping[str, Any], total: int) -> int:
    """Return how many points a total may still take before the game ends."""
    target = settings["target"]
    return target - total if settings["end_when"] == "reaches" else target - total + 1


class PenaltyTable(Table):
    """Running penalty totals while a game's hands are replayed."""

    def __init__(self, game: Game):
        super().__init__(game.players, game.first_dealer)
        self.settings = game.settings
        self.running = {name: 0 for name in self.players}

    def play_round(self, number: int, rnd: Round) -> RoundResult:
        """Score one hand: the winners 0, everyone else what they held."""
        hands = check_hands(self.players, rnd)
        winners = hand_winners(self.players, rnd, hands)
        scores = {name: 0 if name in winners else hand_points(hands[name], self.settings)
                  for name in self.players}
        for name in self.players:
            self.running[name] += scores[name]
        result = RoundResult(number, self.dealer, self.first_player(), winners, scores,
                             dict(self.running))
        # The highest total is the first to get there.
        self.over = crossed(max(self.running.values(), default=0), self.settings)
        self.dealer = left_of(self.players, self.dealer)
        return result

    def totals(self) -> dict[str, int]:
        """Return the penalty points so far."""
        return dict(self.running)


class Penalty(Variant):
    """Penalty points (docs/rules.md, "Penalty points")."""

    name = "penalty"
    label = N_("Penalty points")
    blurb = N_("Cards left cost points; kings cost more. Lowest total wins.")
    lower_is_better = True
    settings = SETTINGS
    presets: Mapping[str, Mapping[str, Any]] = {N_("standard"): DEFAULTS}

    def resolve_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full settings: defaults filled in, each value checked."""
        return resolve_settings(SETTINGS, DEFAULTS, given)

    def table(self, game: Game) -> PenaltyTable:
        """Return a table of running penalty totals."""
        return PenaltyTable(game)

    def explain(self, game: Game, result: GameResult) -> tuple[dict[str, Why], ...]:
        """Return each hand's penalties as they were worked out: 0 for going out or for
        the fewest cards of a stalemate, else the terms of what was held (hand_terms,
        whose sum is the score)."""
        settings = game.settings  # as the table scores it
        explained = []
        for rnd, done in zip(game.rounds, result.rounds):
            hands = check_hands(game.players, rnd)
            why = {}
            for name in game.players:
                if name == rnd.went_out:
                    why[name] = Why((), 0, won=True)
                elif name in done.hand_winners:  # the fewest cards of a stalemate cost 0
                    why[name] = Why((Term("fewest", hands[name].cards, 0, 0),), 0, won=True)
                else:
                    terms = hand_terms(hands[name], settings)
                    why[name] = Why(terms, sum(term.total for term in terms))
            explained.append(why)
        return tuple(explained)


PENALTY = Penalty()
