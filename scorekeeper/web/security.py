"""What keeps a stranger's web page and a stranger's phone from the table's data.

- Only the hosts the app answers to: localhost, this machine's addresses and names, and
  what PUBLIC_URL and TRUSTED_HOSTS name. Any other Host header gets a 400, so a page
  elsewhere cannot reach the app by pointing a name of its own at it (DNS rebinding).
- Headers on every response: no script but the app's own files, no framing, no sniffing,
  no referrer sent to another site.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
from urllib.parse import urlsplit

from flask import Flask

from ..server.network import lan_addresses

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
    hosts = ["localhost", "127.0.0.1", "::1", *lan_addresses()]
    name = socket.gethostname().lower()
    if name and name != "localhost":
        hosts += [name, f"{name}.local"]
    if public_url:
        hosts.append((urlsplit(public_url).hostname or "").lower())
    hosts += [h.strip().lower() for h in extra.split(",") if h.strip()]
    return list(dict.fromkeys(h for h in hosts if h))


_IPV6_HOST = re.compile(r"\[([0-9a-f:.]+)\](?::[1-9][0-9]{0,4})?", re.IGNORECASE)


def trusted_ipv6(header: str | None, trusted: list[str] | None) -> bool:
    """Tell whether a Host header is one of the trusted IPv6 addresses, as a browser
    writes it ([::1]:8000). Werkzeug matches none: it cuts a trusted name at its first
    colon, so `--host ::`'s own address, http://[::1]:8000/, was answered 400."""
    found = _IPV6_HOST.fullmatch(header or "")
    if found is None or trusted is None:
        return False
    try:
        address = ipaddress.IPv6Address(found[1])
    except ValueError:
        return False
    for host in trusted:
        with contextlib.suppress(ValueError):
            if ipaddress.IPv6Address(host.strip("[]")) == address:
                return True
    return False


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
