"""The line charts: what a player reading the SVG on a phone would rely on."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from scorekeeper import rules
from scorekeeper.reports.charts import (
    FSI,
    PDI,
    SERIES,
    game_chart,
    game_series,
    line_chart,
    nice_ticks,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    """Return the chart as an XML tree (it must be well-formed to show at all)."""
    return ET.fromstring(str(markup))


def series_groups(svg: ET.Element) -> dict[str, ET.Element]:
    """Return each drawn series by name."""
    return {g.get("data-name"): g for g in svg.iter(f"{SVG}g")
            if "series" in g.get("class", "").split()}


def points_of(group: ET.Element) -> list[tuple[float, float]]:
    """Return the points of a series' lines, in order."""
    out = []
    for line in group.iter(f"{SVG}polyline"):
        out += [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    return out


def colour_class(group: ET.Element) -> str:
    """Return the class that colours a series (s1..s6: app.css gives each a colour)."""
    return next(c for c in group.get("class").split() if re.fullmatch(r"s[1-6]", c))


def test_every_series_is_drawn_with_its_own_colour_and_named_in_the_legend():
    svg = parse(line_chart({"Ann": [0, 3, 13], "Ben": [0, 5, 6], "Cy": [0, 7, 20]}, 25))
    groups = series_groups(svg)
    assert list(groups) == ["Ann", "Ben", "Cy"]
    assert len({colour_class(g) for g in groups.values()}) == 3
    legend = " ".join("".join(t.itertext()) for t in svg.iter(f"{SVG}text"))
    assert "Ann 13" in legend and "Ben 6" in legend and "Cy 20" in legend


def test_six_players_get_six_different_colours():
    assert SERIES == 6
    svg = parse(line_chart({f"P{i}": [0, i] for i in range(6)}))
    assert len({colour_class(g) for g in series_groups(svg).values()}) == 6


def test_each_legend_key_has_its_series_colour():
    svg = parse(line_chart({"Ann": [0, 3], "Ben": [0, 5]}))
    keys = [g for g in svg.iter(f"{SVG}g") if "key" in g.get("class").split()]
    assert [colour_class(k) for k in keys] == [colour_class(g)
                                               for g in series_groups(svg).values()]


def test_no_colour_is_baked_into_the_drawing_so_it_follows_the_theme():
    """A chart is drawn once per state of a game and kept; each phone shows it in its own
    theme, so every colour comes from the stylesheet (classes), none from the SVG."""
    markup = str(line_chart({"Ann": [0, 3, 13], "Ben": [0, 5, 6]}, 25, y_label="points"))
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b", markup)
    assert not re.search(r'\b(fill|stroke)="(?!none)', markup)


def test_a_right_to_left_name_is_isolated_so_its_value_stays_after_it():
    svg = parse(line_chart({"دانة": [0, 1], "Ann": [0, 2]}))
    names = [t for t in svg.iter(f"{SVG}tspan") if t.get("class") == "name"]
    assert [t.text for t in names] == [f"{FSI}دانة{PDI}", "Ann"]  # Ann cannot move


def test_a_higher_total_is_drawn_higher_up():
    svg = parse(line_chart({"Ann": [0, 10], "Ben": [0, 20]}))
    groups = series_groups(svg)
    (_, ann_y), (_, ben_y) = points_of(groups["Ann"])[-1], points_of(groups["Ben"])[-1]
    assert ben_y < ann_y  # SVG's y grows downwards


def test_the_target_line_is_drawn_and_labelled_even_above_every_total():
    svg = parse(line_chart({"Ann": [0, 4], "Ben": [0, 9]}, 50, target_label="ends at 50"))
    target = [e for e in svg.iter() if e.get("class") == "target"]
    assert [e.tag for e in target] == [f"{SVG}line", f"{SVG}text"]
    assert target[1].text == "ends at 50"
    top_of_lines = min(y for g in series_groups(svg).values() for _, y in points_of(g))
    assert float(target[0].get("y1")) < top_of_lines


def test_no_target_means_no_target_line():
    svg = parse(line_chart({"Ann": [50, 40, 0]}))
    assert not [e for e in svg.iter() if e.get("class") == "target"]


def test_the_chart_has_a_title_and_a_description_for_screen_readers():
    svg = parse(line_chart({"Ann": [0, 3]}, 25, title="Penalty points by hand",
                           desc="Ann has 3.", chart_id="g1"))
    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "g1-title g1-desc"
    assert svg.find(f"{SVG}title").text == "Penalty points by hand"
    assert svg.find(f"{SVG}desc").text == "Ann has 3."


def test_without_a_description_one_is_written_from_the_last_values():
    svg = parse(line_chart({"Ann": [0, 3], "Ben": [0, 8]}, 25))
    assert svg.find(f"{SVG}desc").text == "Last values: Ann 3, Ben 8. Target line at 25."


def test_a_name_with_markup_is_shown_as_text_not_run():
    markup = line_chart({"<script>alert(1)</script>": [0, 1]}, title="<b>")
    assert "<script>" not in markup
    svg = parse(markup)
    assert "<script>alert(1)</script>" in series_groups(svg)


def test_a_missing_value_breaks_the_line_instead_of_joining_across():
    svg = parse(line_chart({"Ann": [1, 2, None, 4, 5]}))
    lines = list(series_groups(svg)["Ann"].iter(f"{SVG}polyline"))
    assert len(lines) == 2


def test_no_label_under_the_axis_runs_past_the_right_edge():
    """A month's label a few points before the last (its own point labelled, the last not)
    once ran past the edge on a phone: "Dec 202"."""
    labels = ["Jan 2025"] + [""] * 47 + ["Dec 2025"] + [""] * 3  # a season's 52 nights
    svg = parse(line_chart({"Win rate %": [50.0] * 52}, labels=labels, x_label="nights"))
    assert "Dec 2025" in [text.text for text in svg.iter(f"{SVG}text")]
    width = float(svg.get("viewBox").split()[2])
    texts = list(svg.iter(f"{SVG}text"))
    axis = next(text.get("y") for text in texts if text.text == "Jan 2025")
    for text in (text for text in texts if text.get("y") == axis and text.text):
        x, half = float(text.get("x")), len(text.text) * 16 * 0.6 / 2  # 0.6 em a character
        reach = x if text.get("text-anchor") == "end" else x + half
        assert reach <= width, (text.text, x, text.get("text-anchor"))


def test_a_single_point_and_an_empty_chart_still_render():
    assert len(points_of(series_groups(parse(line_chart({"Ann": [7]})))["Ann"])) == 1
    assert parse(line_chart({})).tag == f"{SVG}svg"


def test_charts_on_one_page_get_distinct_ids():
    first = parse(line_chart({"Ann": [0, 1]}))
    second = parse(line_chart({"Ann": [0, 2]}))
    assert first.find(f"{SVG}title").get("id") != second.find(f"{SVG}title").get("id")


@pytest.mark.parametrize("lo, hi, expected", [
    (0, 25, [0, 10, 20, 30]),
    (0, 1, [0, 1]),
    (0, 150, [0, 50, 100, 150]),
    (-3, 7, [-5, 0, 5, 10]),
    (0, 250, [0, 100, 200, 300]),
    (0, 90, [0, 25, 50, 75, 100]),
])
def test_axis_ticks_are_round_numbers_covering_the_values(lo, hi, expected):
    assert nice_ticks(lo, hi) == expected


def penalty_game(rounds=(), target=25) -> rules.Game:
    """Return a three-player penalty game."""
    return rules.Game("penalty", ("Ann", "Ben", "Cy"), "Ann",
                      rules.get_variant("penalty").resolve_settings({"target": target}),
                      tuple(rounds))


def test_a_game_chart_starts_at_zero_and_follows_the_running_totals():
    game = penalty_game([rules.Round("Ann", {"Ben": rules.Hand(5), "Cy": rules.Hand(3, 1)}),
                         rules.Round("Ben", {"Ann": rules.Hand(2), "Cy": rules.Hand(4)})])
    result = rules.play(game)
    assert game_series(game, result) == {"Ann": [0, 0, 2], "Ben": [0, 5, 5], "Cy": [0, 12, 16]}
    svg = parse(game_chart(game, result))
    assert svg.find(f"{SVG}title").text == "Penalty points, hand by hand"
    assert "after hand 2: Ann 2, Ben 5, Cy 16. The game ends at 25." in svg.find(f"{SVG}desc").text
    assert [e.text for e in svg.iter(f"{SVG}text") if e.get("class") == "target"] == ["ends at 25"]


def test_a_game_with_no_hand_yet_has_no_chart():
    game = penalty_game()
    assert game_chart(game, rules.play(game)) == ""


def test_a_house_chips_chart_starts_from_the_stacks_dealt():
    chips = rules.get_variant("chips")
    game = rules.Game("chips", ("Ann", "Ben"), "Ann", chips.resolve_settings({"preset": "house"}),
                      (rules.Round("Ann", {"Ben": rules.Hand(3)}),))
    result = rules.play(game)
    series = game_series(game, result)
    assert series["Ann"][0] == series["Ben"][0] == 50
    assert series["Ann"][-1] + series["Ben"][-1] == 100  # chips are conserved
    assert parse(game_chart(game, result)).find(f"{SVG}title").text == "Chips, hand by hand"


def test_a_jax_chart_counts_pots_won_toward_its_target():
    chips = rules.get_variant("chips")
    game = rules.Game("chips", ("Ann", "Ben"), "Ann", chips.resolve_settings({"preset": "jax"}),
                      (rules.Round("Ann", {"Ben": rules.Hand(3)}),))
    result = rules.play(game)
    assert game_series(game, result)["Ann"][0] == 0
    assert game_series(game, result)["Ann"][1] == result.totals["Ann"] > 0
    svg = str(game_chart(game, result))
    assert "Score (pots won), hand by hand" in svg and "ends at 100" in svg


def test_a_coronation_chart_counts_deals_won_up_to_the_deals_needed():
    coronation = rules.get_variant("coronation")
    game = rules.Game("coronation", ("Ann", "Ben"), "Ann",
                      coronation.resolve_settings({"deals_to_win": 3}),
                      (rules.Round(corners=("Ann", "Ann", "Ben", None), dragon="Ann"),))
    result = rules.play(game)
    assert game_series(game, result) == {"Ann": [0, 1], "Ben": [0, 0]}
    svg = str(game_chart(game, result))
    assert "Deals won, deal by deal" in svg and "ends at 3" in svg
    assert re.search(r">0<.*>1<", svg)  # the x axis counts deals from the start
