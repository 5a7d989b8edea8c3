"""The hand in progress of a chips game: the storage writer's taps (saved, undone, refused)
and the chips home's live panel (scorekeeper/variants/chips/live.py) and the story of each
hand played (board.py)."""


import pytest

from scorekeeper import db as storage
from scorekeeper import rules
from scorekeeper.db import Conflict, read_game
from scorekeeper.db.models import Event, Game
from scorekeeper.extensions import db
from scorekeeper.rules.chips import CHIPS
from scorekeeper.variants.chips import live as chips_live
from scorekeeper.variants.chips import told as chips_board

P = ["Ann", "Ben", "Cy"]


@pytest.fixture
def ctx(app):
    """Run inside the app, on its empty database."""
    with app.app_context():
        yield


def new_game(preset="house", names=P, **settings) -> Game:
    game = storage.create_game("chips", {"preset": preset, **settings}, list(names), 0)
    db.session.commit()
    return game


def loaded(game) -> storage.Loaded:
    """Return the game as stored now (a Loaded is a snapshot: read again after each write)."""
    return read_game(game.id)


def state(game) -> dict:
    """Return the hand in progress: dealer, players, stacks and pot after its stored taps."""
    now = loaded(game)
    return CHIPS.live(now.core, now.waiting_events())


def hand(went_out, **held) -> rules.Round:
    return rules.Round(went_out, {name: rules.Hand(*value) if isinstance(value, tuple)
                                  else rules.Hand(value) for name, value in held.items()})


def save_hand(game, went_out, **held):
    now = loaded(game)
    storage.record_round(now, now.next_number, hand(went_out, **held), None)
    db.session.commit()


def tap(game, player, kind="pass", token=None, number=None):
    now = loaded(game)
    row = storage.add_tap(now, number or now.next_number, player, kind, token)
    db.session.commit()
    return row


def undo(game, number, event_id):
    undone = storage.undo_tap(loaded(game), number, event_id)
    db.session.commit()
    return undone


def refusal(game, *args, **kwargs):
    with pytest.raises(rules.RuleError) as caught:
        tap(game, *args, **kwargs)
    db.session.rollback()
    return caught.value


def test_a_new_hand_has_taken_the_antes_into_the_pot(ctx):
    game = new_game()
    now = state(game)
    assert now["pot"] == 3 and now["stacks"] == {"Ann": 49, "Ben": 49, "Cy": 49}
    assert (now["dealer"], now["first_player"]) == ("Ann", "Ben")


def test_each_tap_pays_into_the_pot_and_is_stored_at_once(ctx):
    game = new_game()
    tap(game, "Ann")
    tap(game, "Cy")
    tap(game, "Ann")
    db.session.expire_all()
    now = state(game)
    assert now["pot"] == 6 and now["stacks"] == {"Ann": 47, "Ben": 49, "Cy": 48}
    # In the order they were tapped.
    assert [(t.player, t.kind) for t in loaded(game).waiting] == [
        ("Ann", "pass"), ("Cy", "pass"), ("Ann", "pass")]


def test_the_same_token_twice_records_one_tap_and_two_tokens_record_two(ctx):
    game = new_game()
    first = tap(game, "Ann", token="tap-1")
    again = tap(game, "Ann", token="tap-1")
    assert again.id == first.id and state(game)["pot"] == 4
    tap(game, "Ann", token="tap-2")
    assert state(game)["pot"] == 5


def test_undo_takes_back_only_the_last_tap_even_when_sent_twice(ctx):
    game = new_game()
    tap(game, "Ann")
    last = tap(game, "Ben")
    undone = undo(game, 1, last.id)
    assert undone.player == "Ben"
    assert undo(game, 1, last.id) is None  # the double tap on Undo
    assert [t.player for t in loaded(game).waiting] == ["Ann"]
    assert state(game)["pot"] == 4


def test_undo_refuses_when_another_phone_tapped_since_the_button_was_shown(ctx):
    game = new_game()
    shown = tap(game, "Ann")
    tap(game, "Cy")  # the other phone
    with pytest.raises(Conflict, match="someone tapped since"):
        storage.undo_tap(loaded(game), 1, shown.id)
    assert len(loaded(game).waiting) == 2


def test_undo_with_nothing_tapped_changes_nothing(ctx):
    game = new_game()
    assert storage.undo_tap(loaded(game), 1, None) is None


def test_a_tap_for_a_hand_already_saved_is_refused_not_put_in_the_next_hand(ctx):
    game = new_game()
    save_hand(game, "Ben", Ann=1, Cy=1)
    error = refusal(game, "Ann", number=1)
    assert "hand 1 is not being played now" in error.message
    assert loaded(game).waiting == ()


def test_an_unknown_event_kind_is_refused_naming_the_kind(ctx):
    game = new_game()
    error = refusal(game, "Ann", "cheating")
    assert error.field == "kind" and "unknown event 'cheating'" in error.message
    assert db.session.query(Event).count() == 0


def test_an_event_the_house_preset_does_not_offer_is_refused(ctx):
    game = new_game()
    error = refusal(game, "Ann", "king_held")
    assert error.field == "kind" and "not offered" in error.message


def test_an_event_for_someone_not_at_the_table_is_refused(ctx):
    game = new_game()
    assert refusal(game, "Zed").field == "player"


def test_an_event_for_a_player_who_is_out_is_refused(ctx):
    game = new_game(start_chips=3)
    save_hand(game, "Ben", Ann=1, Cy=5)  # Cy: ante 1, then 2 of 5 owed: out
    assert loaded(game).result.out == frozenset({"Cy"})
    error = refusal(game, "Cy")
    assert (error.field, error.message) == ("player", "Cy is out of the game")


def test_an_event_after_the_game_is_over_is_refused(ctx):
    game = new_game(preset="jax", target=5)
    save_hand(game, "Ben", Ann=1, Cy=1)
    assert loaded(game).result.over
    assert "the game is over" in refusal(game, "Ann").message


def test_an_event_after_the_game_was_ended_by_hand_is_refused(ctx):
    game = new_game()
    storage.set_ended(loaded(game), True)
    db.session.commit()
    assert "the game is over" in refusal(game, "Ann").message


def test_a_penalty_game_records_no_events(ctx):
    game = storage.create_game("penalty", {}, P, 0)
    db.session.commit()
    assert "only a chip-pot game does" in refusal(game, "Ann").message


def test_the_taps_of_the_hand_in_progress_go_into_the_hand_when_it_is_saved(ctx):
    game = new_game(preset="jax")
    tap(game, "Ann", "king_held")
    tap(game, "Cy", "missed_draw")
    save_hand(game, "Ben", Ann=2, Cy=1)
    first = loaded(game).result.rounds[0]
    assert [(f["player"], f["kind"], f["chips"]) for f in first.extra["flows"][3:5]] == [
        ("Ann", "king_held", 3), ("Cy", "missed_draw", 1)]
    assert first.extra["pot"] == 3 + 3 + 1 + 3 and state(game)["pot"] == 3


def test_deleting_the_last_hand_also_drops_the_taps_of_the_hand_after_it(ctx):
    game = new_game()
    tap(game, "Ann")
    save_hand(game, "Ben", Ann=1, Cy=1)
    tap(game, "Cy")
    assert storage.delete_last_round(loaded(game)) == 1
    db.session.commit()
    assert db.session.query(Event).count() == 0 and state(game)["pot"] == 3


def test_the_panel_shows_stacks_taps_the_last_tap_and_the_chips_in_play(ctx):
    game = new_game(preset="jax", names=["Ann", "Ben", "Cy"])
    tap(game, "Ann", "king_held")
    tap(game, "Ann")
    shown = chips_live.panel(loaded(game))
    assert shown["pot"] == 7 and shown["chips_in_play"] == 78 and shown["box"] == 2
    ann = shown["seats"][0]
    assert (ann["stack"], ann["counts"]) == (21, {"pass": 1, "king_held": 1, "missed_draw": 0})
    assert shown["last"]["player"] == "Ann" and shown["last"]["kind"] == "pass"
    assert [kind for kind, _, _ in shown["kinds"]] == ["pass", "king_held", "missed_draw"]


def test_the_panel_is_gone_once_the_game_is_over(ctx):
    game = new_game(preset="jax", target=5)
    save_hand(game, "Ben", Ann=1, Cy=1)
    assert chips_live.panel(loaded(game)) is None


def test_a_tap_left_behind_by_an_edit_that_put_its_player_out_is_shown_to_be_undone(ctx):
    game = new_game(start_chips=5)
    save_hand(game, "Ben", Ann=1, Cy=1)
    tap(game, "Cy")
    storage.edit_round(loaded(game), 1, hand("Ben", Ann=1, Cy=9))  # now Cy paid all 4 left: out
    db.session.commit()
    shown = chips_live.panel(loaded(game))
    assert "Cy is out of the game" in shown["problem"] and shown["last"]["player"] == "Cy"
    undo(game, 2, shown["last"]["id"])
    assert chips_live.panel(loaded(game))["problem"] is None


def test_the_story_of_a_hand_says_who_paid_what_for_what(ctx):
    game = new_game(start_chips=4)
    tap(game, "Ann")
    tap(game, "Ann")
    save_hand(game, "Ben", Ann=(3, 1), Cy=2)
    story = chips_board.told(loaded(game).core, loaded(game).result, False, str)[0]
    assert (story.number, story.dealer, story.went_out) == (1, "Ann", "Ben")
    assert story.shares == [("Ben", 8)] and story.pot == 8
    ann, ben, cy = ((one.name, one.net, one.after, one.busted, one.parts, one.took)
                    for one in story.people)
    assert ann == ("Ann", "-4", "→ 0", True, ["ante 1", "2 passes 2", "cards 1 of 3"], 0)
    assert ben == ("Ben", "+7", "→ 11", False, ["ante 1"], 8)
    assert cy == ("Cy", "-3", "→ 1", False, ["ante 1", "cards 2"], 0)
