"""make bench times the pages a table opens: each one it asks for answers, at one year and
at two, so that a page moved or renamed cannot leave the limits judged on an error page."""

from __future__ import annotations

import random
import sys

from sqlalchemy import func, select

from scorekeeper.db.models import Round
from scorekeeper.extensions import db
from tests.helpers import ROOT, make_app, serve, stop_serving

sys.path.insert(0, str(ROOT / "bench"))


def test_every_page_the_bench_times_answers_at_each_size(app, client):
    from bench_years import fill, pages

    with app.app_context():
        fill(2, random.Random(2))
    for label, at_one_year, at_two_years, headers in pages(2):
        for path in (at_one_year, at_two_years):
            response = client.get(path, headers=headers)
            assert response.status_code in (200, 204), (label, path, response.status_code)
    with app.app_context():
        db.session.remove()


def test_the_load_plays_every_table_and_each_request_answers(tmp_path):
    """make bench's crowd load against a real server (CSRF on, as served): its tables are
    made, each kind of request is timed, none is refused and a hand is saved at each."""
    from bench_load import load

    app = make_app(tmp_path / "load.sqlite", csrf=True)
    server, base = serve(app, threads=8)
    try:
        timings = load(int(base.rsplit(":", 1)[1]), 2, 6)  # a save within 3 s
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()
    assert timings.errors == []
    assert {"poll", "board", "tv poll", "tv board", "save"} <= set(timings.kinds)
    with app.app_context():
        assert db.session.scalar(select(func.count(func.distinct(Round.game_id)))) == 2
        db.session.remove()
