"""The chip pot at the table: the live pot, the payout preview, each hand's story."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, ngettext

from ... import rules
from ...rules.chips import CHIPS
from ...rules.chips_pot import cards_owed, pay, pot_of, split_pot
from ...words import N_, together
from ..base import Entry, FactLine, RecordLine, comeback, winners_win
from ..cards import KINGS, KINGS_LEFT, CardsHome
from ..standings import Page
from . import live, told

# How a setting that differs from its set is named in the summary.
CHANGED = {"ante": N_("ante %(num)s"), "pass_chips": N_("pass %(num)s"),
           "king_held_chips": N_("king held %(num)s"),
           "missed_draw_chips": N_("missed draw %(num)s"), "card_chips": N_("card %(num)s"),
           "king_chips": N_("king %(num)s")}
SET_NAMES = {"house": N_("House set"), "jax": N_("Jax set"), "standard": N_("Standard set")}
# What each event pays, in "During the hand: a pass pays 1".
PAYS = {"pass_chips": N_("a pass pays %(num)s"),
        "king_held_chips": N_("being caught holding a king pays %(num)s"),
        "missed_draw_chips": N_("forgetting to draw pays %(num)s")}
EVENT_COLUMNS = {"pass": "passes", "king_held": "king_held", "missed_draw": "missed_draw"}


def _chips_line(facts: Mapping[str, int]) -> tuple[str, str, str]:
    """Return a player's chips won minus paid, with both."""
    net = facts["chips_won"] - facts["chips_lost"]
    return (f"{net:+d}", gettext("won %(won)s in pots, paid %(paid)s",
                                 won=facts["chips_won"], paid=facts["chips_lost"]),
            "good" if net > 0 else ("bad" if net < 0 else ""))


def _chips(count: int) -> str:
    """Return "12 chips" ("1 chip")."""
    return ngettext("%(num)d chip", "%(num)d chips", count)


class ChipsHome(CardsHome):
    """The chip pot: antes, passes and cards left pay into a pot the hand's winner takes."""

    rules = CHIPS
    in_a_sentence = N_("chip pot")
    csv_columns = ("passes", "king_held", "missed_draw", "stack", "pot")
    round_keys = frozenset({"went_out", "hands", "events"})
    round_contents = N_("who went out, the cards left and the chip events")
    result_keys = ("pot", "stacks")
    fact_lines = (KINGS_LEFT, FactLine("chips", N_("Chips"), "chips_paid_or_won", _chips_line))
    record_lines = (
        RecordLine("best_pot", N_("Biggest pot won"), _chips,
                   N_("%(name)s took a pot of %(value)s: the table's %(variant)s record")),
        KINGS, comeback(_chips))
    assets = ("variants/chips/chips.css", "variants/chips/chips.js")
    sets_help = N_("House: 50 chips each, stacks carry over, 0 chips is out. Jax, the boxed "
                   "set: its 80 chips split evenly and re-split every hand; play to 100.")

    def summary(self, settings: Mapping[str, Any]) -> str:
        """Return the set, how its chips are dealt, what differs from the set, the target."""
        preset = CHIPS.presets.get(settings.get("preset"), {})
        name = str(settings.get("preset", ""))
        words = [gettext(SET_NAMES[name]) if name in SET_NAMES else f"{name.capitalize()} set"]
        words.append(gettext("%(num)s each", num=settings["start_chips"])
                     if settings.get("start_chips") is not None
                     else gettext("%(num)s split", num=settings.get("total_chips")))
        words += [gettext(word, num=settings[key]) for key, word in CHANGED.items()
                  if key in settings and settings[key] != preset.get(key)]
        if settings.get("reset_each_hand") != preset.get("reset_each_hand"):
            words.append(gettext("re-split each hand") if settings.get("reset_each_hand")
                         else gettext("stacks carry over"))
        if settings.get("target"):
            words.append(gettext("to %(target)s", target=settings["target"]))
        return " · ".join(words)

    def unit(self, settings: Mapping[str, Any], count: int = 2) -> str:
        """Return "pts" for pots won, "chips" for stacks (singular for 1)."""
        if settings.get("reset_each_hand"):
            return super().unit(settings, count)
        return ngettext("chip", "chips", count)

    def totals_label(self, settings: Mapping[str, Any]) -> str:
        """Return what a total counts: the score (pots won) or the chips."""
        return (gettext("Score (pots won)") if settings.get("reset_each_hand")
                else gettext("Chips"))

    def chart_start(self, core: rules.Game, result: rules.GameResult) -> dict[str, int]:
        """Return the stacks as dealt when they carry over, else nothing won yet."""
        if core.settings.get("reset_each_hand"):
            return super().chart_start(core, result)
        return dict(result.extra["dealt"])

    # -- the hand form ----------------------------------------------------------------
    def sitting_out(self, game, number: int) -> tuple[str, ...]:
        """Return who is out of the game before hand `number`."""
        pot = live.pot_so_far(game, number)
        if pot is None:
            return tuple(name for name in game.core.players if name in game.result.out)
        return tuple(name for name in game.core.players if name not in pot["players"])

    def hand_form(self, game, number: int, editing: bool) -> dict[str, Any]:
        """Add the pot so far: antes and the taps of the hand."""
        settings = CHIPS.resolve_settings(game.core.settings)
        return {**super().hand_form(game, number, editing), "pot": live.pot_so_far(game, number),
                "card_chips": settings["card_chips"], "king_chips": settings["king_chips"]}

    def preview(self, game, number: int, entry: Entry) -> dict[str, Any]:
        """Return who pays what for the cards tapped so far, and who takes the pot."""
        # The game with this hand, when it is whole and the last: its end, and the pot before.
        after = None if entry.errors else self.after_round(game, number, entry.round)
        pot = live.pot_so_far(game, number, after)
        if pot is None:
            return {}
        settings = CHIPS.resolve_settings(game.core.settings)
        in_hand = pot["players"]
        rnd = entry.round
        known = self.known_hands(in_hand, rnd, entry.errors, game.core.players)
        winners = self.preview_winners(in_hand, rnd, known)
        stacks, flows = dict(pot["stacks"]), [dict(flow) for flow in pot["flows"]]
        said: dict[str, str] = {}
        lines = []
        for name in in_hand:
            if winners is not None and name in winners:
                continue
            if name not in known:
                # Not tapped yet, or tapped but impossible (flagged at the player's keys).
                lines.append({"text": name, "what": gettext("check above") if name in rnd.hands
                              else gettext("cards left?")})
                continue
            pay(stacks, flows, name, "cards", cards_owed(known[name], settings))
            paid, owed = flows[-1]["chips"], flows[-1]["owed"]
            what = ([gettext("all %(paid)s left, of %(owed)s owed", paid=paid, owed=owed)]
                    if paid < owed else [])
            if not settings["reset_each_hand"] and stacks[name] == 0:
                what.append(gettext("out of the game"))
            lines.append({"text": gettext("%(name)s pays %(chips)s", name=name, chips=paid),
                          "what": " · ".join(what)})
            said[name] = gettext("pays %(chips)s", chips=paid) + (
                "" if settings["reset_each_hand"] else f" → {stacks[name]}") + (
                f" · {gettext('out')}" if not settings["reset_each_hand"] and stacks[name] == 0
                else "")
        if winners:
            total = pot_of(flows)
            shares = split_pot(total, winners, game.core.players, pot["dealer"])
            order = [name for name in pot["order"] if name in shares]
            for name in order:
                said[name] = gettext("takes %(chips)s", chips=shares[name])
            if len(order) == 1:
                lines.append({"text": gettext("%(name)s takes the %(num)s-chip pot",
                                              name=order[0], num=total),
                              "what": "", "takes": True})
            else:
                lines.append({"text": gettext("%(names)s split the %(num)s-chip pot",
                                              names=" & ".join(order), num=total),
                              "what": ", ".join(f"{n} {shares[n]}" for n in order),
                              "takes": True})
        shown = lines if rnd.went_out is not None or known else []
        return {"players": said, "lines": shown,
                "takes": next((line["text"] for line in shown if line.get("takes")), ""),
                "ends": self.ending(game.core, after) if after else ""}

    def ending(self, core: rules.Game, after: rules.GameResult) -> str:
        """Return why the hand ends the game: a stack or score at the target, or one player
        left holding chips ("Ben is out of chips: the game ends, Ann wins.")."""
        if not after.over:
            return ""
        done = after.rounds[-1]
        target = CHIPS.resolve_settings(core.settings)["target"]
        why = []
        reached = [name for name in core.players if target is not None
                   and done.totals[name] >= target]
        if reached:
            why.append(ngettext("%(names)s reaches %(target)s", "%(names)s reach %(target)s",
                                len(reached), names=" & ".join(reached), target=target))
        busted = list(done.extra["busted"])
        if busted and not reached:
            why.append(ngettext("%(names)s is out of chips", "%(names)s are out of chips",
                                len(busted), names=" & ".join(busted)))
        if why:
            return gettext("%(why)s: the game ends, %(win)s.", why=", ".join(why),
                           win=winners_win(after))
        return gettext("The game ends, %(win)s.", win=winners_win(after))

    # -- the scoreboard ---------------------------------------------------------------
    def standing_note(self, game, name: str) -> str:
        """Return how far a stack or score is from the target, or from what was dealt."""
        result, settings = game.result, game.core.settings
        total, target = result.totals[name], settings.get("target")
        if target and total < target:
            return gettext("%(num)s to go", num=target - total)
        if target:
            return gettext("reached %(target)s", target=target)
        if name in result.out:
            return gettext("no chips left")
        dealt = result.extra["dealt"][name]
        if total == dealt:
            return gettext("even since the start")
        return gettext("%(change)s since the start", change=f"{total - dealt:+d}")

    def standings(self, game) -> list[dict[str, Any]]:
        """Lead only with a total ahead of the next player's."""
        rows = super().standings(game)
        if len(rows) > 1 and rows[0]["total"] <= rows[1]["total"]:
            rows[0]["lead"] = False
        return rows

    def scoreboard(self, game, page: Page) -> dict[str, Any]:
        """Return the stacks or scores, the chips in play and each hand's story."""
        result, settings = game.result, game.core.settings
        played = len(result.rounds)
        reset = settings["reset_each_hand"]
        heading = (gettext("Score: pots won") if reset else
                   gettext("Stacks after hand %(number)s", number=played) if played
                   else gettext("Stacks at the start"))
        if settings.get("target"):
            heading += " · " + gettext("to %(target)s", target=settings["target"])
        each = next(iter(result.extra["dealt"].values()))
        in_play, box = result.extra["chips_in_play"], result.extra["box"]
        if reset:
            note = (gettext("Every hand the %(num)s chips in play are re-split, %(each)s each",
                            num=in_play, each=each)
                    + (" " + gettext("(%(num)s stay in the box)", num=box) if box else "")
                    + gettext("; the hand's winner scores the pot."))
        else:
            note = gettext("%(num)s chips in play, %(each)s each at the start; a player with "
                           "no chips left is out.", num=in_play, each=each)
        stories = told.told(game.core, result, reset, lambda count: self.unit(settings, count))
        return {"standings": self.standings(game), "heading": heading, "note": note,
                "reset": reset, "stories": stories}

    def rules_lines(self, core: rules.Game) -> list[str]:
        """Return the chip set and its split, what each thing pays, who takes the pot, how
        the chips carry over or are re-split, and how the game ends."""
        settings = CHIPS.resolve_settings(core.settings)
        lines = []
        if settings["start_chips"] is not None:
            lines.append(gettext("Everyone starts with %(num)s chips.",
                                 num=settings["start_chips"]))
        else:
            total, players = settings["total_chips"], len(core.players)
            box = total % players
            lines.append(gettext("The %(total)s chips are split evenly: %(each)s each for "
                                 "%(players)s players.", total=total, each=total // players,
                                 players=players)
                         + ("" if not box else " " + ngettext(
                             "%(num)d stays in the box.", "%(num)d stay in the box.", box)))
        lines.append(gettext("Every hand, everyone antes %(num)s into the pot.",
                             num=settings["ante"]))
        events = [gettext(word, num=settings[key]) for key, word in PAYS.items() if settings[key]]
        if events:
            lines.append(gettext("During the hand: %(events)s.", events=together(events)))
        lines.append(gettext("At the end, everyone who did not go out pays %(card)s for each "
                             "card left and %(king)s for each king.",
                             card=settings["card_chips"], king=settings["king_chips"]))
        lines.append(gettext("The hand's winner takes the pot; in a stalemate the fewest "
                             "cards split it."))
        target = settings["target"]
        if settings["reset_each_hand"]:
            lines.append(gettext("The chips are re-split every hand: your score is the pots "
                                 "you won."))
            lines.append(gettext("The game ends after the hand in which a score reaches "
                                 "%(target)s; the highest score wins.", target=target)
                         if target else gettext("The highest score wins."))
        else:
            lines.append(gettext("Stacks carry over; a player with no chips left is out."))
            lines.append(gettext("The game ends after the hand in which a stack reaches "
                                 "%(target)s, or when one player holds all the chips; the "
                                 "most chips win.", target=target) if target else
                         gettext("The game ends when one player holds all the chips; the "
                                 "most chips win."))
        return lines

    def why_words(self, settings: Mapping[str, Any], name: str, why: rules.Why,
                  done: rules.RoundResult) -> str:
        """Return what a player paid into a hand's pot, who won it, and the net or score."""
        return told.why_words(name, why, done, settings["reset_each_hand"])

    def live(self, game) -> dict[str, Any] | None:
        """Return the live pot of the hand in progress."""
        return None if game.result.over else live.panel(game)

    # -- reports ----------------------------------------------------------------------
    def csv_cells(self, core, rnd, done, name) -> dict[str, Any]:
        """Add the player's taps, stack after the hand and the pot."""
        events = Counter((event.player, event.kind) for event in rnd.events)
        cells = super().csv_cells(core, rnd, done, name)
        for kind, column in EVENT_COLUMNS.items():
            cells[column] = events[(name, kind)]
        return {**cells, "stack": done.extra["stacks"][name], "pot": done.extra["pot"]}

    def facts(self, name, rnd, done) -> dict[str, int]:
        """Add the chips a player won in pots and paid in."""
        found = super().facts(name, rnd, done)  # a dict of its own, added to here
        for flow in done.extra["flows"]:  # a results cache counts 100,000 of these a decade
            if flow["player"] == name:
                key = "chips_won" if flow["kind"] == "pot" else "chips_lost"
                found[key] = found.get(key, 0) + flow["chips"]
        found["chips_paid_or_won"] = found.get("chips_won", 0) + found.get("chips_lost", 0)
        return found

    def bests(self, name, core, result) -> dict[str, int]:
        """Add `best_pot`, the most chips the player took from one pot (their share of a
        split pot)."""
        return {**super().bests(name, core, result),
                "best_pot": max((flow["chips"] for done in result.rounds
                                 for flow in done.extra["flows"]
                                 if flow["player"] == name and flow["kind"] == "pot"),
                                default=0)}

    def render_round(self, core, rnd) -> dict[str, Any]:
        """Add the hand's events in the order they happened."""
        return {**super().render_round(core, rnd),
                "events": [{"player": e.player, "kind": e.kind} for e in rnd.events]}


HOME = ChipsHome()
