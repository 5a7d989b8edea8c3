"""The rules' own words, for the catalogue: `scorekeeper/rules/` imports the standard library
only, so its labels, blurbs, settings and classes are English there, and translated here,
where they are shown (`_(setting.label)` in a template, `home.label`).

Each is marked with N_ so `pybabel extract` puts it in the catalogue; tests/test_spanish.py
holds this list to every word the rules define, so a new setting cannot stay English.
"""

from __future__ import annotations

from ..words import N_

WORDS = (
    # The variants, as the new-game page offers them.
    N_("Penalty points"),
    N_("Cards left cost points; kings cost more. Lowest total wins."),
    N_("Chip pot"),
    N_("Everyone antes; passes and cards left pay into the pot, and the hand's winner takes "
       "it. Most chips win."),
    N_("Coronation"),
    N_("Two players. A point for each corner crowned King to Ace and one for slaying the "
       "dragon; more points win the deal."),
    # Sets of rules.
    N_("standard"), N_("house"), N_("jax"),
    # Penalty points.
    N_("Play to"),
    N_("The game ends after the hand in which a total gets there."),
    N_("Game ends when a total"),
    N_("reaches: total ≥ target; exceeds: total > target."),
    N_("reaches"), N_("exceeds"),
    N_("Points per king left"),
    N_("Points per other card left"),
    # Chip pot.
    N_("Chips each at the start"),
    N_("Every player starts with this many. Leave empty to split a total instead."),
    N_("Chips in the box, split evenly"),
    N_("Each player gets total ÷ players, rounded down; the rest stay in the box."),
    N_("Ante per hand"),
    N_("Chips for a pass"),
    N_("A turn with no card played. 0: not offered."),
    N_("Chips for being caught holding a king"),
    N_("0: not offered."),
    N_("Chips for forgetting to draw"),
    N_("Chips per other card left"),
    N_("Chips per king left"),
    N_("Re-split the chips every hand"),
    N_("On: the score is the pots won. Off: stacks carry over; 0 chips is out."),
    N_("The game ends after the hand in which a stack (or score) gets there."),
    # Coronation.
    N_("Deals to win the match"),
    N_("The first player to win this many deals wins the match."),
    N_("absolute"), N_("incredible"), N_("normal"), N_("draw"),
)


def rule_texts() -> set[str]:
    """Return every word the rules define that a page shows (for the test)."""
    from .. import rules

    texts = set()
    for variant in rules.VARIANTS.values():
        texts |= {variant.label, variant.blurb, *variant.presets}
        for setting in variant.settings:
            texts |= {setting.label, *setting.choices} | ({setting.help} - {""})
    return texts | {"absolute", "incredible", "normal", "draw"}
