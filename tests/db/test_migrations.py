"""The committed migrations build exactly the schema the models declare."""

from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from scorekeeper.extensions import db
from tests.helpers import migrated_app, schema_drift, with_part


def test_upgrading_an_empty_database_gives_what_the_models_declare(tmp_path):
    app = migrated_app(f"sqlite:///{tmp_path / 'migrated.sqlite'}")
    with app.app_context():
        assert schema_drift(db.engine) == []
        tables = set(inspect(db.engine).get_table_names())
        assert {t.name for t in db.metadata.sorted_tables} | {"alembic_version"} == tables
        db.engine.dispose()


def test_the_migrations_have_one_head_and_downgrade_to_nothing_and_back(tmp_path):
    app = migrated_app(f"sqlite:///{tmp_path / 'both_ways.sqlite'}")
    with app.app_context():
        script = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
        assert len(script.get_heads()) == 1
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        upgrade()
        assert schema_drift(db.engine) == []
        db.engine.dispose()


def test_undoing_the_version_migration_keeps_every_game_and_its_hands(tmp_path):
    from tests.helpers import hand_data, start_game

    app = migrated_app(f"sqlite:///{tmp_path / 'kept.sqlite'}")
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    game_id = start_game(client, ["Ann", "Ben"])
    client.post(f"/games/{game_id}/hands/new", data=hand_data(["Ann", "Ben"], "Ann", {"Ben": 3}))
    with app.app_context():
        counts = [db.session.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                  for t in ("game", "seat", "round", "hand_entry")]
        downgrade(revision="0001")
        assert [db.session.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                for t in ("game", "seat", "round", "hand_entry")] == counts == [1, 2, 1, 1]
        upgrade()
        db.session.remove()
    assert "Record hand 2" in client.get(f"/games/{game_id}").get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()


def test_the_migrations_fill_the_cache_for_games_already_played(tmp_path):
    from scorekeeper.db import results
    from tests.helpers import hand_data, start_game

    app = migrated_app(f"sqlite:///{tmp_path / 'filled.sqlite'}")
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    for variant in ("penalty", "chips"):
        game_id = start_game(client, ["Ann", "Ben"], variant=variant)
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(["Ann", "Ben"], "Ann", {"Ben": (3, 1)}))
    client.post(f"/games/{game_id}/end")  # one finished game: wins, a night, a meeting
    with app.app_context():
        downgrade(revision="0002")  # as a database from before the cache
        upgrade()
        filled = db.session.execute(text("SELECT count(*) FROM result_seat")).scalar()
        assert filled == 4 and results.check() == []
        assert "player_tally" not in inspect(db.engine).get_table_names()
        db.session.remove()
        db.engine.dispose()


def test_the_records_migration_gives_the_games_already_played_their_bests(tmp_path):
    from scorekeeper.db import results
    from scorekeeper.reports import ratings
    from tests.helpers import hand_data, start_game

    app = migrated_app(f"sqlite:///{tmp_path / 'records.sqlite'}")
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    game_id = start_game(client, ["Ann", "Ben"])
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(["Ann", "Ben"], "Ann", {"Ben": (4, 3)}))  # 33: Ann wins
    with app.app_context():
        downgrade(revision="0010")  # as a database from before the records
        assert "result_best" not in inspect(db.engine).get_table_names()
        upgrade()
        assert db.session.execute(text(
            "SELECT player_id, fact, value FROM result_best")).all() == [(2, "best_kings", 3)]
        assert results.check() == [] and ratings.check() == []
        db.session.remove()
    assert "<b>3 kings</b>" in with_part(client, "/players/2").get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()
