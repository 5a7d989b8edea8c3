"""make bench times the pages a table opens: each one it asks for answers, at one year and
at two, so that a page moved or renamed cannot leave the limits judged on an error page."""

from __future__ import annotations

import random
import sys

from scorekeeper.extensions import db
from tests.helpers import ROOT

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
