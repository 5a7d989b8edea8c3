"""Back up the whole database as one JSON file; restore one into an empty database."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    stream_with_context,
    url_for,
)
from flask_babel import gettext

from ... import play, rules
from ...db.models import table_time
from ...reports import backup
from ...words import refused_where
from ..forms import RestoreForm
from ..pages import body_limit, expired
from ..passcode import asks

bp = Blueprint("backup", __name__, url_prefix="/backup")


def _page(form: RestoreForm, error: str | None = None):
    """Render the backup page: what the database holds, the download, the restore form."""
    counts = backup.counts()
    return render_template("backup.html", form=form, error=error, counts=counts,
                           empty=not any(counts.values())), 422 if error else 200


@bp.route("")
@asks  # a phone without the table passcode is asked for it first
def page():
    """Offer the backup download and the restore upload."""
    return _page(RestoreForm())


@bp.route("/download")
@asks  # a phone without the table passcode is asked for it first
def download():
    """Download the whole database as one JSON backup."""
    filename = f"kings-corners-backup-{table_time().date().isoformat()}.json"
    return Response(stream_with_context(backup.chunks()), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.route("/restore", methods=["POST"])
# Years of history are bigger than any other form: the file goes to a temporary file as it
# arrives and is read from there a night at a time, so memory stays the same.
@body_limit("RESTORE_MAX_BYTES")
def restore():
    """Rebuild an uploaded backup into the empty database, or refuse and write nothing."""
    form = RestoreForm()
    if not form.validate_on_submit():
        return _page(form, expired("restored"))
    upload = form.file.data
    if not upload:
        return _page(form, gettext("Choose a backup file first."))
    try:
        counts = play.restore(upload.stream)
    except rules.RuleError as refused:
        return _page(form, gettext("Nothing was restored. %(why)s",
                                   why=refused_where(refused)))
    flash(gettext("Restored %(what)s.", what=backup.summary(counts)))
    return redirect(url_for("players.roster"))
