"""Serve the app on every interface and say where to open it: with waitress over plain HTTP,
or with `--https` (`make run HTTPS=1`) with cheroot over TLS, on the table's own certificate."""

from __future__ import annotations

import argparse
import gc
import os
from pathlib import Path
from urllib.parse import urlsplit

from waitress import serve

from . import create_app, tls
from .network import lan_addresses

THREADS = 8
# Room for a table of phones and for whatever a stranger on the Wi-Fi holds open. waitress
# reads a whole request (headers and body) in its I/O thread before a worker runs the app,
# so a slow phone holds a connection, never a worker; poll() is not capped at 1,024 sockets.
CONNECTIONS = 1000
WAITRESS = {"threads": THREADS, "connection_limit": CONNECTIONS, "asyncore_use_poll": True,
            "channel_timeout": 60, "cleanup_interval": 10, "ident": "kings-corners"}
# cheroot (HTTPS) reads a request in a worker thread: the pool grows while none is idle, up
# to this many, so slow connections cannot take every worker; each read waits at most
# READ_TIMEOUT seconds for a byte.
HTTPS_THREADS = 400
READ_TIMEOUT = 10


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


def settle() -> None:
    """Set aside what loading the app made, for the cycle collector.

    It lives as long as the server, so the collector need not walk it again on every
    pass; a ten-year backup builds about a fifth faster.
    """
    gc.collect()
    gc.freeze()


def tls_folder(app, given: str | None = None) -> Path:
    """Return where the table's certificates are kept: instance/tls unless told."""
    return Path(given) if given else Path(app.instance_path) / "tls"


def extra_names(app) -> list[str]:
    """Return the host names the app is told it is reached by (PUBLIC_URL, TRUSTED_HOSTS)."""
    names = [h for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
    if app.config.get("PUBLIC_URL"):
        names.append(urlsplit(app.config["PUBLIC_URL"]).hostname or "")
    return names


def https_server(app, host: str, port: int, folder: Path):
    """Return a cheroot server for the app over TLS on the certificate in `folder`, made
    there first if need be, and what was made.

    waitress, which serves plain HTTP, has no TLS; cheroot (CherryPy's server: pure Python,
    threaded like waitress, well kept) wraps its connections with Python's own ssl module.
    """
    from cheroot import wsgi
    from cheroot.ssl.builtin import BuiltinSSLAdapter

    made = tls.ensure(folder, extra_names(app))
    app.config["TLS_FOLDER"] = str(folder)
    app.config["SESSION_COOKIE_SECURE"] = True  # the session cookie is never sent in clear
    from cheroot.workers.threadpool import ThreadPool

    class Growing(ThreadPool):
        """cheroot's pool, grown by a worker whenever a connection comes and no idle worker
        is left for it (idle ones may already be spoken for by connections waiting)."""

        def put(self, obj):
            if self.idle <= self._queue.qsize() and len(self._threads) < self.max:
                # Started, not waited for (grow() would hold the accepting thread 0.1 s).
                self._threads.append(self._spawn_worker())
            super().put(obj)

    server = wsgi.Server((host, port), app, numthreads=THREADS, max=HTTPS_THREADS,
                         server_name="kings-corners", request_queue_size=64,
                         timeout=READ_TIMEOUT)
    server.requests = Growing(server, min=THREADS, max=HTTPS_THREADS)
    server.ssl_adapter = BuiltinSSLAdapter(str(made.files.cert), str(made.files.key))
    return server, made


def banner(scheme: str, port: int) -> list[str]:
    """Return the lines that say where to open the app."""
    here = "localhost" if scheme == "https" else "127.0.0.1"
    lines = [f"  On this machine:  {scheme}://{here}:{port}/"]
    lines += [f"  On a phone on the same Wi-Fi:  {scheme}://{address}:{port}/"
              for address in lan_addresses()]
    return lines


def main() -> None:
    """Parse the port, print the addresses, serve until stopped."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--https", action="store_true",
                        help="serve over HTTPS, on a certificate made on the first run")
    parser.add_argument("--tls-folder", help="where the certificates are kept "
                                             "(default: instance/tls)")
    args = parser.parse_args()
    from .security import Unwritable

    try:
        app = create_app()
    except Unwritable as error:  # a read-only disk, another user's folder: one line, exit 1
        error.show()
        raise SystemExit(error.exit_code) from None
    if not args.https:
        settle()
        print("\nKings Corners Scorekeeper is running.\n" + "\n".join(banner("http", args.port)))
        print("Press Ctrl+C to stop.\n", flush=True)
        room_for_connections()
        serve(app, host=args.host, port=args.port, **WAITRESS)
        return
    room_for_connections()
    server, made = https_server(app, args.host, args.port, tls_folder(app, args.tls_folder))
    settle()
    phone = lan_addresses()[0] if lan_addresses() else "localhost"
    print("\nKings Corners Scorekeeper is running over HTTPS.\n"
          + "\n".join(banner("https", args.port)))
    print(f"  A phone's first visit: trust the table's certificate once, from\n"
          f"    https://{phone}:{args.port}/trust   (README: \"HTTPS on the table's Wi-Fi\")\n"
          f"  Its fingerprint (SHA-256): {tls.fingerprint(made.files.ca)}")
    if made.new_ca:
        print(f"  A new certificate authority was made in {made.files.folder}: "
              "each phone trusts it once.")
    if made.left_out:
        print(f"  Left out of the certificate (outside what the authority may vouch for): "
              f"{', '.join(made.left_out)}. To cover them, delete {made.files.folder} and "
              "trust the new authority on each phone again.")
    print("Press Ctrl+C to stop.\n", flush=True)
    try:
        server.safe_start()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
