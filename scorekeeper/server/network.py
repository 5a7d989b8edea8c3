"""Where a phone on the same Wi-Fi finds this machine."""

from __future__ import annotations

import socket
import subprocess
from functools import lru_cache


@lru_cache(maxsize=1)
def lan_addresses() -> tuple[str, ...]:
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
    return tuple(found)


LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def phone_url(scheme: str, host: str, path: str, public: str | None = None) -> str:
    """Return the address a phone on the same Wi-Fi opens for `path`.

    `host` is the Host this page was asked with: a phone that reached it already knows
    the way. Asked on the machine itself (localhost), the machine's network address is
    given instead; `public` (PUBLIC_URL) overrides both.
    """
    if public:
        return public.rstrip("/") + path
    if host.startswith("["):  # [IPv6]:port
        inside, _, port = host[1:].partition("]")
        name, port = f"[{inside}]", port.lstrip(":")
    elif host.count(":") == 1:
        name, port = host.split(":")
    else:
        name, port = host, ""
    if name in LOOPBACK and lan_addresses():
        host = lan_addresses()[0] + (f":{port}" if port else "")
    return f"{scheme}://{host}{path}"
