"""Flask-WTF forms: CSRF on every POST; ids and numbers parsed by WTForms fields.

The per-player inputs of a round form depend on the seats and the variant, so each
variant's home reads those (variants/*); the fixed part of every form is here.
"""

import re

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import HiddenField, IntegerField, RadioField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

TOKEN = [Optional(), Length(max=64)]
BIGGEST_ID = 2**31 - 1  # an id past what every database's integer column holds is no id


def whole(text: str | None) -> int:
    """Return a whole number typed in ASCII digits ("-" first at most), or raise ValueError.

    Python's int() takes "٣" and "³"-like digits str.isdigit() lets through and then fails
    on; every number the app reads goes through here instead (as `type=whole`).
    """
    text = (text or "").strip()
    if not re.fullmatch(r"-?[0-9]{1,10}", text):
        raise ValueError(f"not a whole number: {text[:20]!r}")
    return int(text)


class WholeNumber(IntegerField):
    """A whole number as WTForms reads it, but never a longer one than an id can be.

    WTForms' NumberRange compares through floats, so a number past 10^308 would raise
    instead of being refused: one of more digits than BIGGEST_ID is refused as not a number.
    """

    def process_formdata(self, valuelist):
        if valuelist and (len(valuelist[0].strip().lstrip("+-0")) > len(str(BIGGEST_ID))
                          or not re.fullmatch(r"[-+]?[0-9]*", valuelist[0].strip())):
            self.data = None
            raise ValueError(self.gettext("Not a valid integer value."))
        super().process_formdata(valuelist)


def hidden_number(minimum: int = 0, required: bool = False) -> IntegerField:
    """Return a whole number carried in a hidden input (a hand number, an id)."""
    return WholeNumber(widget=HiddenInput(), validators=[
        InputRequired() if required else Optional(), NumberRange(minimum, BIGGEST_ID)])


class ConfirmForm(FlaskForm):
    """An empty form for a bare POST button (end, reopen, delete)."""


class HandForm(FlaskForm):
    """The fixed part of the round form: which round it is, and a once-only token."""

    number = hidden_number()
    token = HiddenField(validators=TOKEN)
    was = HiddenField(validators=[Optional(), Length(max=40)])  # the round, when opened


class UndoHandForm(FlaskForm):
    """Take back the round just saved: the once-only token it was saved with names it."""

    token = HiddenField(validators=TOKEN)


class TapForm(FlaskForm):
    """One tap of the live pot: the hand it was meant for, whose seat, what happened."""

    number = hidden_number()
    player = hidden_number()
    kind = HiddenField(validators=[Optional(), Length(max=20)])
    token = HiddenField(validators=TOKEN)


class UndoForm(FlaskForm):
    """Take back the last tap: the hand it was in and the event the button showed."""

    number = hidden_number()
    event = hidden_number()


class ImportForm(FlaskForm):
    """A game log to import, uploaded or pasted."""

    file = FileField(_l("Game log file (.json)"))
    text = TextAreaField(_l("…or paste it here"), validators=[Optional(), Length(max=5_000_000)])


class NewGameForm(FlaskForm):
    """The fixed part of the new-game form; seats and settings are read in views/games.py."""


class RenameForm(FlaskForm):
    """A player's new name; the roster checks it is free (storage.players.rename)."""

    name = StringField(_l("New name"), validators=[Optional()])


class MergeForm(FlaskForm):
    """The duplicate roster entry to fold into this player; the view sets the choices."""

    other = RadioField(coerce=int, validate_choice=True,
                       validators=[InputRequired(_l("Tap the entry to fold into this one."))])


class RestoreForm(FlaskForm):
    """A whole-database backup to restore into an empty database."""

    file = FileField(_l("Backup file (.json)"))


class NightForm(FlaskForm):
    """A night's name and notes; storage.nights.rename trims and checks them."""

    name = StringField(_l("Name"), validators=[Optional()])
    notes = TextAreaField(_l("Notes"), validators=[Optional()])


class MoveGameForm(FlaskForm):
    """The night to move a game to, or "new" for a night of its own; the view sets the choices."""

    night = RadioField(validate_choice=True,
                       validators=[InputRequired(_l("Choose the night to move this game to."))])


class PasscodeForm(FlaskForm):
    """A new table passcode; db.access.clean checks it."""

    passcode = StringField(_l("New passcode"), validators=[Optional()])


class SeasonForm(FlaskForm):
    """A season the table names: db.named_seasons checks the name and the two days."""

    name = StringField(_l("Name"), validators=[Optional()])
    first_day = StringField(_l("First day"), validators=[Optional()])
    last_day = StringField(_l("Last day"), validators=[Optional()])
