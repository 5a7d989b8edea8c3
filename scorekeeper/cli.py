"""Command-line tools: `flask --app app games import FILE`, `... games export ID`."""

from __future__ import annotations

import json
import sys

import click
from flask import Flask
from flask.cli import AppGroup

from . import rules
from .extensions import db
from .models import Game

games_cli = AppGroup("games", help="Import and export game logs (shared/GAMELOG.md).")


@games_cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def import_command(file) -> None:
    """Import a game log from FILE (- for standard input); print the new game's id."""
    from .views.logs import import_text

    try:
        game = import_text(file.read())
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        click.echo(f"refused, nothing imported: {error}", err=True)
        sys.exit(1)
    click.echo(game.id)


@games_cli.command("export")
@click.argument("game_id", type=int)
def export_command(game_id: int) -> None:
    """Print game GAME_ID's log as JSON."""
    from .views.logs import export_document

    game = db.session.get(Game, game_id)
    if game is None:
        click.echo(f"no game {game_id}", err=True)
        sys.exit(1)
    click.echo(json.dumps(export_document(game), indent=2, ensure_ascii=False))


def register(app: Flask) -> None:
    """Add the project's commands to `flask`."""
    from . import backup

    app.cli.add_command(games_cli)
    backup.register(app)
