"""The server compiles every page's templates before it serves, so the first phone to open a
page after a start does not wait for it."""

from __future__ import annotations

from scorekeeper.server.serve import compile_templates
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
                    "/players", "/players/1", "/seasons/", "/settings", "/backup"):
            assert client.get(url).status_code in (200, 302), url
    finally:
        del env.loader.get_source
    # A variant's own part is looked for first and is not there for most (the shared one is
    # used): only such misses may be asked of the loader, never a template there is.
    there = set(env.list_templates())
    assert [name for name in loaded if name in there] == [] and len(env.cache) == before
    assert any(name.startswith("variants/penalty/") for name in loaded)  # the misses seen
