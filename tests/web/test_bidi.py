"""Players' names isolated for right-to-left scripts: what the templates' filters give."""

from __future__ import annotations

from scorekeeper.web.bidi import bdi, bdi_join, isolate, needs_isolating


def test_a_right_to_left_name_is_put_in_bdi_and_escaped():
    assert bdi("دانة") == "<bdi>دانة</bdi>"
    assert bdi("שרה <b>") == "<bdi>שרה &lt;b&gt;</bdi>"


def test_a_left_to_right_name_is_left_bare_it_cannot_move_anything():
    assert [needs_isolating(n) for n in ("Ann", "Zoë", "李小龙", "🂡 Ace")] == [False] * 4
    assert bdi("<b>Bo</b>") == "&lt;b&gt;Bo&lt;/b&gt;"


def test_a_name_of_digits_or_signs_only_is_isolated_it_takes_its_neighbours_direction():
    assert needs_isolating("42") and needs_isolating("☺")


def test_a_list_of_names_isolates_each_and_keeps_the_separators():
    assert bdi_join(["Ann", "دانة", "Ben"], " · ") == "Ann · <bdi>دانة</bdi> · Ben"


def test_a_sentence_isolates_the_players_it_names_and_only_whole_names():
    names = ["دانة", "Ann"]
    assert isolate("دانة pays 2; Ann takes the pot", names) == (
        "<bdi>دانة</bdi> pays 2; Ann takes the pot")
    assert isolate("دانةx & <i>", names) == "دانةx &amp; &lt;i&gt;"
