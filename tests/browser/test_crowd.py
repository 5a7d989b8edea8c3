"""A night for a crowd in Chromium at a phone's size: 11 players, each on their own phone,
at three tables for three progressive rounds, to the night's winner. The host starts the
night; each player scans the night's QR code and taps their name once; each round every
phone is taken to its table and seat and sends its own part; Next round moves the winners
up and the lasts down; the night's page declares the winner."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.helpers import PHONE, Taps, phones, shot
from tests.helpers import ELEVEN

NAMES = ELEVEN


def phones_for(browser, base, names):
    """Yield the host's page and one page for each player, each its own phone; then check
    that no page met an error or a refusal of the Content-Security-Policy."""
    with phones(browser, base, len(names) + 1) as pages:
        yield pages[0], dict(zip(names, pages[1:]))


@pytest.fixture
def crowd_of_phones(browser, live_app):
    """Return the host's page and one page for each of the 11 players, each its own phone."""
    yield from phones_for(browser, live_app[1], NAMES)


@pytest.fixture
def twelve_phones(browser, live_app):
    """The same for 12 players: three tables of four."""
    yield from phones_for(browser, live_app[1], [*NAMES, "Lu"])


def tables_now(host) -> list[list[str]]:
    """Return the tables of the round being played, as the night's page lists them: each
    its players in seat order."""
    host.goto("/crowds/1")
    tables = host.locator(".crowd-round").first.locator(".crowd-table")
    return [tables.nth(i).locator(".crowd-seats li").all_inner_texts()
            for i in range(tables.count())]


def play_the_table(players, seated):
    """Each player at the table sends their own part from their phone: the first seat went
    out, the next ones hold 1, 2... cards, the last 4 kings among 10 (46: past 25, the
    game's over). Return the finishing order."""
    for index, name in enumerate(seated):
        page = players[name]
        taps = Taps(page)
        page.wait_for_selector("[data-mine]")
        if index == 0:
            taps.tap(page.locator("button[name=went_out]"))
        elif index == len(seated) - 1:
            taps.tap(page.locator(".my-kings label.tap").filter(has_text="4"))
            taps.tap(page.locator("button.key[value='10']"))
        else:
            taps.tap(page.locator(f"button.key[value='{index}']"))
    return list(seated)


def test_eleven_phones_three_tables_three_progressive_rounds_to_the_winner(crowd_of_phones):
    host, players = crowd_of_phones
    host.goto("/crowds/new")
    host.fill("#new_names", "\n".join(NAMES))
    host.fill("#table_size", "4")
    host.fill("#rounds", "3")
    shot(host, "crowd-new")
    host.locator("button:has-text('Seat everyone')").click()
    host.wait_for_url(re.compile(r"/crowds/1$"))
    assert "Round 1 of 3" in host.locator("h1").inner_text()
    # One QR code for the night: each phone opens what it carries, and taps its name once.
    qr = host.locator("#crowd-qr").get_attribute("href")
    join = parse_qs(urlparse(qr).query)["to"][0]
    for name, page in players.items():
        page.goto(join)
        assert page.locator("h1").inner_text() == "Which one are you?"
        page.locator("button.big").filter(has_text=name).click()
        page.wait_for_selector("[data-mine]")
        assert re.search(r"Round 1: table \d, seat \d", page.locator("main").inner_text())
    shot(players["Ann"], "crowd-phone-round-1")

    for number in (1, 2, 3):
        seated = tables_now(host)
        assert [len(t) for t in seated] == [4, 4, 3]
        assert sorted(n for t in seated for n in t) == sorted(NAMES)
        orders = [play_the_table(players, table) for table in seated]
        for page in players.values():
            page.wait_for_selector(".banner .winner")
        host.goto("/crowds/1")
        if number == 3:
            break
        host.locator("#next-round").click()
        assert f"Round {number + 1} is seated" in host.locator("main").inner_text()
        # Each phone is offered its next table, and told where and whether it moved.
        for page in players.values():
            page.locator("[data-next-game] a").click()
            page.wait_for_selector("[data-mine]")
            said = page.locator("main").inner_text()
            assert f"Round {number + 1}: table" in said
        up, down = orders[1][0], orders[0][-1]  # table 2's winner, table 1's last
        assert "you moved up from table 2" in players[up].locator("main").inner_text()
        assert "you moved down from table 1" in players[down].locator("main").inner_text()
        now = tables_now(host)
        assert up in now[0] and down in now[1] and orders[0][0] in now[0]
        shot(players[up], f"crowd-phone-round-{number + 1}")

    page = host.locator("main").inner_text()
    assert "The night is over" in page and re.search(r"wins? the night", page)
    # The winner has the most points: the top line of the night's standings.
    top = host.locator(".crowd-standings .standings li").first.locator(".who").inner_text()
    assert top in host.locator(".crowd-winner").inner_text()
    games = host.locator(".crowd-standings .togo").all_inner_texts()
    assert sum(int(re.search(r"(\d+) game", g)[1]) for g in games) == 33
    shot(host, "crowd-night-over")


def test_a_late_table_holds_the_next_round_for_its_players_alone(twelve_phones):
    """Three tables of four, progressive; table 3 is late. Next round seats table 1 (it
    waits for tables 1 and 2 only) and its phones are taken there; the players whose next
    table waits are told which table they wait for; once table 3 ends, Next round seats
    the rest and everyone is at a table of round 2, once."""
    host, players = twelve_phones
    host.goto("/crowds/new")
    host.fill("#new_names", "\n".join(players))
    host.fill("#table_size", "4")
    host.fill("#rounds", "2")
    host.locator("button:has-text('Seat everyone')").click()
    host.wait_for_url(re.compile(r"/crowds/1$"))
    join = parse_qs(urlparse(host.locator("#crowd-qr").get_attribute("href")).query)["to"][0]
    for name, page in players.items():
        page.goto(join)
        page.locator("button.big").filter(has_text=name).click()
        page.wait_for_selector("[data-mine]")
    seated = tables_now(host)
    orders = [play_the_table(players, table) for table in seated[:2]]  # table 3 is late
    for name in [*seated[0], *seated[1]]:
        players[name].wait_for_selector(".banner .winner")
    host.goto("/crowds/1")
    host.locator("#next-round").click()
    said = host.locator("main").inner_text()
    assert "Round 2, tables seated: 1," in said and "to end: 2, 3;" in said
    shot(host, "crowd-late-table-host")
    first = [*orders[0][:3], orders[1][0]]  # table 1's stayers and table 2's winner
    for name in first:
        players[name].locator("[data-next-game] a").click()
        players[name].wait_for_selector("[data-mine]")
        assert "Round 2: table 1" in players[name].locator("main").inner_text()
    down = orders[1][-1]  # table 2's last goes down to table 3: it waits for table 3
    players[down].wait_for_selector("#crowd-wait")
    assert "Waiting for table 3 to finish" in players[down].locator("#crowd-wait").inner_text()
    shot(players[down], "crowd-late-table-waiting")
    play_the_table(players, seated[2])
    host.goto("/crowds/1")
    host.locator("#next-round").click()
    assert "Round 2 is seated" in host.locator("main").inner_text()
    for name in [n for n in players if n not in first]:
        players[name].locator("[data-next-game] a").click()
        players[name].wait_for_selector("[data-mine]")
        assert "Round 2: table" in players[name].locator("main").inner_text()
    now = tables_now(host)
    assert [len(t) for t in now] == [4, 4, 4]
    assert sorted(n for t in now for n in t) == sorted(players)
    assert down in now[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_winner_card_hugs_its_line(browser, tmp_path, scheme):
    """The night's winner sits at the top of its card, no blank line above it."""
    from scorekeeper import crowd
    from scorekeeper.extensions import db
    from tests.helpers import make_app, play_out, serve, stop_serving

    app = make_app(tmp_path / "won.sqlite", csrf=True)
    with app.app_context():
        crowd_id = crowd.start(crowd.Plan(NAMES[:6], "penalty", {}, 3, rounds=1), seed=1)
        for game_id in (1, 2):
            play_out(game_id)
        db.session.remove()
    server, base = serve(app)
    try:
        context = browser.new_context(viewport=PHONE, base_url=base, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"/crowds/{crowd_id}")
        card = page.locator(".crowd-winner").bounding_box()
        line = page.locator(".crowd-winner .result").bounding_box()
        assert line["y"] - card["y"] <= 16, (card, line)  # the card's border and padding
        assert card["y"] + card["height"] - line["y"] - line["height"] <= 16, (card, line)
        shot(page, f"crowd-winner-{scheme}")
        context.close()
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()
