"""A backup restored on a phone, then the roster and a player's page looked at 390 px wide."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from scorekeeper.reports import gamelog
from tests.browser.helpers import PHONE, shot
from tests.helpers import two_nights


def backup_file(tmp_path):
    """Write the six games of two_nights() (tests/helpers.py) as a backup file; return it."""
    nights = {}
    for index, p in enumerate(two_nights()):
        start = datetime.combine(p.played_on, datetime.min.time()) + timedelta(hours=19)
        night = nights.setdefault(p.night, {"name": p.night_label, "notes": None,
                                            "started_at": start.isoformat(), "games": []})
        at = (start + timedelta(minutes=20 * index)).isoformat()
        night["games"].append({**gamelog.render(p.game, p.played_on), "created_at": at,
                               "recorded_at": [at] * len(p.game.rounds)})
    doc = {"format": "kings-corners-backup/1", "nights": list(nights.values()),
           "roster": [{"name": name, "created_at": "2026-11-20T19:00:00"}
                      for name in ("Ann", "Ben", "Cy")]}
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def fits_the_phone(page) -> bool:
    """Tell whether the page needs no sideways scrolling."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def small_targets(page) -> list[str]:
    """Return the buttons and links in the page body shorter than a thumb (44 px)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        'main .button, main summary, main .h2h a, main .list a, main .tap span'))
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map(e => e.textContent.trim())""")


def test_a_restored_backup_shows_each_players_statistics_on_a_phone(phone, tmp_path):
    page, taps = phone
    page.goto("/backup")
    shot(page, "players-backup-empty")
    page.set_input_files("input[type=file]", str(backup_file(tmp_path)))
    taps.tap("button:has-text('Restore backup')")
    page.wait_for_url("**/players")
    assert "Restored 3 players, 2 nights and 6 games." in page.locator(".flash").inner_text()
    rows = page.locator(".roster-list li")
    assert rows.nth(0).inner_text().split("\n") == ["Ann", "5 games · 4 wins", "80%"]
    assert fits_the_phone(page) and small_targets(page) == []
    shot(page, "players-roster")

    taps.tap(rows.nth(0).locator("a"))
    page.wait_for_selector(".figures")
    # The charts, rivals and head-to-head follow by themselves, no tap: fetched into place.
    page.wait_for_selector(".h2h")
    assert page.locator("[data-more] a.button").count() == 0  # the link gave way to them
    assert page.locator(".figures").inner_text().split() == [
        "5", "games", "4", "wins", "80%", "win", "rate"]
    assert "Friday: 2 wins in 2 games" in page.locator(".best").inner_text()
    assert page.locator("svg#form-chart, svg[aria-labelledby^=form-chart]").is_visible()
    ben = page.locator(".h2h li").first
    assert "Ann ahead 3 · level 1 · behind 1" in ben.inner_text()
    assert fits_the_phone(page) and small_targets(page) == []
    assert taps.count == 2
    shot(page, "players-player")


def test_renaming_to_a_taken_name_shows_the_message_by_the_field(phone, tmp_path):
    page, taps = phone
    page.goto("/backup")
    page.set_input_files("input[type=file]", str(backup_file(tmp_path)))
    taps.tap("button:has-text('Restore backup')")
    taps.tap(page.locator(".roster-list a").filter(has_text="Cy"))
    taps.tap("summary:has-text('Rename')")
    page.fill("input[name=name]", "ben")
    taps.tap("button:has-text('Save name')")
    error = page.locator("#name-error")
    assert "“Ben” is already on the roster" in error.inner_text()
    assert page.locator("input[name=name]").input_value() == "ben"
    assert page.locator("input[name=name]").get_attribute("aria-invalid") == "true"
    shot(page, "players-rename-taken")

    taps.tap("a:has-text('Merge a duplicate')")
    assert page.locator(".taps label.tap").count() == 2
    assert fits_the_phone(page) and small_targets(page) == []
    shot(page, "players-merge")
