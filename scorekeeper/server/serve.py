"""Serve the app on every interface and say where to open it: with waitress over plain HTTP,
or with `--https` (`make run HTTPS=1`) with cheroot over TLS, on the table's own certificate."""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import signal
import socket
from pathlib import Path

import click
from flask import current_app
from flask.cli import FlaskGroup
from waitress import create_server

from .. import create_app
from ..config import biggest_body
from . import tls
from .https import THREADS, https_server
from .network import lan_addresses
from .workers import open_sockets, serve_all

# Room for a table of phones and for whatever a stranger on the Wi-Fi holds open. waitress
# reads a whole request (headers and body) in its I/O thread before a worker runs the app,
# so a slow phone holds a connection, never a worker; poll() is not capped at 1,024 sockets.
CONNECTIONS = 1000
WAITRESS = {"threads": THREADS, "connection_limit": CONNECTIONS, "asyncore_use_poll": True,
            "channel_timeout": 60, "cleanup_interval": 10, "ident": "kings-corners"}


def room_for_connections() -> None:
    """Let the process hold CONNECTIONS sockets: raise its soft file limit to its hard one."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = CONNECTIONS + 100
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (
                wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))
    except (ImportError, ValueError, OSError):
        pass  # not on this system: the system's own limit stands


def tls_folder(app, given: str | None = None) -> Path:
    """Return where the table's certificates are kept: instance/tls unless told."""
    return Path(given) if given else Path(app.instance_path) / "tls"


EVERY_INTERFACE = ("0.0.0.0", "::")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def shown(host: str) -> str:
    """Return a host as an address shows it: an IPv6 one in brackets."""
    return f"[{host}]" if ":" in host else host


def banner(scheme: str, port: int, host: str = "0.0.0.0") -> list[str]:
    """Return the lines that say where to open the app: on this machine, and from a phone
    on the addresses it listens on (every one of this machine's, by default)."""
    if host not in EVERY_INTERFACE:  # told to listen on one address: that one only
        where = "On this machine" if host in LOOPBACK else "On this machine and a phone"
        return [f"  {where}:  {scheme}://{shown(host)}:{port}/"]
    here = ("localhost" if scheme == "https" else
            "[::1]" if host == "::" else "127.0.0.1")  # waitress listens on IPv6 alone
    lines = [f"  On this machine:  {scheme}://{here}:{port}/"]
    lines += [f"  On a phone on the same Wi-Fi:  {scheme}://{shown(address)}:{port}/"
              for address in lan_addresses() if (":" in address) == (host == "::")]
    return lines


class NotServing(click.ClickException):
    """The app cannot listen where it was told to: said in one line, exit 1."""


def listening(host: str, port: int) -> None:
    """Check that the app can listen on `host`:`port` (every address the name gives, as the
    servers listen on each) before anything is said or made (the banner, a certificate
    authority); raise NotServing, in one line, if it cannot."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in found:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as they do
                if family == socket.AF_INET6:  # as waitress does: IPv6 alone
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except (socket.gaierror, UnicodeError):
        raise NotServing(f"{host!r} is not a name or address this machine knows.") from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            said = (f"port {port} is taken: another program, or another Kings Corners, is "
                    f"serving there. Stop it, or start this one on another port "
                    f"(make run PORT={port + 1 if port < 65535 else 8000}).")
        elif error.errno == errno.EADDRNOTAVAIL:
            said = (f"{host} is not an address of this machine: leave --host out to serve "
                    "on all of them.")
        elif error.errno in (errno.EACCES, errno.EPERM):
            said = (f"port {port} needs the administrator (ports under 1024): start on a "
                    "port from 1024 up, such as 8000.")
        else:
            said = f"cannot listen on {host}:{port}: {error.strerror or error}."
        raise NotServing(said[:1].upper() + said[1:]) from None


def stop_on_terminate() -> None:
    """Stop as Ctrl+C stops, on the signal a service manager or `kill` sends (SIGTERM):
    the server closes its connections instead of the process dying mid-answer."""

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def log_with_time() -> None:
    """Say the server's warnings (a fault, requests queueing up) on stderr with the time
    they happened, set up before the database is upgraded (whose own set-up is then left
    out: db/migrations/env.py)."""
    logging.basicConfig(format="%(asctime)s %(levelname)s [%(name)s] %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S", level=logging.WARNING)


def compile_templates(app) -> int:
    """Compile every page's templates before the first phone asks: otherwise the first visit
    to each page after a start pays for it. Return how many."""
    names = app.jinja_env.list_templates(extensions=("html", "svg", "xml", "js", "txt"))
    for name in names:
        app.jinja_env.get_template(name)
    return len(names)


def ready(app) -> None:
    """Make the app ready to serve: its templates compiled, then everything the start made
    (modules, the app, templates, statements) set aside from the garbage collector's full
    passes, which would otherwise look at them all now and then, stalling that request
    (docs/performance.md)."""
    compile_templates(app)
    gc.collect()
    gc.freeze()


def run(app, host: str, port: int, https: bool = False, folder: str | None = None) -> None:
    """Print where to open the app, then serve it until stopped (Ctrl+C, or SIGTERM): one
    line and exit 1, with nothing made or said before it, if it cannot listen there."""
    host = host or "0.0.0.0"  # an empty --host: every interface, as the servers take it
    listening(host, port)
    room_for_connections()
    ready(app)
    data = f"  Its data (database, secret key, certificates): {app.instance_path}"
    if not https:
        server = create_server(app, host=host, port=port,
                               max_request_body_size=biggest_body(app.config), **WAITRESS)
        print("\nKings Corners Scorekeeper is running.\n"
              + "\n".join(banner("http", port, host)))
        print(data + "\nPress Ctrl+C to stop.\n", flush=True)
        stop_on_terminate()
        server.run()  # until Ctrl+C (or SIGTERM): waitress closes itself then
        return
    server, made = https_server(app, host, port, tls_folder(app, folder))
    server.prepare()  # listening from here
    phone = (shown(host) if host not in EVERY_INTERFACE + LOOPBACK else
             lan_addresses()[0] if lan_addresses() and host == "0.0.0.0" else "localhost")
    print("\nKings Corners Scorekeeper is running over HTTPS.\n"
          + "\n".join(banner("https", port, host)))
    print(f"  A phone's first visit: trust the table's certificate once, from\n"
          f"    https://{phone}:{port}/trust   (docs/https.md)\n"
          f"  Its fingerprint (SHA-256): {tls.fingerprint(made.files.ca)}")
    if made.new_ca:
        print(f"  A new certificate authority was made in {made.files.folder}: "
              "each phone trusts it once.")
    if made.left_out:
        print(f"  Left out of the certificate (outside what the authority may vouch for): "
              f"{', '.join(made.left_out)}. To cover them, delete {made.files.folder} and "
              "trust the new authority on each phone again.")
    print(data + "\nPress Ctrl+C to stop.\n", flush=True)
    try:
        stop_on_terminate()
        server.serve()
    except KeyboardInterrupt:
        pass  # stopped as asked: exit 0, as plain HTTP does
    finally:
        server.stop()


def run_on(app, sockets: list[socket.socket]) -> None:
    """Serve the app with waitress on listening sockets handed down by `kings-corners serve
    --workers`, which said where to open it, until stopped (SIGTERM, Ctrl+C)."""
    room_for_connections()
    ready(app)
    server = create_server(app, sockets=sockets,
                           max_request_body_size=biggest_body(app.config), **WAITRESS)
    stop_on_terminate()
    try:
        server.run()
    except KeyboardInterrupt:
        pass  # stopped as asked


def may_serve_several(app, https: bool) -> None:
    """Refuse several server processes, in one line before anything is touched: over HTTPS
    (cheroot serves from one process), or on SQLite (one process writes it)."""
    if https:
        raise NotServing("Several server processes serve plain HTTP only: leave --https or "
                         "--workers out (docs/server.md).")
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        raise NotServing("Several server processes need PostgreSQL (DATABASE_URL="
                         "postgresql+psycopg://...): SQLite is served by one process. "
                         "Leave --workers out, or set DATABASE_URL (docs/server.md).")


def several(app, host: str, port: int, count: int) -> None:
    """Serve the app from `count` processes on one port (a club's server, on PostgreSQL)."""
    host = host or "0.0.0.0"
    listening(host, port)
    sockets = open_sockets(host, port)
    print(f"\nKings Corners Scorekeeper is running in {count} processes.\n"
          + "\n".join(banner("http", port, host)))
    print(f"  Its data (secret key): {app.instance_path}; the database: PostgreSQL"
          "\nPress Ctrl+C to stop.\n", flush=True)
    stop_on_terminate()
    if serve_all(sockets, count):
        raise NotServing("A server process stopped on its own: every one was stopped.")


@click.group(cls=FlaskGroup, create_app=create_app, add_default_commands=True,
             add_version_option=False, load_dotenv=False)
def main() -> None:
    """Kings Corners Scorekeeper. `kings-corners serve` upgrades the database and serves the
    app; every other command is the app's own (`kings-corners backup`, `results check`...).

    Its data (the database, secret key and certificates) is kept in the folder named by
    INSTANCE_PATH, else instance/ in a checkout, else <environment>/var/scorekeeper-instance.
    """


@main.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--https", is_flag=True, help="Serve over HTTPS, on a certificate made on the "
                                            "first run.")
@click.option("--tls-folder", help="Where the certificates are kept (default: instance/tls).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Server processes (PostgreSQL only, plain HTTP): a club's server.")
def serve_command(host: str, port: int, https: bool, tls_folder: str | None,
                  workers: int) -> None:
    """Upgrade the database, then serve the app on every interface."""
    from flask_migrate import upgrade
    from sqlalchemy.exc import OperationalError

    log_with_time()
    app = current_app._get_current_object()
    if workers > 1:
        may_serve_several(app, https)
    listening(host, port)  # before the database is touched: nothing changes if it cannot
    try:
        upgrade()
    except OperationalError as error:
        if "locked" not in str(error.orig):
            raise
        raise click.ClickException(
            "The database is held by another program (a database tool, or another copy "
            "of Kings Corners busy writing): close it and start again.") from None
    if workers > 1:
        several(app, host, port, workers)
        return
    run(app, host, port, https, tls_folder)


def serve_only(argv: list[str] | None = None) -> None:
    """`python -m scorekeeper.server.serve`: serve a database already upgraded."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=port_number, default=8000)
    parser.add_argument("--https", action="store_true",
                        help="serve over HTTPS, on a certificate made on the first run")
    parser.add_argument("--tls-folder", help="where the certificates are kept "
                                             "(default: instance/tls)")
    parser.add_argument("--sockets", help=argparse.SUPPRESS)  # from `serve --workers`
    args = parser.parse_args(argv)
    log_with_time()
    try:
        app = create_app()
        if args.sockets:
            run_on(app, [socket.socket(fileno=int(fd)) for fd in args.sockets.split(",")])
            return
        run(app, args.host, args.port, args.https, args.tls_folder)
    except click.ClickException as error:  # a read-only disk, a taken port: one line, exit 1
        error.show()
        raise SystemExit(error.exit_code) from None


def port_number(text: str) -> int:
    """Return a port number from 1 to 65535, else say so (argparse: one line, exit 2)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: from 1 to 65535")
    return port


if __name__ == "__main__":
    serve_only()
