"""What every variant's home offers, with the defaults a variant changes only where it differs."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext, ngettext, npgettext

from .. import rules
from ..words import N_
from .standings import Cell, Page, Row, places

STALEMATE = "stalemate"
NOBODY = "none"


@dataclass
class Errors:
    """Messages keyed by form input name; `general` for the form as a whole."""

    by_input: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, message: str) -> None:
        """Keep the first message for an input."""
        self.by_input.setdefault(name, message)

    def __bool__(self) -> bool:
        return bool(self.by_input)


def winners_win(result: rules.GameResult) -> str:
    """Return "Cy wins" or "Ann & Cy win" for a game that is over."""
    return npgettext("in a sentence", "%(names)s wins", "%(names)s win", len(result.winners),
                     names=" & ".join(result.winners))


def parse_count(raw: str | None) -> int | None | str:
    """Return a typed count as int, None when blank, or the text when it is not a count."""
    text = (raw or "").strip()
    if not text:
        return None
    if re.fullmatch(r"[0-9]{1,9}", text):
        return int(text)
    return text


def read_count(form: Mapping[str, str], name: str, label: str, errors: Errors) -> int | None:
    """Return a whole, non-negative count from the form, noting an error for anything else."""
    value = parse_count(form.get(name))
    if isinstance(value, str):
        if re.fullmatch(r"[0-9]+", value):
            said = gettext("%(label)s is far too big (you typed “%(value)s”)")
        elif re.fullmatch(r"-\d+", value):
            said = gettext("%(label)s cannot be negative (you typed “%(value)s”)")
        else:
            said = gettext("%(label)s must be a whole number (you typed “%(value)s”)")
        errors.add(name, said % {"label": label, "value": value})
        return None
    return value


def read_seat(raw: str | None, players: Sequence[str]) -> str | None:
    """Return the player a tapped seat number names, or None when it names nobody seated."""
    text = (raw or "").strip()
    if re.fullmatch(r"[0-9]{1,2}", text) and int(text) < len(players):
        return players[int(text)]
    return None


def seat_of(players: Sequence[str], name: str | None, nobody: str = NOBODY) -> str:
    """Return a player's seat number as the form posts it, or `nobody`."""
    return nobody if name is None else str(players.index(name))


@dataclass(frozen=True)
class Entry:
    """A round as a form described it, with what could not be read."""

    round: rules.Round
    errors: Errors


@dataclass(frozen=True)
class FactLine:
    """One line of a player's hand-by-hand statistics, shown when its `needs` fact is not 0.

    `show(facts)` returns (figure, note, tone); tone is "good", "bad" or "".
    """

    key: str
    label: str
    needs: str
    show: Callable[[Mapping[str, int]], tuple[str, str, str]]


@dataclass(frozen=True)
class RecordLine:
    """One of a variant's records: the most of `fact`, a best a player set in one game.

    `said(value)` is the value in words ("3 kings"); `feat` is the story's sentence for it,
    with `%(name)s`, `%(value)s` (as said) and `%(variant)s`.
    """

    fact: str
    label: str
    said: Callable[[int], str]
    feat: str


# The comeback, in each variant's unit: a winner's furthest behind the leader after a round.
def comeback(unit: Callable[[int], str]) -> RecordLine:
    """Return the comeback record of a variant whose totals are counted in `unit`."""
    return RecordLine("best_comeback", N_("Biggest comeback"), unit,
                      N_("%(name)s won from %(value)s behind: the table's %(variant)s record"))


# What a round is called, and counted, in each language (see docs/glossary.md).
_WORDS = (N_("hand"), N_("hands"), N_("deal"), N_("deals"))
_ROUNDS = {"hand": lambda n: ngettext("%(num)d hand", "%(num)d hands", n),
           "deal": lambda n: ngettext("%(num)d deal", "%(num)d deals", n)}
_PLAYED = {"hand": lambda n: ngettext("%(num)d hand played", "%(num)d hands played", n),
           "deal": lambda n: ngettext("%(num)d deal played", "%(num)d deals played", n)}


class Home:
    """A variant's home: its words, forms, view-models, exports and statistics."""

    rules: rules.Variant
    round_word = "hand"
    csv_columns: tuple[str, ...] = ()
    round_keys: frozenset[str] = frozenset({"went_out", "hands"})  # what a logged round holds
    round_contents = N_("who went out and the cards left")  # the same, in words
    # The variant named in a sentence, as the rules name it in a refusal ("a penalty points
    # game records no passes"): its label in lower case, marked here for the catalogue.
    in_a_sentence = ""
    result_keys: tuple[str, ...] = ()  # what the game log's result adds to each round
    fact_lines: tuple[FactLine, ...] = ()
    record_lines: tuple[RecordLine, ...] = ()  # its records, in the order a page shows them
    assets: tuple[str, ...] = ()  # static files its pages load
    sets_help = ""  # what each set of rules is, a line under the sets on the new-game form

    # -- who it is -------------------------------------------------------------------
    @property
    def name(self) -> str:
        """Return the variant's name, as stored and in the game log."""
        return self.rules.name

    @property
    def label(self) -> str:
        """Return the variant's name as the table says it, in the page's language."""
        return gettext(self.rules.label)

    def template(self, part: str) -> list[str]:
        """Return where a page part is: this variant's own, else the shared one."""
        return [f"variants/{self.name}/{part}.html", f"variants/{part}.html"]

    # -- words -----------------------------------------------------------------------
    def word(self, count: int | None = None) -> str:
        """Return what a round is called: "hand", or "hands" for a count other than one
        (in the page's language: "mano", "manos")."""
        word = self.round_word if count is None or count == 1 else f"{self.round_word}s"
        return gettext(word)

    def rounds(self, count: int) -> str:
        """Return a count of rounds in words: "1 hand", "3 deals"."""
        return _ROUNDS[self.round_word](count)

    def played(self, count: int) -> str:
        """Return a count of rounds played: "3 hands played" ("3 manos jugadas")."""
        return _PLAYED[self.round_word](count)

    def summary(self, settings: Mapping[str, Any]) -> str:
        """Return the game's settings in a few words."""
        return ""

    def unit(self, settings: Mapping[str, Any], count: int = 2) -> str:
        """Return what a total of `count` counts, short: "pts" ("pt" for 1)."""
        return ngettext("pt", "pts", count)

    def totals_label(self, settings: Mapping[str, Any]) -> str:
        """Return what a total counts, as a chart's heading says it."""
        return gettext("Total")

    def target(self, settings: Mapping[str, Any]) -> int | None:
        """Return the total that ends the game, if there is one."""
        return settings.get("target")

    def chart_start(self, core: rules.Game, result: rules.GameResult) -> dict[str, int]:
        """Return each player's total before the first round."""
        return {name: 0 for name in core.players}

    # -- the round form ----------------------------------------------------------------
    def read_round(self, form: Mapping[str, str], players: Sequence[str],
                   errors: Errors, sits_out: Sequence[str] = ()) -> rules.Round:
        """Return the round a posted form describes; note unreadable inputs in `errors`."""
        raise NotImplementedError

    def round_values(self, players: Sequence[str], rnd: rules.Round) -> dict[str, str]:
        """Return a stored round as the form's inputs, so a correction opens filled in."""
        raise NotImplementedError

    def describe(self, players: Sequence[str], rnd: rules.Round) -> str:
        """Return a round in a few words, e.g. "Ann went out, Ben 4, Cy 2"."""
        raise NotImplementedError

    def input_for(self, error: rules.RuleError, players: Sequence[str]) -> str:
        """Return the form input a rules error belongs to."""
        parts = (error.field or "").split(".")
        if parts[0] == "hands" and len(parts) == 3 and parts[1] in players:
            return f"{parts[2]}-{players.index(parts[1])}"
        if parts[0].startswith("corners["):
            return "corner-" + parts[0][len("corners["):-1]
        return parts[0] or "general"

    def sitting_out(self, game, number: int) -> tuple[str, ...]:
        """Return who takes no part in round `number` (nobody, unless the variant says)."""
        return ()

    def hand_form(self, game, number: int, editing: bool) -> dict[str, Any]:
        """Return what the round form shows beyond the inputs."""
        result = game.result
        dealer = result.rounds[number - 1].dealer if editing else result.next_dealer
        first = result.rounds[number - 1].first_player if editing else result.next_first_player
        return {"dealer": dealer, "first_player": first,
                "sits_out": self.sitting_out(game, number)}

    # What each player's own phone sends of a round: "hand" (went out, or the cards and
    # kings left) or "deal" (the whole deal as that player saw it, both must agree).
    part_kind = "hand"

    def parts_form(self, game, number: int, gathered) -> dict[str, str]:
        """Return the round the players' parts agree on (rules.parts.Gathered, complete) as
        the round form posts it, to be read and checked as any round entered whole."""
        raise NotImplementedError

    def form_inputs(self, players: Sequence[str]) -> list[str]:
        """Return the round form's inputs in the order the page shows them (error links)."""
        return []

    def check_round(self, game, number: int, rnd: rules.Round, form: Mapping[str, str],
                    errors: Errors) -> None:
        """Note in `errors` every entry of a round the rules find impossible, all at once,
        each at its input (the reader notes what could not be read)."""

    def preview(self, game, number: int, entry: Entry) -> dict[str, Any]:
        """Return what the round form's preview shows for what is tapped so far."""
        return {}

    def after_round(self, game, number: int, rnd: rules.Round) -> rules.GameResult | None:
        """Return the game as it would stand with round `number` as tapped, when that is the
        last round (the next one, or a correction of the last); None for an earlier round,
        whose end the later rounds decide, or a round the rules refuse."""
        rounds = game.core.rounds
        if number == game.next_number:
            events = game.waiting_events()
        elif number == len(rounds):
            events, rounds = rounds[-1].events, rounds[:-1]
        else:
            return None
        rnd = rules.Round(rnd.went_out, rnd.hands, events, rnd.corners, rnd.dragon)
        try:
            return rules.play(game.with_rounds(rounds + (rnd,)))
        except rules.RuleError:
            return None

    def ending(self, core: rules.Game, after: rules.GameResult) -> str:
        """Return what the preview says when a round ends the game, e.g. "Dee reaches 25: the
        game ends, Cy wins.", else ""."""
        return (gettext("The game ends, %(win)s.", win=winners_win(after)) if after.over
                else "")

    # -- the scoreboard ---------------------------------------------------------------
    def standings(self, game) -> list[dict[str, Any]]:
        """Return the standings: each player's place (a tie sharing it), total and how they
        stand."""
        result = game.result
        rows = []
        placed = places([result.totals[name] for name in result.ranking])
        for index, (place, name) in enumerate(zip(placed, result.ranking)):
            rows.append({"name": name, "place": place, "total": result.totals[name],
                         "lead": index == 0 and not result.over and bool(result.rounds),
                         "won": name in result.winners, "out": name in result.out,
                         "note": self.standing_note(game, name)})
        return rows

    def standing_note(self, game, name: str) -> str:
        """Return what is said beside a player's total, e.g. "5 to go"."""
        return ""

    def scoreboard(self, game, page: Page) -> dict[str, Any]:
        """Return what this variant's part of the scoreboard shows: the standings and the
        round-by-round table (`page`: what the page gives the board)."""
        return {"standings": self.standings(game), "rows": self.rows(game, page)}

    def rows(self, game, page: Page) -> list[Row]:
        """Return the round-by-round table, a row a round: its number, who dealt it, the
        links that correct it and explain its scores, and a cell a player (★ for a winner
        of the round, else the score, then the running total)."""
        word, rows = self.word(), []
        for done in game.result.rounds:
            cells = [Cell(name, "★" if name in done.hand_winners else done.scores.get(name, ""),
                          done.totals.get(name, ""), name in done.hand_winners,
                          name in done.scores)
                     for name in game.players]
            rows.append(Row(done.number, gettext("%(name)s dealt", name=done.dealer),
                            page.edit(done.number),
                            gettext("Edit %(round)s %(number)s", round=word,
                                    number=done.number),
                            page.why(done.number), cells))
        return rows

    def banner_note(self, game) -> tuple[str, str] | None:
        """Return a line for the winner's banner and its data value, if the variant has one."""
        return None

    def live(self, game) -> dict[str, Any] | None:
        """Return the panel of the hand in progress, or None."""
        return None

    # -- this game's rules, and why these points --------------------------------------
    def rules_lines(self, core: rules.Game) -> list[str]:
        """Return the rules this game is played by, a sentence each, with its own numbers
        (the target and how it ends, what each thing scores or pays)."""
        raise NotImplementedError

    def why_words(self, settings: Mapping[str, Any], name: str, why: rules.Why,
                  done: rules.RoundResult) -> str:
        """Return how one player's score of a round was worked out (`why`, from the rules),
        in words: "Ben: 3 cards, 1 of them a king: 2 × 1 + 1 × 10 = 12"."""
        raise NotImplementedError

    def explain(self, game) -> list[dict[str, str]]:
        """Return each round's scores explained, a sentence for each player who took part."""
        core, result = game.core, game.result
        return [{name: self.why_words(core.settings, name, why, done)
                 for name, why in whys.items()}
                for whys, done in zip(self.rules.explain(core, result), result.rounds)]

    # -- reports ----------------------------------------------------------------------
    def took_part(self, core: rules.Game, rnd: rules.Round) -> list[str]:
        """Return who played a round, in seat order."""
        return list(core.players)

    def csv_cells(self, core: rules.Game, rnd: rules.Round, done: rules.RoundResult,
                  name: str) -> dict[str, Any]:
        """Return one player's row of a round in the CSV, under the shared columns and its own."""
        raise NotImplementedError

    def facts(self, name: str, rnd: rules.Round, done: rules.RoundResult) -> dict[str, int]:
        """Return what one round adds to a player's hand-by-hand statistics."""
        return {}

    def bests(self, name: str, core: rules.Game, result: rules.GameResult) -> dict[str, int]:
        """Return a player's bests of one game, what the records are the most of: for a
        winner of a finished game, `best_comeback`, the furthest behind the leader they were
        after a round (the variant adds its own)."""
        if not (result.over and name in result.winners):
            return {}
        pick = min if self.rules.lower_is_better else max
        return {"best_comeback": max((abs(pick(done.totals.values()) - done.totals[name])
                                      for done in result.rounds), default=0)}

    def render_round(self, core: rules.Game, rnd: rules.Round) -> dict[str, Any]:
        """Return one round as the game log writes it."""
        raise NotImplementedError

    def check_round_keys(self, raw: Mapping[str, Any]) -> None:
        """Refuse what a logged round of this variant cannot hold (it could never be exported)."""
        for key, value in raw.items():
            if value and key not in self.round_keys:
                raise rules.RuleError(
                    "a %(variant)s %(round)s records %(contents)s, not %(key)s", key,
                    variant=rules.Word(self.in_a_sentence), round=rules.Word(self.round_word),
                    contents=rules.Word(self.round_contents), key=key)
