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
