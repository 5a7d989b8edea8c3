"""Flask-WTF forms: CSRF on every POST; the per-player parts of a hand are parsed in entry.py."""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, StringField, TextAreaField
from wtforms.validators import Length, Optional


class ConfirmForm(FlaskForm):
    """An empty form for a bare POST button (end, reopen, delete)."""


class HandForm(FlaskForm):
    """The fixed part of the record-hand form: which hand it is, and a once-only token."""

    number = HiddenField()
    token = HiddenField()


class ImportForm(FlaskForm):
    """A game log to import, uploaded or pasted."""

    file = FileField("Game log file (.json)")
    text = TextAreaField("…or paste it here", validators=[Optional(), Length(max=5_000_000)])


class NewGameForm(FlaskForm):
    """The fixed part of the new-game form; seats and settings are parsed in entry.py."""

    played_on = StringField(validators=[Optional()])


class RenameForm(FlaskForm):
    """A player's new name; the roster checks it is free (store.clean_name, Player.name_key)."""

    name = StringField("New name", validators=[Optional()])


class MergeForm(FlaskForm):
    """The duplicate roster entry to fold into this player, by id (tapped from a list)."""

    other = StringField(validators=[Optional()])


class RestoreForm(FlaskForm):
    """A whole-database backup to restore into an empty database."""

    file = FileField("Backup file (.json)")


class NightForm(FlaskForm):
    """A night's name and notes; nights.rename trims and checks them."""

    name = StringField("Name", validators=[Optional()])
    notes = TextAreaField("Notes", validators=[Optional()])


class MoveGameForm(FlaskForm):
    """The night to move a game to, by id, or "new" for a night of its own (tapped from a list)."""

    night = StringField(validators=[Optional()])
