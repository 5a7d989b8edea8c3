"""docs/rules.md is what the rules compute: its worked examples play out as the page says,
and its settings tables are the defaults and limits the rules enforce."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import VARIANTS, Event, Game, Hand, Round, RuleError, get_variant

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```example\n(.*?)^```", TEXT, re.S | re.M)
# What a line under a hand may state, and what the page may say about the game as a whole.
ROUND_KEYS = ("first player", "won by", "dealer", "scores", "totals", "pot", "stacks", "out",
              "class")
RESULT_KEYS = ("not over", "over", "winners", "totals", "next first player", "next dealer",
               "out", "chips in play", "box", "deciding class")


@dataclass
class Example:
    """One worked example: the game as entered and what the page says the app computes."""

    text: str
    variant: str = ""
    given: dict[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    first_dealer: str | None = None
    rounds: list[Round] = field(default_factory=list)
    stated: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    result: list[tuple[str, str]] = field(default_factory=list)
    ended: bool = False
    refused: str | None = None

    def game(self) -> Game:
        """Return the game as the app would store it: settings resolved and checked."""
        settings = get_variant(self.variant).resolve_settings(self.given)
        return Game(self.variant, self.players, self.first_dealer or self.players[0],
                    settings, tuple(self.rounds), self.ended)


def names(text: str) -> tuple[str, ...]:
    """Return the names in "Ann, Cy"; "nobody" is none."""
    return () if text == "nobody" else tuple(part.strip() for part in text.split(","))


def per_player(text: str) -> dict[str, int]:
    """Return {"Ann": 12, "Ben": 0} from "Ann 12, Ben 0" (signs allowed: "Ben +10")."""
    pairs = (part.strip().rsplit(" ", 1) for part in text.split(","))
    return {name: int(number) for name, number in pairs}


def setting_value(text: str) -> Any:
    """Return a setting's value as written on the page: none, on/off, a number, a word."""
    words = {"none": None, "on": True, "off": False}
    if text in words:
        return words[text]
    return int(text.replace(",", "")) if re.fullmatch(r"[0-9,]+", text) else text


def split_keyed(text: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """Return the `key value` parts of "dealer Ann · pot 7", refusing an unknown key."""
    parts = []
    for part in (p.strip() for p in text.split("·")):
        key = next((k for k in keys if part == k or part.startswith(k + " ")), None)
        assert key is not None, f"unknown statement {part!r} in docs/rules.md"
        parts.append((key, part[len(key):].strip()))
    return parts


def read_round(text: str) -> Round:
    """Return the round a `hand N:` or `deal N:` line enters."""
    went_out, hands, events, corners, dragon = None, {}, (), (), None
    for part in (p.strip() for p in text.split("·")):
        if part == "stalemate":
            continue
        if m := re.fullmatch(r"(\S+) went out", part):
            went_out = m[1]
        elif m := re.fullmatch(r"(\S+) (\d+) cards?(?:, (\d+) kings?)?", part):
            hands[m[1]] = Hand(int(m[2]), int(m[3] or 0))
        elif part.startswith("taps "):
            events = tuple(Event(*tap.split()) for tap in part[5:].split(", "))
        elif part.startswith("corners "):
            corners = tuple(None if n == "nobody" else n for n in part[8:].split(", "))
        elif part.startswith("dragon "):
            dragon = None if part == "dragon nobody" else part[7:]
        else:
            raise AssertionError(f"cannot read {part!r} in docs/rules.md")
    return Round(went_out, hands, events, corners, dragon)


def read(block: str) -> Example:
    """Return the example a fenced block of the page holds."""
    example = Example(block)
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("→"):
            assert example.rounds, "a → line belongs under a hand"
            example.stated.setdefault(len(example.rounds), []).extend(
                split_keyed(stripped[1:], ROUND_KEYS))
        elif m := re.fullmatch(r"(hand|deal) (\d+): (.*)", stripped):
            word = "deal" if example.variant == "coronation" else "hand"
            assert m[1] == word and int(m[2]) == len(example.rounds) + 1, stripped
            example.rounds.append(read_round(m[3]))
        elif stripped == "ended by hand":
            example.ended = True
        elif ":" in stripped:
            key, value = (s.strip() for s in stripped.split(":", 1))
            if key == "variant":
                example.variant = value
            elif key == "rules":
                example.given = {k: setting_value(v) for k, v in
                                 (pair.split(" ", 1) for pair in value.split(", "))}
            elif key == "players":
                example.players = names(value)
            elif key == "first dealer":
                example.first_dealer = value
            elif key == "result":
                example.result = split_keyed(value, RESULT_KEYS)
            elif key == "refused":
                example.refused = value
            else:
                raise AssertionError(f"unknown line {stripped!r} in docs/rules.md")
        else:
            raise AssertionError(f"unknown line {stripped!r} in docs/rules.md")
    return example


EXAMPLES = [read(block) for block in BLOCKS]


def check_round(example: Example, number: int, done, key: str, value: str) -> None:
    """Assert one statement the page makes about a round."""
    said = f"docs/rules.md, {example.variant} example, round {number}: {key} {value}"
    found = {
        "dealer": lambda: done.dealer == value,
        "first player": lambda: done.first_player == value,
        "won by": lambda: done.hand_winners == names(value),
        "scores": lambda: dict(done.scores) == per_player(value),
        "totals": lambda: dict(done.totals) == per_player(value),
        "pot": lambda: done.extra["pot"] == int(value),
        "stacks": lambda: done.extra["stacks"] == per_player(value),
        "out": lambda: tuple(done.extra["busted"]) == names(value),
        "class": lambda: done.extra["victory"] == value,
    }[key]()
    assert found, f"{said}; the rules computed {done}"


def check_result(example: Example, result, key: str, value: str) -> None:
    """Assert one statement the page makes about where the game stands."""
    nobody = None if value == "nobody" else value
    found = {
        "over": lambda: result.over,
        "not over": lambda: not result.over,
        "winners": lambda: result.winners == names(value),
        "totals": lambda: dict(result.totals) == per_player(value),
        "next dealer": lambda: result.next_dealer == nobody,
        "next first player": lambda: result.next_first_player == nobody,
        "out": lambda: tuple(n for n in example.players if n in result.out) == names(value),
        "chips in play": lambda: result.extra["chips_in_play"] == int(value),
        "box": lambda: result.extra["box"] == int(value),
        "deciding class": lambda: result.extra["deciding_victory"] == value,
    }[key]()
    assert found, f"docs/rules.md, {example.variant} example: {key} {value}; computed {result}"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.text.splitlines()[0][9:] + ":"
                         + str(EXAMPLES.index(e) + 1))
def test_each_worked_example_plays_out_as_the_page_says(example):
    if example.refused is not None:
        with pytest.raises(RuleError) as caught:
            get_variant(example.variant).play(example.game())
        assert str(caught.value) == example.refused
        return
    result = get_variant(example.variant).play(example.game())
    assert example.stated or example.result, "an example states what the app computes"
    for number, statements in example.stated.items():
        for key, value in statements:
            check_round(example, number, result.rounds[number - 1], key, value)
    for key, value in example.result:
        check_result(example, result, key, value)


def played() -> list[tuple[Example, Any]]:
    """Return every example that plays, with what the rules computed for it."""
    return [(e, get_variant(e.variant).play(e.game())) for e in EXAMPLES if e.refused is None]


def test_the_examples_show_every_edge_the_page_names():
    games = played()
    rounds = [(e, done) for e, result in games for done in result.rounds]
    chips = [(e, done) for e, done in rounds if e.variant == "chips"]
    assert {e.variant for e in EXAMPLES} == set(VARIANTS)
    assert {e.game().settings["preset"] for e, _ in chips} == {"house", "jax"}
    # A stalemate won by a tie, in penalty points and in the chip pot.
    assert {e.variant for e, done in rounds
            if e.variant != "coronation" and len(done.hand_winners) > 1} == {"penalty", "chips"}
    # A split pot whose odd chips go left of the dealer, and a bust that puts a player out.
    assert any(done.extra["pot"] % len(done.hand_winners) for _, done in chips)
    assert any(done.extra["busted"] for _, done in chips)
    # A short stack in the re-split set that is dry after a hand and not out.
    assert any(0 in done.extra["stacks"].values() and not done.extra["busted"]
               for e, done in chips if e.game().settings["reset_each_hand"])
    # Every victory class of coronation, a draw among them.
    assert {done.extra["victory"] for e, done in rounds if e.variant == "coronation"} == {
        "absolute", "incredible", "normal", "draw"}
    # Reaches and exceeds, a shared win, a game ended by hand, and refusals.
    assert {e.game().settings["end_when"] for e, _ in games if e.variant == "penalty"} == {
        "reaches", "exceeds"}
    assert any(len(result.winners) > 1 for _, result in games)
    assert any(e.ended for e, _ in games)
    assert sum(e.refused is not None for e in EXAMPLES) >= 3


# -- the settings tables ----------------------------------------------------------------------

def tables() -> dict[str, list[dict[str, str]]]:
    """Return each settings table of the page, by the variant whose section holds it."""
    found = {}
    labels = {variant.label: name for name, variant in VARIANTS.items()}
    for match in re.finditer(r"<!-- the settings of [^>]*-->\n((?:\|.*\n)+)", TEXT):
        heading = re.findall(r"^## (.+)$", TEXT[:match.start()], re.M)[-1]
        lines = [[cell.strip() for cell in line.strip("|").split("|")]
                 for line in match[1].splitlines()]
        header, rows = lines[0], lines[2:]
        found[labels[heading]] = [dict(zip(header, row)) for row in rows]
    return found


def allowed(text: str) -> dict[str, Any]:
    """Return the limits an "allowed" cell states: a range (or none), or the choices."""
    if m := re.fullmatch(r"([0-9,]+) to ([0-9,]+)(, or none)?", text):
        return {"minimum": setting_value(m[1]), "maximum": setting_value(m[2]),
                "optional": bool(m[3]), "choices": ()}
    return {"minimum": None, "maximum": None, "optional": False,
            "choices": tuple(text.split(" or "))}


def test_every_variant_has_a_settings_table_naming_each_of_its_settings():
    found = tables()
    assert set(found) == set(VARIANTS)
    for name, variant in VARIANTS.items():
        listed = [row["setting"].strip("`") for row in found[name]]
        own = [s.name for s in variant.settings]
        assert set(listed) == set(own) | ({"preset"} if len(variant.presets) > 1 else set())


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_settings_tables_give_the_defaults_the_rules_fill_in(name):
    variant = VARIANTS[name]
    rows = tables()[name]
    columns = {"default": "", "House": "house", "Jax": "jax"}
    for column, preset in columns.items():
        if column not in rows[0]:
            continue
        defaults = variant.resolve_settings({"preset": preset} if preset else {})
        for row in rows:
            setting = row["setting"].strip("`")
            assert setting_value(row[column]) == defaults[setting], (name, column, setting)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_settings_tables_give_the_limits_the_rules_enforce(name):
    variant = VARIANTS[name]
    by_name = {s.name: s for s in variant.settings}
    for row in tables()[name]:
        setting = row["setting"].strip("`")
        stated = allowed(row["allowed"])
        if setting == "preset":
            assert set(stated["choices"]) == set(variant.presets)
            continue
        own = by_name[setting]
        if own.kind is bool:
            assert set(stated["choices"]) == {"on", "off"}, setting
            continue
        assert stated == {"minimum": own.minimum, "maximum": own.maximum,
                          "optional": own.optional, "choices": own.choices}, setting
