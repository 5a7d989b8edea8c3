"""Every command of the app: `flask --app app games import|export`, `backup`, `restore`."""

from __future__ import annotations

import sys

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from . import backup, exchange, rules
from .extensions import db
from .storage import lock, read_game

games_cli = AppGroup("games", help="Import and export game logs (docs/gamelog.md).")


def _write(change, nothing: str):
    """Run a change and commit it; on a refusal roll back, say why on stderr, exit 1."""
    try:
        lock()  # one writer at a time, as for a phone
        done = change()
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        click.echo(f"refused, nothing {nothing}: {error}", err=True)
        sys.exit(1)
    return done


@games_cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def import_command(file) -> None:
    """Import a game log from FILE (- for standard input); print the new game's id."""
    game = _write(lambda: exchange.import_text(file.read()), "imported")
    click.echo(game.id)


@games_cli.command("export")
@click.argument("game_id", type=int)
def export_command(game_id: int) -> None:
    """Print game GAME_ID's log as JSON."""
    game = read_game(game_id)
    if game is None:
        click.echo(f"no game {game_id}", err=True)
        sys.exit(1)
    click.echo(exchange.export_text(game), nl=False)


@click.command("backup")
@click.argument("file", type=click.File("w", encoding="utf-8"))
@with_appcontext
def backup_command(file) -> None:
    """Write the whole database as one JSON backup to FILE (- for standard output)."""
    file.write(backup.dumps(backup.document()))


@click.command("restore")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@with_appcontext
def restore_command(file) -> None:
    """Rebuild a JSON backup from FILE (- for standard input) into the empty database."""
    counts = _write(lambda: backup.restore_text(file.read()), "restored")
    click.echo(f"restored {backup.summary(counts)}")


def register(app: Flask) -> None:
    """Add the project's commands to `flask`."""
    app.cli.add_command(games_cli)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
