"""The server compiles every page's templates before it serves, so the first phone to open a
page after a start does not wait for it, and sets what the start made aside from the garbage
collector, so no later request waits for a full pass over it."""

from __future__ import annotations

import gc

from scorekeeper.server.serve import compile_templates, ready
from tests.helpers import start_game


def test_no_page_compiles_a_template_once_the_server_has_started(app, client):
    game_id = start_game(client)
    env = app.jinja_env
    compiled = compile_templates(app)
    assert compiled >= 50  # every page, partial and variant template of the package
    before = len(env.cache)
    loaded = []
    original = env.loader.get_source

    def counted(environment, name):
        loaded.append(name)
        return original(environment, name)

    env.loader.get_source = counted
    try:
        for url in ("/", f"/games/{game_id}", f"/games/{game_id}/hands/new", "/history/",
                    "/players", "/players/1", "/players/1/more", "/seasons/", "/settings",
                    "/backup"):
            assert client.get(url).status_code in (200, 302), url
    finally:
        del env.loader.get_source
    # A variant's own part is looked for first and is not there for most (the shared one is
    # used): only such misses may be asked of the loader, never a template there is.
    there = set(env.list_templates())
    assert [name for name in loaded if name in there] == [] and len(env.cache) == before
    assert any(name.startswith("variants/penalty/") for name in loaded)  # the misses seen


def test_the_collectors_full_pass_looks_only_at_what_came_after_the_start(app, client):
    """A full pass once looked at every object of the start (about 120,000: 45-50 ms at ten
    years, a request stalled that long about once in a hundred player's pages)."""
    game_id = start_game(client)
    try:
        ready(app)
        start = gc.get_freeze_count()
        assert start > 50_000  # the modules, the app, its templates and statements
        for url in ("/", f"/games/{game_id}", "/history/", "/players/1"):
            assert client.get(url).status_code == 200, url
        gc.collect(1)  # what survives the pages moves on, to where a full pass looks
        assert len(gc.get_objects(generation=2)) < start / 10
    finally:
        gc.unfreeze()
