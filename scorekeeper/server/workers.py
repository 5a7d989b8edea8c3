"""Several server processes for one app (a club's server, on PostgreSQL): the listening
sockets opened once, here, and each process a waitress of its own on them, started as
`python -m scorekeeper.server.serve --sockets FD,...`. The system hands each new connection
to whichever process takes it first; all they share is the database (docs/server.md)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

BACKLOG = 1024  # connections waiting to be taken, as waitress' own default
STOP_WITHIN = 30  # seconds a process is given to finish its answers once told to stop


def open_sockets(host: str, port: int) -> list[socket.socket]:
    """Listen on `host`:`port`, on every address the name gives, as waitress does (IPv6
    alone on an IPv6 address); the sockets are handed down to the server processes."""
    made = []
    for family, kind, proto, _, address in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        listener.bind(address)
        listener.listen(BACKLOG)
        made.append(listener)
    return made


def start(sockets: list[socket.socket], workers: int) -> list[subprocess.Popen]:
    """Start `workers` server processes, each serving on these sockets."""
    handed = [listener.fileno() for listener in sockets]
    command = [sys.executable, "-m", "scorekeeper.server.serve",
               "--sockets", ",".join(map(str, handed))]
    return [subprocess.Popen(command, pass_fds=handed) for _ in range(workers)]


def stop(processes: list[subprocess.Popen]) -> None:
    """Tell every process still serving to stop (SIGTERM: it finishes its answers), and
    end any that has not within STOP_WITHIN seconds."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(STOP_WITHIN)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve_all(sockets: list[socket.socket], workers: int) -> int:
    """Serve with `workers` processes until this one is stopped (Ctrl+C, SIGTERM: each is
    stopped, exit 0) or one of them stops on its own (the others are stopped: exit 1, so
    that a service manager starts them all again)."""
    processes = start(sockets, workers)
    for listener in sockets:
        listener.close()  # the processes hold them now
    try:
        os.wait()  # until a process stops on its own
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop(processes)
