"""Why these points: every variant explains a round's score from the computation that made
it, and the explanation adds up to the score the scoreboard shows."""

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import VARIANTS, Event, Game, Hand, Round, Term, Why
from scorekeeper.rules.chips import CHIPS
from scorekeeper.rules.chips_pot import EVENT_SETTINGS
from scorekeeper.rules.coronation import CORONATION
from scorekeeper.rules.penalty import PENALTY

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
CHIP_RULES = [
    {"preset": "house"},
    {"preset": "house", "start_chips": 5, "ante": 2, "king_held_chips": 2,
     "missed_draw_chips": 1, "king_chips": 10},
    {"preset": "jax"},
    {"preset": "jax", "total_chips": 20, "target": 30},
]


@cache
def events_among(in_hand: tuple, kinds: tuple):
    """The events a hand among these players could have (made once for each pair)."""
    return st.lists(st.builds(Event, st.sampled_from(in_hand), st.sampled_from(kinds)),
                    max_size=6)


def draw_hands(data, in_hand):
    """Draw who went out (None: a stalemate) and what the others held, from one deck."""
    went_out = data.draw(st.sampled_from((None, *in_hand)))
    hands, kings_left = {}, 4
    for name in in_hand:
        if name != went_out:
            cards = data.draw(st.integers(1, 8))
            kings = data.draw(st.integers(0, min(cards, kings_left)))
            kings_left -= kings
            hands[name] = Hand(cards, kings)
    return went_out, hands


def draw_penalty(data):
    """Draw a penalty game's rules and a first dealer."""
    players = NAMES[:data.draw(st.integers(2, 6))]
    rules = PENALTY.resolve_settings({
        "target": data.draw(st.integers(1, 80)),
        "end_when": data.draw(st.sampled_from(("reaches", "exceeds"))),
        "king_points": data.draw(st.integers(0, 15)),
        "card_points": data.draw(st.integers(0, 3))})
    return Game("penalty", players, data.draw(st.sampled_from(players)), rules)


def draw_chips(data):
    """Draw a chips game's rules and a first dealer."""
    players = NAMES[:data.draw(st.integers(2, 6))]
    rules = CHIPS.resolve_settings(data.draw(st.sampled_from(CHIP_RULES)))
    return Game("chips", players, data.draw(st.sampled_from(players)), rules)


def draw_coronation(data):
    """Draw a coronation match's rules and a first dealer."""
    rules = CORONATION.resolve_settings({"deals_to_win": data.draw(st.integers(1, 5))})
    return Game("coronation", NAMES[:2], data.draw(st.sampled_from(NAMES[:2])), rules)


def draw_round(data, game, result):
    """Draw one round of the game's variant that a real table could have played."""
    in_hand = tuple(name for name in game.players if name not in result.out)
    if game.variant == "coronation":
        corners = data.draw(st.lists(st.sampled_from((None, *game.players)), max_size=4))
        return Round(dragon=data.draw(st.sampled_from((None, *game.players))),
                     corners=tuple(corners))
    went_out, hands = draw_hands(data, in_hand)
    events = ()
    if game.variant == "chips":
        kinds = tuple(kind for kind, key in EVENT_SETTINGS.items() if game.settings[key])
        events = tuple(data.draw(events_among(in_hand, kinds)))
    return Round(went_out, hands, events)


DRAW = {"penalty": draw_penalty, "chips": draw_chips, "coronation": draw_coronation}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_explained_terms_add_up_to_the_score_shown(data):
    variant = VARIANTS[data.draw(st.sampled_from(sorted(DRAW)), label="variant")]
    game = DRAW[variant.name](data)
    result = variant.play(game)
    while not result.over and len(game.rounds) < 8:
        rnd = draw_round(data, game, result)
        game = Game(game.variant, game.players, game.first_dealer, game.settings,
                    game.rounds + (rnd,))
        result = variant.play(game)
    explained = variant.explain(game, result)
    assert len(explained) == len(result.rounds)
    for why, done in zip(explained, result.rounds):
        took_part = [name for name in game.players if name in done.scores
                     and (game.variant != "chips" or any(
                         flow["player"] == name for flow in done.extra["flows"]))]
        assert list(why) == took_part
        for name, one in why.items():
            assert sum(term.total for term in one.terms) == one.score == done.scores[name]
            assert one.won == (name in done.hand_winners)


def test_a_penalty_is_its_other_cards_and_its_kings():
    game = Game("penalty", ("Ann", "Ben"), "Ann", PENALTY.resolve_settings({}),
                (Round("Ann", {"Ben": Hand(3, 1)}),))
    (why,) = PENALTY.explain(game, PENALTY.play(game))
    assert why["Ann"] == Why((), 0, won=True)
    assert why["Ben"] == Why((Term("card", 2, 1, 2), Term("king", 1, 10, 10)), 12)


def test_a_jax_hand_tells_what_was_paid_but_scores_the_pot_alone():
    game = Game("chips", ("Ann", "Ben", "Cy"), "Ann", CHIPS.resolve_settings({"preset": "jax"}),
                (Round("Cy", {"Ann": Hand(5, 0), "Ben": Hand(1, 0)},
                       (Event("Ann", "pass"), Event("Ann", "pass"))),))
    (why,) = CHIPS.explain(game, CHIPS.play(game))
    assert why["Ann"].score == 0
    assert why["Ann"].paid == (Term("ante", 1, 1, -1), Term("pass", 2, 1, -2),
                               Term("cards", 5, 0, -5))
    assert why["Cy"] == Why((Term("pot", 1, 11, 11),), 11, True, (Term("ante", 1, 1, -1),))


def test_a_short_stack_is_told_what_it_owed():
    game = Game("chips", ("Ann", "Ben"), "Ann", CHIPS.resolve_settings({"start_chips": 3}),
                (Round("Ben", {"Ann": Hand(5, 0)}),))
    (why,) = CHIPS.explain(game, CHIPS.play(game))
    assert why["Ann"].terms == (Term("ante", 1, 1, -1), Term("cards", 5, 0, -2, owed=5))
    assert why["Ann"].score == -3


def test_a_deal_scores_the_corners_crowned_and_the_dragon():
    game = Game("coronation", ("Ann", "Ben"), "Ann", CORONATION.resolve_settings({}),
                (Round(dragon="Ann", corners=("Ann", "Ben", "Ann", None)),))
    (why,) = CORONATION.explain(game, CORONATION.play(game))
    assert why["Ann"] == Why((Term("corner", 2, 1, 2, (0, 2)), Term("dragon", 1, 1, 1)), 3, True)
    assert why["Ben"].score == 1
