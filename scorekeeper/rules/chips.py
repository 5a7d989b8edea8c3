"""Variant 2, chip pot: antes, passes and cards left pay into a pot the hand's winner takes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import (
    N_,
    Event,
    Game,
    GameResult,
    Round,
    RoundResult,
    RuleError,
    Setting,
    Term,
    Why,
)
from .base import resolve_settings as resolve_each
from .chips_pot import EVENT_SETTINGS, ante_and_events, check_events, deal, pot_of, settle
from .hands import check_hands, hand_winners
from .seats import left_of
from .table import Table, Variant

SETTINGS = (
    Setting("start_chips", N_("Chips each at the start"), int, minimum=1, maximum=10_000,
            optional=True, quick=(50,),
            help=N_("Every player starts with this many. Leave empty to split a total instead.")),
    Setting("total_chips", N_("Chips in the box, split evenly"), int, minimum=2, maximum=60_000,
            optional=True, quick=(80,),
            help=N_("Each player gets total ÷ players, rounded down; the rest stay in the box.")),
    Setting("ante", N_("Ante per hand"), int, minimum=0, maximum=1000),
    Setting("pass_chips", N_("Chips for a pass"), int, minimum=0, maximum=1000,
            help=N_("A turn with no card played. 0: not offered.")),
    Setting("king_held_chips", N_("Chips for being caught holding a king"), int, minimum=0,
            maximum=1000, quick=(0, 3), help=N_("0: not offered.")),
    Setting("missed_draw_chips", N_("Chips for forgetting to draw"), int, minimum=0,
            maximum=1000, quick=(0, 1), help=N_("0: not offered.")),
    Setting("card_chips", N_("Chips per other card left"), int, minimum=0, maximum=1000),
    Setting("king_chips", N_("Chips per king left"), int, minimum=0, maximum=1000, quick=(1, 10)),
    Setting("reset_each_hand", N_("Re-split the chips every hand"), bool,
            help=N_("On: the score is the pots won. Off: stacks carry over; 0 chips is out.")),
    Setting("target", N_("Play to"), int, minimum=1, maximum=1_000_000, optional=True,
            quick=(100,),
            help=N_("The game ends after the hand in which a stack (or score) gets there.")),
)
HOUSE = {"start_chips": 50, "total_chips": None, "ante": 1, "pass_chips": 1,
         "king_held_chips": 0, "missed_draw_chips": 0, "card_chips": 1, "king_chips": 1,
         "reset_each_hand": False, "target": None}
JAX = {"start_chips": None, "total_chips": 80, "ante": 1, "pass_chips": 1,
       "king_held_chips": 3, "missed_draw_chips": 1, "card_chips": 1, "king_chips": 1,
       "reset_each_hand": True, "target": 100}
PRESETS = {N_("house"): HOUSE, N_("jax"): JAX}


class ChipsTable(Table):
    """The chips on the table while a game's rounds are replayed in order."""

    def __init__(self, players: Sequence[str], first_dealer: str, settings: Mapping[str, Any]):
        super().__init__(players, first_dealer)
        self.settings = settings
        self.reset = settings["reset_each_hand"]
        self.dealt = deal(self.players, settings)
        self.chips_in_play = sum(self.dealt.values())
        total = settings["total_chips"]
        self.box = 0 if total is None else total - self.chips_in_play
        self.stacks = dict(self.dealt)
        self.scores = {name: 0 for name in self.players}

    def in_hand(self) -> tuple[str, ...]:
        """Return the players who take part in the next hand, in seat order."""
        if not self.out:
            return tuple(self.players)
        return tuple(name for name in self.players if name not in self.out)

    def open_hand(self, events: Sequence[Event]) -> tuple[dict[str, int], list[dict]]:
        """Return the stacks and flows of the next hand after its antes and `events`."""
        check_events(events, self.players, self.out, self.settings)
        stacks = dict(self.dealt if self.reset else self.stacks)
        return stacks, ante_and_events(stacks, self.in_hand(), events, self.settings)

    def play_round(self, number: int, rnd: Round) -> RoundResult:
        """Play one entered hand through the pot and move the deal on."""
        in_hand = self.in_hand()
        hands = check_hands(in_hand, rnd)
        winners = hand_winners(in_hand, rnd, hands)
        # Read, not copied: the hand's stacks are a copy of their own (open_hand), and
        # self.stacks is replaced by them below, never changed in place.
        before, first_player = self.dealt if self.reset else self.stacks, self.first_player()
        stacks, flows = self.open_hand(rnd.events)
        # The whole pot is shared out: the shares add up to it.
        shares = settle(stacks, flows, hands, winners, self.players, self.dealer, self.settings)
        won = {name: shares.get(name, 0) for name in self.players}
        self.stacks = stacks
        if self.reset:
            scores, busted = won, ()
            for name in self.players:
                self.scores[name] += won[name]
        else:
            scores = {name: stacks[name] - before[name] for name in self.players}
            busted = tuple(name for name in in_hand if not stacks[name])
            self.out.update(busted)
        self.over = self.game_is_won()
        result = RoundResult(number, self.dealer, first_player, winners, scores, self.totals(),
                             {"pot": sum(shares.values()), "stacks": dict(stacks), "flows": flows,
                              "busted": busted})
        if not self.over:
            self.dealer = left_of(self.players, self.dealer, self.out)
        return result

    def game_is_won(self) -> bool:
        """Tell whether the hand just played ended the game: a total at the target, or one
        player left holding chips when stacks carry over."""
        target = self.settings["target"]
        if target is not None and max((self.scores if self.reset else self.stacks).values()
                                      ) >= target:
            return True
        return not self.reset and sum(1 for chips in self.stacks.values() if chips) <= 1

    def totals(self) -> dict[str, int]:
        """Return what decides the game: pots won (re-split) or stacks (carried over)."""
        return dict(self.scores if self.reset else self.stacks)

    def extra(self) -> dict[str, Any]:
        """Return the chips in play and in the box, what each was dealt, and the stacks now."""
        return {"chips_in_play": self.chips_in_play, "box": self.box, "dealt": dict(self.dealt),
                "stacks": dict(self.dealt if self.reset else self.stacks)}


class Chips(Variant):
    """Chip pot (docs/rules.md, "Chip pot"), with the house and the boxed Jax presets."""

    name = "chips"
    label = N_("Chip pot")
    records_events = True  # passes, kings held and missed draws, tapped during a hand
    blurb = N_("Everyone antes; passes and cards left pay into the pot, and the hand's "
               "winner takes it. Most chips win.")
    settings = SETTINGS
    presets: Mapping[str, Mapping[str, Any]] = PRESETS

    def resolve_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full settings: the preset's defaults, overridden by `given`, checked."""
        preset = given.get("preset", "house")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RuleError("must be one of %(choices)s, not %(value)s", "rules.preset",
                            choices=", ".join(PRESETS), value=repr(preset))
        defaults = dict(PRESETS[preset])
        # Giving one way of dealing the chips replaces the preset's other way.
        if given.get("start_chips") is not None and "total_chips" not in given:
            defaults["total_chips"] = None
        if given.get("total_chips") is not None and "start_chips" not in given:
            defaults["start_chips"] = None
        resolved = {"preset": preset, **resolve_each(SETTINGS, defaults, given)}
        if resolved["start_chips"] is not None and resolved["total_chips"] is not None:
            raise RuleError("give chips each or a total to split, not both", "rules.total_chips")
        if resolved["start_chips"] is None and resolved["total_chips"] is None:
            raise RuleError("give chips each or a total to split", "rules.start_chips")
        return resolved

    def table(self, game: Game) -> ChipsTable:
        """Return the table with the chips dealt out."""
        return ChipsTable(game.players, game.first_dealer, self.resolve_settings(game.settings))

    def explain(self, game: Game, result: GameResult) -> tuple[dict[str, Why], ...]:
        """Return each hand's chips as the pot moved them (its flows): what each player
        paid in, by kind, and their share of the pot. Stacks carried over: the payments
        count against the score; re-split every hand: the score is the share alone."""
        settings = self.resolve_settings(game.settings)
        reset = settings["reset_each_hand"]
        explained = []
        for rnd, done in zip(game.rounds, result.rounds):
            paid: dict[str, dict[str, list[int]]] = {}  # player: kind: [times, paid, owed]
            won: dict[str, int] = {}
            for flow in done.extra["flows"]:
                player, kind = flow["player"], flow["kind"]
                if kind == "pot":
                    won[player] = flow["chips"]
                    continue
                summed = paid.setdefault(player, {}).setdefault(kind, [0, 0, 0])
                summed[0] += 1
                summed[1] += flow["chips"]
                summed[2] += flow["owed"]
            why = {}
            for name in game.players:
                if name not in paid and name not in won:
                    continue  # out of the game
                payments = []
                for kind, (times, chips, owed) in paid.get(name, {}).items():
                    if kind == "cards":
                        times, each = rnd.hands[name].cards, 0
                    else:
                        each = settings["ante"] if kind == "ante" else \
                            settings[EVENT_SETTINGS[kind]]
                    payments.append(Term(kind, times, each, -chips,
                                         owed=owed if chips < owed else None))
                share = (Term("pot", 1, won[name], won[name]),) if name in won else ()
                if reset:
                    why[name] = Why(share, sum(t.total for t in share),
                                    name in done.hand_winners, tuple(payments))
                else:
                    terms = (*payments, *share)
                    why[name] = Why(terms, sum(t.total for t in terms), name in done.hand_winners)
            explained.append(why)
        return tuple(explained)

    def live(self, game: Game, events: Sequence[Event] = (),
             result: GameResult | None = None, number: int | None = None) -> dict[str, Any]:
        """Show a hand after its antes and `events`: its dealer, players, stacks and pot.

        The hand is the one in progress, or hand `number` of those played (its pot before
        the cards were paid). `result` is the game's result when it is known already, so
        the game is not replayed again.
        """
        result = self.play(game) if result is None else result
        played = len(game.rounds)
        number = played + 1 if number is None else number
        settings = self.resolve_settings(game.settings)
        if number > played:
            if result.over:
                raise RuleError("the game is over after round %(number)s", "events", number,
                                number=played)
            dealer, first, out = result.next_dealer, result.next_first_player, result.out
            stacks = dict(result.extra["stacks"])
        else:
            done = result.rounds[number - 1]
            dealer, first = done.dealer, done.first_player
            out = {name for rr in result.rounds[:number - 1] for name in rr.extra["busted"]}
            earlier = result.rounds[number - 2] if number > 1 else None
            stacks = dict(result.extra["dealt"] if settings["reset_each_hand"] or earlier is None
                          else earlier.extra["stacks"])
        in_hand = tuple(name for name in game.players if name not in out)
        try:
            check_events(tuple(events), game.players, out, settings)
        except RuleError as error:
            raise error.at_round(number) from None
        flows = ante_and_events(stacks, in_hand, tuple(events), settings)
        return {"number": number, "dealer": dealer, "first_player": first, "players": in_hand,
                "stacks": stacks, "pot": pot_of(flows), "flows": flows}


CHIPS = Chips()
