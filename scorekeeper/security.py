"""What keeps a stranger's web page and a stranger's phone from the table's data.

- Only the hosts the app answers to: localhost, this machine's addresses and names, and
  what PUBLIC_URL and TRUSTED_HOSTS name. Any other Host header gets a 400, so a page
  elsewhere cannot reach the app by pointing a name of its own at it (DNS rebinding).
- Headers on every response: no script but the app's own files, no framing, no sniffing,
  no referrer sent to another site.
- instance/ readable by its owner only; the secret key and the database file created so.
  One that cannot be written (a read-only disk, another user's folder, a full disk) stops
  the app at its start with one line that says so (`Unwritable`), not a traceback.
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import click
from flask import Flask

from .network import lan_addresses

# No script but the app's own files; styles may be inline (the charts' bars and sizes).
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
          "frame-ancestors 'none'; "
          "base-uri 'none'; form-action 'self'; object-src 'none'")
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers from before it
    "Referrer-Policy": "same-origin",
}


def trusted_hosts(public_url: str | None, extra: str = "") -> list[str]:
    """Return the host names and addresses the app answers to."""
    hosts = ["localhost", "127.0.0.1", *lan_addresses()]
    name = socket.gethostname().lower()
    if name and name != "localhost":
        hosts += [name, f"{name}.local"]
    if public_url:
        hosts.append((urlsplit(public_url).hostname or "").lower())
    hosts += [h.strip().lower() for h in extra.split(",") if h.strip()]
    return list(dict.fromkeys(h for h in hosts if h))


def guard(app: Flask) -> None:
    """Answer only the trusted hosts, and add the headers to every response."""
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(
            app.config.get("PUBLIC_URL"), os.environ.get("TRUSTED_HOSTS", ""))
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:  # Flask's default is None
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"

    @app.after_request
    def _headers(response):
        for header, value in HEADERS.items():
            response.headers.setdefault(header, value)
        return response


class Unwritable(click.ClickException):
    """A folder or file the app keeps its data in cannot be written: said in one line.

    A ClickException, so `flask ...` (which creates the app while finding its command)
    prints "Error: " and the line, and exits 1; `python -m scorekeeper.serve` does the same.
    """


def _unwritable(path: Path, error: OSError, kind: str) -> Unwritable:
    """Return the one line that says why `path` (a "folder" or a "file") cannot be written."""
    keeps = ("Kings Corners keeps its database and secret key there" if kind == "folder"
             else "Kings Corners must be able to write it")
    if error.errno == errno.EROFS:
        why = (f"the {kind} is read-only (its disk is mounted read-only). {keeps}; "
               "make the disk writable (remount it read-write) and start again.")
    elif error.errno in (errno.EACCES, errno.EPERM):
        why = (f"permission denied (the {kind} belongs to another user?). {keeps}; start "
               f"Kings Corners as the user who owns it, or give that user the {kind}.")
    elif error.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full. Free some space and start again."
    else:
        why = f"{error.strerror or error}. {keeps}."
    return Unwritable(f"Cannot write to {path}: {why}")


def private_folder(path: Path) -> None:
    """Make a folder (instance/) that only its owner may open, tightening an old one;
    raise `Unwritable` if it cannot be written."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)
    except OSError as error:
        raise _unwritable(path, error, "folder") from error


def private_file(path: Path, text: str | None = None) -> None:
    """Create a file readable by its owner only from the first moment (with `text`, if
    given), or make an existing one so; raise `Unwritable` if it cannot be written."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            path.chmod(0o600)
        except OSError as error:
            raise _unwritable(path, error, "file") from error
        return
    except OSError as error:
        raise _unwritable(path, error, "file") from error
    try:
        with os.fdopen(descriptor, "w") as file:
            if text is not None:
                file.write(text)
    except OSError as error:
        path.unlink(missing_ok=True)  # never half a secret key, read as the whole one later
        raise _unwritable(path, error, "file") from error
