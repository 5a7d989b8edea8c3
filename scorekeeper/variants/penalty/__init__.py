"""Penalty points at the table: the cards form, running totals, points to go."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, ngettext

from ... import rules
from ...rules.penalty import PENALTY, hand_points, to_target
from ...words import N_, decimal
from ..base import Entry, FactLine, comeback, winners_win
from ..cards import KINGS, KINGS_LEFT, CardsHome


class PenaltyHome(CardsHome):
    """Penalty points: cards left cost points, the lowest total wins."""

    rules = PENALTY
    in_a_sentence = N_("penalty points")
    fact_lines = (
        FactLine("penalty_per_hand", N_("Penalty per hand"), "penalty_hands",
                 lambda f: (decimal(f"{f['penalty_points'] / f['penalty_hands']:.1f}"),
                            ngettext("%(num)d point", "%(num)d points", f["penalty_points"])
                            + " " + ngettext("in %(num)d hand", "in %(num)d hands",
                                             f["penalty_hands"]), "")),
        KINGS_LEFT,
    )
    record_lines = (KINGS, comeback(lambda n: ngettext("%(num)d point", "%(num)d points", n)))

    def summary(self, settings: Mapping[str, Any]) -> str:
        """Return e.g. "to 25 · king 10, card 1"."""
        to = (gettext("to %(target)s", target=settings["target"])
              if settings["end_when"] == "reaches"
              else gettext("to %(target)s (must pass it)", target=settings["target"]))
        return to + " · " + gettext("king %(king)s, card %(card)s",
                                    king=settings["king_points"], card=settings["card_points"])

    def totals_label(self, settings: Mapping[str, Any]) -> str:
        """Return "Penalty points"."""
        return gettext("Penalty points")

    def standing_note(self, game, name: str) -> str:
        """Return how many points a player may still take, while the game is on."""
        if game.result.over:
            return ""
        left = to_target(game.core.settings, game.result.totals[name])
        return (gettext("%(num)s to go", num=left) if left > 0
                else gettext("reached %(target)s", target=game.core.settings["target"]))

    def rules_lines(self, core: rules.Game) -> list[str]:
        """Return the target and how it ends the game, what a card and a king cost, who wins."""
        settings = core.settings
        target = settings["target"]
        return [
            gettext("Play to %(target)s: the game ends after the hand in which a total "
                    "reaches %(target)s (%(target)s or more).", target=target)
            if settings["end_when"] == "reaches" else
            gettext("Play to %(target)s: the game ends after the hand in which a total "
                    "passes %(target)s (more than %(target)s).", target=target),
            gettext("Whoever goes out scores 0. Every other player scores %(king)s for each "
                    "king left in hand and %(card)s for each other card.",
                    king=settings["king_points"], card=settings["card_points"]),
            gettext("A stalemate (nobody can play): the fewest cards score 0, as if they "
                    "went out."),
            gettext("The lowest total wins; equal totals share the win."),
        ]

    def why_words(self, settings: Mapping[str, Any], name: str, why: rules.Why,
                  done: rules.RoundResult) -> str:
        """Return e.g. "Ben: 3 cards, 1 of them a king: 2 × 1 + 1 × 10 = 12"."""
        if why.won:
            if why.terms:
                return gettext("%(name)s: the fewest cards in the stalemate (%(num)s): 0",
                               name=name, num=why.terms[0].count)
            return gettext("%(name)s went out: 0", name=name)
        cards, kings = why.terms
        held = ngettext("%(num)d card", "%(num)d cards", cards.count + kings.count)
        if kings.count:
            held += ", " + ngettext("%(num)d of them a king", "%(num)d of them kings",
                                    kings.count)
        sums = [f"{term.count} × {term.each}" for term in why.terms if term.count]
        return gettext("%(name)s: %(held)s: %(sum)s = %(points)s", name=name, held=held,
                       sum=" + ".join(sums), points=why.score)

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
                said[name] = gettext("wins · %(total)s", total=total)
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
        names = " & ".join(crossed)
        if settings["end_when"] == "reaches":
            said = ngettext("%(names)s reaches %(target)s: the game ends, %(win)s.",
                            "%(names)s reach %(target)s: the game ends, %(win)s.",
                            len(crossed), names=names, target=settings["target"],
                            win=winners_win(after))
        else:
            said = ngettext("%(names)s passes %(target)s: the game ends, %(win)s.",
                            "%(names)s pass %(target)s: the game ends, %(win)s.",
                            len(crossed), names=names, target=settings["target"],
                            win=winners_win(after))
        return said


HOME = PenaltyHome()
