"""Trust the table's certificate: how, on an iPhone and on Android, and the file to install."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, send_file

from ...server import tls

bp = Blueprint("trust", __name__)


def _authority() -> Path | None:
    """Return the table's certificate authority, if `make run HTTPS=1` has made one."""
    folder = current_app.config.get("TLS_FOLDER") or Path(current_app.instance_path) / "tls"
    path = tls.Files(Path(folder)).ca
    return path if path.is_file() else None


@bp.route("/trust")
def page():
    """Show how to trust the table's certificate, with its fingerprint to compare."""
    path = _authority()
    return render_template("trust.html", secure=request.is_secure, has_ca=path is not None,
                           fingerprint=tls.fingerprint(path) if path else None)


@bp.route("/ca.crt")
def authority():
    """Hand out the table's certificate authority, as a phone installs one (PEM)."""
    path = _authority()
    if path is None:
        abort(404)
    response = send_file(path, mimetype="application/x-x509-ca-cert", max_age=0,
                         download_name="kings-corners-ca.crt", conditional=True)
    response.headers["Cache-Control"] = "no-cache"
    return response
