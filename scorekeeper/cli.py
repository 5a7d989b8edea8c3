"""Every command of the app: `games import|export`, `backup`, `restore`, `results check|rebuild`,
`passcode set|clear`."""

from __future__ import annotations

import contextlib
import functools
import sys

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import inspect

from . import play, rules
from .db import access, read_game, results
from .db.models import Player
from .extensions import db
from .reports import backup, exchange, ratings


def _where_it_stands():
    """Return whether the database has its tables yet, the revision it is at, and this
    version's migrations (their newest: `.get_current_head()`)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    with db.engine.connect() as connection:
        made = inspect(connection).has_table(Player.__tablename__)
        at = MigrationContext.configure(connection).get_current_revision()
    return made, at, ScriptDirectory(current_app.extensions["migrate"].directory)


def current(command):
    """Run a command that writes on the database at its newest revision, as `serve` serves
    it: made on a fresh install (a new machine is where a backup goes), upgraded after a new
    version. What the upgrade did ("Database: created (revision …)") is said on stderr;
    nothing is said, or done, when it is at the newest already."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        _, at, script = _where_it_stands()
        if at != script.get_current_head():
            from flask_migrate import upgrade

            with contextlib.redirect_stdout(sys.stderr):
                upgrade()
        return command(*args, **kwargs)

    return run


def as_it_is(command):
    """Run a command that only reads on the database as it is: never made or upgraded by
    it, so a mistyped folder is said, not backed up as an empty database. Refused in one
    line, exit 1, when there is no database yet or it is older than this version reads; one
    a newer version left is read as far as this one knows it (a backup is the way back)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        from alembic.util import CommandError

        made, at, script = _where_it_stands()
        where = db.engine.url.render_as_string(hide_password=True)
        if not made:
            _stop(f"no database at {where} yet: start the app once (kings-corners "
                  "serve), or restore a backup into it")
        head = script.get_current_head()
        try:
            older = at is not None and at != head and script.get_revision(at) is not None
        except CommandError:  # a revision this version does not know: a newer one's
            older = False
        if older:
            _stop(f"the database at {where} is at revision {at}, older than this version "
                  f"reads ({head}): start the app once (kings-corners serve upgrades it), or "
                  "run kings-corners db upgrade")
        return command(*args, **kwargs)

    return run


def _stop(said: str) -> None:
    """Say why a command did nothing, on stderr, and exit 1."""
    click.echo(said, err=True)
    sys.exit(1)


games_cli = AppGroup("games", help="Import and export game logs (docs/gamelog.md).")


def _write(change, nothing: str):
    """Run a change (done whole by `play`); on a refusal say why on stderr and exit 1."""
    try:
        return change()
    except rules.RuleError as error:
        click.echo(f"refused, nothing {nothing}: {error}", err=True)
        sys.exit(1)


@games_cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8", errors="replace"))
@current
def import_command(file) -> None:
    """Import a game log from FILE (- for standard input); print the new game's id."""
    limit = current_app.config["LOG_MAX_BYTES"]
    text = file.read(limit + 1)  # read once, outside the write lock, and never more
    if len(text.encode("utf-8", errors="replace")) > limit:
        click.echo(f"refused, nothing imported: a game log can be at most "
                   f"{limit / 1024 ** 2:g} MB", err=True)
        sys.exit(1)
    try:
        parsed = exchange.read_log(text)
    except rules.RuleError as error:
        click.echo(f"refused, nothing imported: {error}", err=True)
        sys.exit(1)
    click.echo(_write(lambda: play.import_game(parsed), "imported"))


@games_cli.command("export")
@click.argument("game_id", type=click.IntRange(1, 2**31 - 1))
@as_it_is
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
@as_it_is
def backup_command(file) -> None:
    """Write the whole database as one JSON backup to FILE (- for standard output)."""
    for chunk in backup.chunks():
        file.write(chunk)


@click.command("restore")
@click.argument("file", type=click.File("rb"))
@with_appcontext
@current
def restore_command(file) -> None:
    """Rebuild a JSON backup from FILE (- for standard input) into the empty database."""
    counts = _write(lambda: play.restore(file), "restored")
    click.echo(f"restored {backup.summary(counts)}")


results_cli = AppGroup("results", help="The cache of each game's result, and the ratings "
                       "computed from it: check or rebuild them.")


@results_cli.command("check")
@as_it_is
def check_command() -> None:
    """Recompute every game and its ratings; report any difference from what is kept (exit 1
    if one)."""
    differences = results.check() + ratings.check()
    for line in differences:
        click.echo(line)
    if differences:
        click.echo(f"{len(differences)} differ: run `flask --app app results rebuild`", err=True)
        sys.exit(1)
    click.echo("every cached result matches the games as entered")


@results_cli.command("rebuild")
@current
def rebuild_command() -> None:
    """Fill the cache, then the ratings, again from what was entered."""
    count = _write(play.rebuild_results, "rebuilt")
    click.echo(f"rebuilt the results of {count} game{'' if count == 1 else 's'}")


passcode_cli = AppGroup("passcode", help="The table passcode: set it, or clear it.")


@passcode_cli.command("set")
@current
def passcode_set_command() -> None:
    """Set the table passcode; asked twice at a terminal, else the first line of stdin."""
    if sys.stdin.isatty():
        text = click.prompt("Table passcode", hide_input=True, confirmation_prompt=True)
    else:
        line = sys.stdin.buffer.readline(access.LONGEST * 4 + 2)
        try:
            text = line.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            click.echo("refused, nothing set: the passcode must be UTF-8 text", err=True)
            sys.exit(1)
    was_on = _write(lambda: play.set_passcode(text), "set")
    click.echo("passcode changed: every phone gives the new one before a change" if was_on
               else "passcode set: a phone gives it once before it changes anything")


@passcode_cli.command("clear")
@current
def passcode_clear_command() -> None:
    """Remove the table passcode: every phone may change things again."""
    was_on = _write(play.clear_passcode, "cleared")
    click.echo("passcode cleared: every phone may change things" if was_on
               else "there was no passcode")


def register(app: Flask) -> None:
    """Add the project's commands to `flask`."""
    app.cli.add_command(games_cli)
    app.cli.add_command(results_cli)
    app.cli.add_command(passcode_cli)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
