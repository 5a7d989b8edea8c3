"""Variant 1, penalty points: cards left cost points; the lowest total wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Game, GameResult, Hand, RoundResult, RuleError, Setting, resolve_settings
from .hands import check_hands, hand_winners
from .seats import check_seating, left_of

SETTINGS = (
    Setting("target", "Play to", int, minimum=1, maximum=10_000, quick=(25, 50),
            help="The game ends after the hand in which a total gets there."),
    Setting("end_when", "Game ends when a total", str, choices=("reaches", "exceeds"),
            help="reaches: total ≥ target; exceeds: total > target."),
    Setting("king_points", "Points per king left", int, minimum=0, maximum=1000),
    Setting("card_points", "Points per other card left", int, minimum=0, maximum=1000),
)
DEFAULTS = {"target": 25, "end_when": "reaches", "king_points": 10, "card_points": 1}


def hand_points(hand: Hand, settings: Mapping[str, Any]) -> int:
    """Return the penalty for what a non-winner held."""
    return (settings["king_points"] * hand.kings
            + settings["card_points"] * (hand.cards - hand.kings))


def crossed(total: int, settings: Mapping[str, Any]) -> bool:
    """Tell whether a total has got to the target under this game's `end_when`."""
    if settings["end_when"] == "exceeds":
        return total > settings["target"]
    return total >= settings["target"]


class Penalty:
    """Penalty points (seeds 000, 001, 004)."""

    name = "penalty"
    label = "Penalty points"
    blurb = "Cards left cost points; kings cost more. Lowest total wins."
    min_players = 2
    max_players = 6
    lower_is_better = True
    settings = SETTINGS
    presets: Mapping[str, Mapping[str, Any]] = {"standard": DEFAULTS}

    def resolve_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full settings: defaults filled in, each value checked."""
        return resolve_settings(SETTINGS, DEFAULTS, given)

    def play(self, game: Game) -> GameResult:
        """Score every round in order and tell where the game stands."""
        settings = game.settings
        players = game.players
        check_seating(players, game.first_dealer, self.min_players, self.max_players)
        totals = {name: 0 for name in players}
        results: list[RoundResult] = []
        dealer = game.first_dealer
        over = False
        for number, rnd in enumerate(game.rounds, start=1):
            if over:
                raise RuleError(f"the game was already over after round {number - 1}",
                                "went_out", number)
            try:
                hands = check_hands(players, rnd)
            except RuleError as error:
                raise error.at_round(number)
            winners = hand_winners(players, rnd, hands)
            scores = {name: 0 if name in winners else hand_points(hands[name], settings)
                      for name in players}
            for name in players:
                totals[name] += scores[name]
            results.append(RoundResult(number, dealer, left_of(players, dealer), winners,
                                       scores, dict(totals)))
            over = any(crossed(total, settings) for total in totals.values())
            dealer = left_of(players, dealer)
        over = over or game.ended
        ranking = tuple(sorted(players, key=lambda name: (totals[name], players.index(name))))
        winners = ()
        if over:
            best = min(totals.values())
            winners = tuple(name for name in players if totals[name] == best)
        return GameResult(
            rounds=tuple(results), totals=totals, over=over, winners=winners, ranking=ranking,
            next_dealer=None if over else dealer,
            next_first_player=None if over else left_of(players, dealer),
        )

    def to_target(self, game: Game, total: int) -> int:
        """Return how many points a total may still take before the game ends."""
        target = game.settings["target"]
        return target - total if game.settings["end_when"] == "reaches" else target - total + 1


PENALTY = Penalty()
