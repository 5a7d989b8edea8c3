"""Coronation at the table: five taps a deal, deals won face to face, victory classes.

The deal form posts `corner-0` .. `corner-3` and `dragon`, each a seat number or "none".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext, ngettext

from ... import rules
from ...rules.coronation import CORNERS, CORONATION, check_deal, score_deal
from ...words import N_, together
from ..base import (
    NOBODY,
    Entry,
    Errors,
    FactLine,
    Home,
    RecordLine,
    comeback,
    read_seat,
    seat_of,
    winners_win,
)
from ..standings import Page

CORNER_INPUT = re.compile(r"corner-([0-9]{1,3})")
# A deal's victory class in a sentence, and heading the banner (translated where shown).
CLASS_LINE = {"absolute": N_("an absolute victory"), "incredible": N_("an incredible victory"),
              "normal": N_("a normal victory")}
CLASS_HEAD = {"absolute": N_("An absolute victory"), "incredible": N_("An incredible victory"),
              "normal": N_("A normal victory")}


def _who(raw: str, name: str, players: Sequence[str], errors: Errors) -> str | None:
    """Return the player a tapped value names, None for nobody; note anyone else."""
    if raw == NOBODY:
        return None
    player = read_seat(raw, players)
    if player is None:
        errors.add(name, gettext("That is not a player in this game: tap %(names)s, or "
                                 "Nobody", names=gettext(" or ").join(players)))
    return player


class CoronationHome(Home):
    """Coronation: two players, a point a corner crowned and one for the dragon."""

    rules = CORONATION
    in_a_sentence = N_("coronation")
    round_word = "deal"
    csv_columns = ("corners", "deal_winner", "victory")
    round_keys = frozenset({"corners", "dragon", "went_out"})
    round_contents = N_("corners and the dragon")
    result_keys = ("deal_winner", "victory")
    assets = ("variants/coronation/coronation.css",)
    fact_lines = (
        FactLine("coronations", N_("Coronations"), "deals",
                 lambda f: (str(f["coronations"]),
                            ngettext("corners crowned in %(num)d deal",
                                     "corners crowned in %(num)d deals", f["deals"]), "")),
        FactLine("dragons", N_("Dragons slain"), "deals", lambda f: (str(f["dragons"]), "", "")),
    )
    record_lines = (
        RecordLine("best_absolute", N_("Most 5–0 deals in one match"),
                   lambda n: ngettext("%(num)d deal won 5–0", "%(num)d deals won 5–0", n),
                   N_("%(name)s had %(value)s in one match: the table's %(variant)s record")),
        comeback(lambda n: ngettext("%(num)d deal", "%(num)d deals", n)))

    def summary(self, settings: Mapping[str, Any]) -> str:
        """Return e.g. "first to 3 deals"."""
        return ngettext("first to %(num)d deal", "first to %(num)d deals",
                        settings["deals_to_win"])

    def unit(self, settings: Mapping[str, Any], count: int = 2) -> str:
        """Return "deals" ("deal" for 1)."""
        return self.word(count)

    def totals_label(self, settings: Mapping[str, Any]) -> str:
        """Return "Deals won"."""
        return gettext("Deals won")

    def target(self, settings: Mapping[str, Any]) -> int | None:
        """Return the deals that win the match."""
        return settings.get("deals_to_win")

    # -- the deal form ----------------------------------------------------------------
    def read_round(self, form, players, errors, sits_out=()) -> rules.Round:
        """Return the deal the form describes; note rows left untapped in `errors`."""
        posted = {int(m.group(1)) for key in form if (m := CORNER_INPUT.fullmatch(key))}
        corners: list[str | None] = []
        for index in sorted(set(range(CORNERS)) | posted):
            raw = (form.get(f"corner-{index}") or "").strip()
            if index >= CORNERS:
                # Not on the form: passed on for the rules to refuse as a corner too many.
                if raw:
                    corners.append(_who(raw, "corners", players, errors))
            elif not raw:
                errors.add(f"corner-{index}", gettext("Tap who crowned corner %(number)s, or "
                                                      "Nobody", number=index + 1))
            else:
                corners.append(_who(raw, f"corner-{index}", players, errors))
        raw_dragon = (form.get("dragon") or "").strip()
        if not raw_dragon:
            errors.add("dragon", gettext("Tap who slew the dragon (emptied their hand first), "
                                         "or Nobody"))
        dragon = _who(raw_dragon, "dragon", players, errors) if raw_dragon else None
        return rules.Round(corners=tuple(corners), dragon=dragon)

    def round_values(self, players, rnd) -> dict[str, str]:
        """Return a stored deal as the form's inputs, so a correction opens filled in."""
        corners = list(rnd.corners) + [None] * (CORNERS - len(rnd.corners))
        values = {f"corner-{index}": seat_of(players, name) for index, name in enumerate(corners)}
        # An imported deal may name the dragon slayer as the one who went out.
        values["dragon"] = seat_of(players, rnd.dragon if rnd.dragon is not None
                                   else rnd.went_out)
        return values

    def describe(self, players, rnd) -> str:
        """Return e.g. "corners Ann, Ben, nobody, Ann; dragon Ann"."""
        nobody = gettext("nobody")
        corners = (", ".join(name or nobody for name in rnd.corners)
                   or gettext("none crowned"))
        dragon = rnd.dragon if rnd.dragon is not None else rnd.went_out
        return gettext("corners %(corners)s; dragon %(dragon)s", corners=corners,
                       dragon=dragon or nobody)

    part_kind = "deal"  # each of the two players sends the whole deal; they must agree

    def parts_form(self, game, number: int, gathered) -> dict[str, str]:
        """Return the deal both players agree on as the deal form posts it."""
        names = [NOBODY if seat < 0 else str(seat) for seat in gathered.deal]
        return {**{f"corner-{index}": names[index] for index in range(CORNERS)},
                "dragon": names[CORNERS]}

    def form_inputs(self, players: Sequence[str]) -> list[str]:
        """Return the four corners, then the dragon."""
        return [f"corner-{index}" for index in range(CORNERS)] + ["dragon"]

    def hand_form(self, game, number: int, editing: bool) -> dict[str, Any]:
        """Add the four corners' inputs and whether this deal can decide the match."""
        return {**super().hand_form(game, number, editing),
                "corners": [f"corner-{i}" for i in range(CORNERS)]}

    def preview(self, game, number: int, entry: Entry) -> dict[str, Any]:
        """Return the deal's points as tapped, who leads or wins it, its class, the match."""
        players = game.core.players
        rnd = entry.round
        corners = [c for c in rnd.corners]
        try:
            check_deal(players, corners, rnd.dragon)
        except rules.RuleError:
            return {}
        deal = score_deal(players, corners, rnd.dragon)
        tapped = len(corners) + (0 if "dragon" in entry.errors.by_input else 1)
        done = not entry.errors and tapped == CORNERS + 1
        winner, victory = deal["deal_winner"], deal["victory"]
        if not tapped:
            verdict = gettext("Tap who crowned each corner and who slew the dragon.")
        elif winner is None:
            verdict = (gettext("A draw: nobody wins this deal.") if done
                       else gettext("Level so far."))
        elif not done:
            verdict = gettext("%(name)s leads so far", name=winner)
        else:
            verdict = gettext("%(name)s wins the deal: %(victory)s.", name=winner,
                              victory=gettext(CLASS_LINE[victory]))
        after = self.after_round(game, number, rnd) if done else None
        return {"points": deal["points"], "winner": winner, "verdict": verdict,
                "victory": victory if done else "",
                "ends": self.ending(game.core, after) if after else ""}

    def ending(self, core: rules.Game, after: rules.GameResult) -> str:
        """Return "Ann has won 3 deals: the match ends, Ann wins." when the deal decides it."""
        if not after.over:
            return ""
        deals = max(after.totals.values())
        leaders = " & ".join(after.winners)
        won = (ngettext("%(names)s has won %(num)d deal", "%(names)s has won %(num)d deals",
                        deals, names=leaders) if len(after.winners) == 1 else
               ngettext("%(names)s have won %(num)d deal", "%(names)s have won %(num)d deals",
                        deals, names=leaders))
        return gettext("%(won)s: the match ends, %(win)s.", won=won, win=winners_win(after))

    # -- the scoreboard ---------------------------------------------------------------
    def scoreboard(self, game, page: Page) -> dict[str, Any]:
        """Return deals won face to face and every deal's points and class."""
        result = game.result
        top, second = result.ranking
        leader = top if result.totals[top] > result.totals[second] else None
        return {"leader": leader, "to_win": game.core.settings["deals_to_win"],
                "points_total": result.extra["points_total"]}

    def banner_note(self, game) -> tuple[str, str] | None:
        """Return the class of the deciding deal, e.g. "An absolute victory: 5–0 ..."."""
        victory = game.result.extra.get("deciding_victory")
        if not victory:
            return None
        score = "–".join(str(p) for p in sorted(game.result.rounds[-1].scores.values(),
                                                 reverse=True))
        return (gettext("%(victory)s: %(score)s in the deciding deal.",
                        victory=gettext(CLASS_HEAD[victory]), score=score), victory)

    # -- reports ----------------------------------------------------------------------
    def rules_lines(self, core: rules.Game) -> list[str]:
        """Return what scores a point, how a deal is won and its classes, and the match."""
        return [
            gettext("Two players. Each deal, a point for each corner crowned King to Ace, "
                    "and one for slaying the dragon: being the first to empty your hand."),
            gettext("More points win the deal; equal points draw it. 5–0 is an absolute "
                    "victory, 4 points an incredible one."),
            ngettext("The first to win %(num)d deal wins the match.",
                     "The first to win %(num)d deals wins the match.",
                     core.settings["deals_to_win"]),
        ]

    def why_words(self, settings: Mapping[str, Any], name: str, why: rules.Why,
                  done: rules.RoundResult) -> str:
        """Return e.g. "Ann: corners crowned: 1 and 3; the dragon: slain: 3 points"."""
        crowned, dragon = why.terms
        corners = (together(str(index + 1) for index in crowned.which) if crowned.count
                   else gettext("none"))
        return gettext("%(name)s: corners crowned: %(corners)s; the dragon: %(dragon)s: "
                       "%(points)s", name=name, corners=corners,
                       dragon=gettext("slain") if dragon.count else gettext("not slain"),
                       points=ngettext("%(num)d point", "%(num)d points", why.score))

    def csv_cells(self, core, rnd, done, name) -> dict[str, Any]:
        """Return the dragon as who went out, the corners crowned and the deal's class."""
        return {"went_out": name == done.extra.get("dragon"), "cards": "", "kings": "",
                "corners": sum(1 for who in done.extra.get("corners", ()) if who == name),
                "deal_winner": done.extra.get("deal_winner"),
                "victory": done.extra.get("victory", "")}

    def facts(self, name, rnd, done) -> dict[str, int]:
        """Count the deal, the corners a player crowned and a dragon slain."""
        return {"deals": 1, "coronations": sum(1 for who in done.extra["corners"] if who == name),
                "dragons": int(done.extra["dragon"] == name)}

    def bests(self, name, core, result) -> dict[str, int]:
        """Add `best_absolute`, the deals the player won 5–0 (every corner and the dragon:
        an absolute victory) in the match."""
        return {**super().bests(name, core, result),
                "best_absolute": sum(1 for done in result.rounds
                                     if done.extra.get("deal_winner") == name
                                     and done.extra.get("victory") == "absolute")}

    def render_round(self, core, rnd) -> dict[str, Any]:
        """Return who crowned each corner and who slew the dragon."""
        # A log may name the dragon slayer as `went_out`; export says `dragon`.
        dragon = rnd.dragon if rnd.dragon is not None else rnd.went_out
        return {"corners": list(rnd.corners), "dragon": dragon}


HOME = CoronationHome()
