"""Serve the app with waitress on every interface and say where to open it."""

from __future__ import annotations

import argparse
import socket
import subprocess

from waitress import serve

from . import create_app


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 addresses that a phone on the same network can reach."""
    found: list[str] = []
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                             capture_output=True, text=True, timeout=3).stdout
        found = [line.split()[3].split("/")[0]
                 for line in out.splitlines() if len(line.split()) > 3]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            found = [a for a in socket.gethostbyname_ex(socket.gethostname())[2]
                     if not a.startswith("127.")]
        except OSError:
            pass
    return found


def main() -> None:
    """Parse the port, print the addresses, serve until stopped."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    app = create_app()
    print(f"\nKings Corners Scorekeeper is running.\n"
          f"  On this machine:  http://127.0.0.1:{args.port}/")
    for address in lan_addresses():
        print(f"  On a phone on the same Wi-Fi:  http://{address}:{args.port}/")
    print("Press Ctrl+C to stop.\n", flush=True)
    serve(app, host=args.host, port=args.port, threads=8, ident="kings-corners")


if __name__ == "__main__":
    main()
