"""The physical checks on what players held at the end of a hand (penalty and chips)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import Hand, Round, RuleError, Word, check_int

DECK_CARDS = 52
DECK_KINGS = 4


def check_hands(players: Sequence[str], rnd: Round) -> dict[str, Hand]:
    """Return every player's hand for this round, or raise RuleError naming the field.

    `players` are those who took part in the hand, in seat order.
    """
    if rnd.went_out is not None and rnd.went_out not in players:
        raise RuleError("%(name)s is not playing this hand", "went_out",
                        name=repr(rnd.went_out))
    for name in rnd.hands:
        if name not in players:
            raise RuleError("%(name)s is not playing this hand", f"hands.{name}",
                            name=repr(name))
    hands: dict[str, Hand] = {}
    went_out = rnd.went_out
    given = rnd.hands
    kings = cards = 0
    for name in players:
        hand = given.get(name)
        # The usual hand passes one cheap test; anything else goes through the checks that
        # name what is wrong (a replay checks every stored hand, so this is worth having).
        if hand is None:
            hand = _EMPTY if name == went_out else _check_hand(name, hand, went_out)
        elif not (type(hand.cards) is int and type(hand.kings) is int
                  and 0 <= hand.kings <= hand.cards and hand.kings <= DECK_KINGS
                  and (name == went_out) == (hand.cards == 0)):
            hand = _check_hand(name, hand, went_out)
        hands[name] = hand
        kings += hand.kings
        cards += hand.cards
    if kings > DECK_KINGS or cards > DECK_CARDS:
        _check_deck(players, hands)  # names the hand where the deck runs out
    return hands


_EMPTY = Hand(0, 0)  # the hand of whoever went out, when none was given


def _check_hand(name: str, hand: Hand | None, went_out: str | None) -> Hand:
    """Return one player's hand checked, or raise RuleError naming what is wrong."""
    field = f"hands.{name}"
    if hand is None:
        if name == went_out:
            return Hand(0, 0)
        raise RuleError("how many cards %(name)s has left is missing", f"{field}.cards",
                        name=name)
    cards = check_int(hand.cards, f"{field}.cards", 0, what=Word("a whole number of cards"))
    kings = check_int(hand.kings, f"{field}.kings", 0, what=Word("a whole number of kings"))
    if kings > DECK_KINGS:
        raise RuleError("a deck has only %(deck)s kings, so %(name)s cannot hold %(kings)s",
                        f"{field}.kings", deck=DECK_KINGS, name=name, kings=kings)
    if kings > cards:
        # One sentence for each count that changes its words (kings > cards, so kings > 1
        # unless no card is left), so each language can say it.
        if cards == 0:
            message = (Word("%(name)s holds 0 cards, so cannot hold 1 king") if kings == 1
                       else Word("%(name)s holds 0 cards, so cannot hold %(kings)s kings"))
        elif cards == 1:
            message = Word("%(name)s holds 1 card, so cannot hold %(kings)s kings")
        else:
            message = Word("%(name)s holds %(cards)s cards, so cannot hold %(kings)s kings")
        raise RuleError(message, f"{field}.kings", name=name, cards=cards, kings=kings)
    if name == went_out and cards:
        raise RuleError("%(name)s went out, so holds no cards", f"{field}.cards", name=name)
    if name != went_out and not cards:
        if went_out is None:
            raise RuleError("in a stalemate nobody has emptied their hand: %(name)s holds at "
                            "least one card", f"{field}.cards", name=name)
        raise RuleError("%(name)s did not go out, so holds at least one card",
                        f"{field}.cards", name=name)
    return Hand(cards, kings)


def _check_deck(players: Sequence[str], hands: Mapping[str, Hand]) -> None:
    """Refuse more kings or cards in hand than one deck holds."""
    kings = cards = 0
    for name in players:
        kings += hands[name].kings
        cards += hands[name].cards
        if kings > DECK_KINGS:
            raise RuleError("a deck has only %(deck)s kings, and the hands hold %(kings)s",
                            f"hands.{name}.kings", deck=DECK_KINGS, kings=kings)
        if cards > DECK_CARDS:
            raise RuleError("a deck has only %(deck)s cards, and the hands hold %(cards)s",
                            f"hands.{name}.cards", deck=DECK_CARDS, cards=cards)


def hand_problems(players: Sequence[str], rnd: Round) -> list[RuleError]:
    """Return every impossible hand of a round at once, as a form shows them; [] if none.

    Hands not given (still to be entered) are not checked here: `check_hands` refuses them.
    The deck is counted over the hands that are possible on their own.
    """
    problems: list[RuleError] = []
    hands: dict[str, Hand] = {}
    for name in players:
        if name not in rnd.hands and name != rnd.went_out:
            continue
        try:
            hands[name] = _check_hand(name, rnd.hands.get(name), rnd.went_out)
        except RuleError as error:
            problems.append(error)
    try:
        _check_deck([name for name in players if name in hands], hands)
    except RuleError as error:
        problems.append(error)
    return problems


def fewest_cards(players: Sequence[str], hands: Mapping[str, Hand]) -> tuple[str, ...]:
    """Return the players tied for the fewest cards, in seat order: a stalemate's winners."""
    least = min(hands[name].cards for name in players)
    return tuple(name for name in players if hands[name].cards == least)


def hand_winners(players: Sequence[str], rnd: Round, hands: Mapping[str, Hand]) -> tuple[str, ...]:
    """Return who won the hand: the one who went out, or the fewest cards in a stalemate."""
    if rnd.went_out is not None:
        return (rnd.went_out,)
    return fewest_cards(players, hands)
