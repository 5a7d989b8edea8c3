"""Penalty points at the table: the cards form, running totals, points to go."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import rules
from ...rules.penalty import PENALTY, hand_points, to_target
from ...words import plural
from ..base import Entry, FactLine, winners_win
from ..cards import KINGS_LEFT, CardsHome


class PenaltyHome(CardsHome):
    """Penalty points: cards left cost points, the lowest total wins."""

    rules = PENALTY
    fact_lines = (
        FactLine("penalty_per_hand", "Penalty per hand", "penalty_hands",
                 lambda f: (f"{f['penalty_points'] / f['penalty_hands']:.1f}",
                            f"{plural(f['penalty_points'], 'point')} in "
                            f"{plural(f['penalty_hands'], 'hand')}", "")),
        KINGS_LEFT,
    )

    def summary(self, settings: Mapping[str, Any]) -> str:
        """Return e.g. "to 25 · king 10, card 1"."""
        when = "" if settings["end_when"] == "reaches" else " (must pass it)"
        return (f"to {settings['target']}{when} · king {settings['king_points']}, "
                f"card {settings['card_points']}")

    def totals_label(self, settings: Mapping[str, Any]) -> str:
        """Return "Penalty points"."""
        return "Penalty points"

    def standing_note(self, game, name: str) -> str:
        """Return how many points a player may still take, while the game is on."""
        if game.result.over:
            return ""
        left = to_target(game.core.settings, game.result.totals[name])
        return f"{left} to go" if left > 0 else f"reached {game.core.settings['target']}"

    def facts(self, name, rnd, done) -> dict[str, int]:
        """Add the hand's penalty points to the kings left."""
        found = super().facts(name, rnd, done)
        return {**found, "penalty_hands": 1, "penalty_points": done.scores[name]}

    def preview(self, game, number: int, entry: Entry) -> dict[str, Any]:
        """Return each tapped player's points and new total, and whether the hand ends it."""
        core = game.core
        rnd = entry.round
        after = None
        if not entry.errors:
            # The game as it would stand with this hand: replayed once, instead of the stored.
            try:
                after = rules.play(game.with_rounds(core.rounds[:number - 1] + (rnd,)))
            except rules.RuleError:
                after = None
        known = self.known_hands(core.players, rnd, entry.errors)
        winners = self.preview_winners(core.players, rnd, known)
        rounds = (after or game.result).rounds
        before = rounds[number - 2].totals if number > 1 else {}
        said: dict[str, str] = {}
        for name, hand in known.items():
            if winners is None:
                continue
            total = before.get(name, 0)
            if name in winners:
                said[name] = f"wins · {total}"
            else:
                points = hand_points(rules.Hand(hand.cards, min(hand.kings, hand.cards)),
                                     core.settings)
                said[name] = f"+{points} → {total + points}"
        # `after` ends with this hand when it is the last (see Home.after_round).
        ends = self.ending(core, after) if after and number >= len(core.rounds) else ""
        return {"players": said, "ends": ends}

    def ending(self, core: rules.Game, after: rules.GameResult) -> str:
        """Return "Dee reaches 25: the game ends, Cy wins." when the hand ends the game."""
        if not after.over:
            return ""
        settings = core.settings
        crossed = [name for name in core.players if to_target(settings, after.totals[name]) <= 0]
        verb = "reaches" if settings["end_when"] == "reaches" else "passes"
        return (f"{' & '.join(crossed)} {verb} {settings['target']}: the game ends, "
                f"{winners_win(after)}.")


HOME = PenaltyHome()
