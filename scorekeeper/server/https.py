"""The HTTPS server: cheroot (CherryPy's server: pure Python, threaded like waitress, well
kept) over TLS with Python's own ssl module, on the table's certificate (tls.py), set up so
that neither a slow phone nor a stranger holding connections open stops the table
(docs/server-limits.md)."""

from __future__ import annotations

import logging
import os
import ssl
import sys
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlsplit

from cheroot import errors, wsgi
from cheroot.server import HTTPConnection
from cheroot.ssl.builtin import BuiltinSSLAdapter
from cheroot.workers.threadpool import ThreadPool

from ..config import biggest_body
from . import tls

THREADS = 8
# cheroot (HTTPS) reads a request in a worker thread: the pool grows while none is idle, up
# to this many, so slow connections cannot take every worker; each read waits at most
# READ_TIMEOUT seconds for a byte, and a TLS handshake HANDSHAKE_TIMEOUT.
HTTPS_THREADS = 400
READ_TIMEOUT = 10
HANDSHAKE_TIMEOUT = 5
# What cheroot says of every visit of a phone that has not trusted the certificate yet (it
# drops the handshake: an unknown authority, or the connection closed), of a connection
# that never began its handshake (a port scanner), of http:// asked on the https port, and
# of a stop asked for: left out of the server's screen.
EVERY_VISIT = ("UNKNOWN_CA", "CERTIFICATE_UNKNOWN", "EOF occurred",
               "handshake operation timed out", "speak plain HTTP", "Keyboard Interrupt")
# A phone gone mid-request: the connection closed, reset, or its TLS ended unannounced.
DROPPED = (ConnectionError, ssl.SSLEOFError, ssl.SSLZeroReturnError)
PLAIN_HTTP = "The client sent a plain HTTP request, but this server only speaks HTTPS on this port."


def extra_names(app) -> list[str]:
    """Return the host names the app is told it is reached by (PUBLIC_URL, TRUSTED_HOSTS)."""
    names = [h for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
    if app.config.get("PUBLIC_URL"):
        names.append(urlsplit(app.config["PUBLIC_URL"]).hostname or "")
    return names


class Growing(ThreadPool):
    """cheroot's pool, grown by a worker whenever a connection comes and no idle worker is
    left for it (idle ones may already be spoken for by connections waiting)."""

    def put(self, obj):
        if self.idle <= self._queue.qsize() and len(self._threads) < self.max:
            # Started, not waited for (grow() would hold the accepting thread 0.1 s).
            self._threads.append(self._spawn_worker())
        super().put(obj)


class Deferred(BuiltinSSLAdapter):
    """cheroot's TLS, with a connection's handshake left to the worker that reads it.

    cheroot shakes hands in the thread that accepts every connection, waiting up to its
    read timeout: one connection that never began its handshake held every phone's
    connection 10 s, 200 held them for minutes. Here the accepting thread only hands the
    connection on (Handshaking, below, shakes hands first).
    """

    def wrap(self, sock):
        return sock, {}


class Handshaking(HTTPConnection):
    """A connection whose worker shakes hands first, for HANDSHAKE_TIMEOUT at most, and
    says what went wrong as cheroot's accepting thread said it."""

    ssl_env: dict = {}

    def communicate(self):
        if not self.ssl_env and not self._handshake():
            return False
        return super().communicate()

    def _handshake(self) -> bool:
        self.socket.settimeout(HANDSHAKE_TIMEOUT)
        try:
            sock, self.ssl_env = BuiltinSSLAdapter.wrap(self.server.ssl_adapter, self.socket)
        except errors.FatalSSLAlert as dropped:
            self.server.error_log(f"Client {self.remote_addr!s} lost — peer dropped the TLS "
                                  f"connection suddenly, during handshake: {dropped!s}")
            return False
        except errors.NoSSLError as plain:
            self.server.error_log(f"Client {self.remote_addr!s} attempted to speak plain "
                                  f"HTTP into a TCP connection configured for TLS-only "
                                  f"traffic: {plain!s}")
            with suppress(OSError):
                self.wfile.write(f"{self.server.protocol} 400 Bad Request\r\nContent-Length: "
                                 f"{len(PLAIN_HTTP)}\r\nContent-Type: text/plain\r\n\r\n"
                                 f"{PLAIN_HTTP}".encode("ISO-8859-1"))
            return False
        sock.settimeout(self.server.timeout)
        self.socket = sock
        self.rfile = self.server.ssl_adapter.makefile(sock, "rb", self.rbufsize)
        self.wfile = self.server.ssl_adapter.makefile(sock, "wb", self.wbufsize)
        return True

    def _close_kernel_socket(self):
        if self.socket.fileno() != -1:  # else a handshake refused closed it already
            super()._close_kernel_socket()


class Server(wsgi.Server):
    """cheroot's server, saying what an operator needs on the app's log. What it says of
    each connection a phone opens before it trusts the table's certificate (the handshake
    dropped: ten lines a visit), of http:// asked on the https port, and of Ctrl+C, is left
    out, as is a phone that went away mid-request (each said in a traceback of 30 lines:
    200 such phones wrote 21,900)."""

    ConnectionClass = Handshaking

    def error_log(self, msg="", level=20, traceback=False):
        if level < logging.WARNING and any(said in str(msg) for said in EVERY_VISIT):
            return
        if traceback and isinstance(sys.exc_info()[1], DROPPED):
            return
        # Every other line is an operator's to see (a certificate a phone refuses as
        # expired, no cipher in common), with its time, as the app's own lines are.
        logging.getLogger("cheroot").log(max(level, logging.WARNING), "%s", msg,
                                         exc_info=traceback)


def https_server(app, host: str, port: int, folder: Path):
    """Return a cheroot server for the app over TLS on the certificate in `folder`, made
    there first if need be, and what was made."""
    made = tls.ensure(folder, extra_names(app))
    app.config["TLS_FOLDER"] = str(folder)
    app.config["SESSION_COOKIE_SECURE"] = True  # the session cookie is never sent in clear
    server = Server((host, port), app, numthreads=THREADS, max=HTTPS_THREADS,
                    server_name="kings-corners", request_queue_size=64, timeout=READ_TIMEOUT)
    server.requests = Growing(server, min=THREADS, max=HTTPS_THREADS)
    server.max_request_body_size = biggest_body(app.config)
    server.ssl_adapter = Deferred(str(made.files.cert), str(made.files.key))
    return server, made
