"""`make run HTTPS=1`: the server answers over TLS on a certificate made on its first run,
which a client trusting the table's own certificate authority accepts, for localhost, this
machine's names and its LAN addresses; the authority is handed out to install on a phone."""

from __future__ import annotations

import ipaddress
import socket
import ssl
import urllib.request
from datetime import timedelta

import pytest
from cryptography import x509

from scorekeeper.server import tls
from scorekeeper.server.network import lan_addresses
from tests.helpers import start_https, stop, trusting


def get(port: int, path: str, context: ssl.SSLContext, name: str = "localhost"):
    """GET a path over TLS from 127.0.0.1, asking for the server by `name` (SNI and the
    certificate check); return (status, headers, body, the server's certificate)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname=name) as conn:
            der = conn.getpeercert(binary_form=True)
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n"
                         .encode())
            data = b""
            while chunk := conn.recv(65536):
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body, x509.load_der_x509_certificate(der)


def test_make_run_https_serves_over_tls_on_a_certificate_a_phone_can_trust(tmp_path):
    folder = tmp_path / "tls"
    process, port, printed = start_https(tmp_path, folder)
    try:
        ca = folder / "ca.crt"
        assert ca.is_file() and (folder / "server.crt").is_file()
        assert (folder / "ca.key").stat().st_mode & 0o077 == 0  # the owner's only
        assert (folder / "server.key").stat().st_mode & 0o077 == 0
        assert f"https://localhost:{port}/" in printed
        assert "/trust" in printed and tls.fingerprint(ca) in printed

        # A client that trusts the authority, and nothing else, gets a checked connection.
        context = trusting(ca)
        status, _, body, cert = get(port, "/healthz", context)
        assert status == 200 and b'"ok"' in body
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = san.get_values_for_type(x509.DNSName)
        addresses = [str(a) for a in san.get_values_for_type(x509.IPAddress)]
        host = socket.gethostname().lower()
        assert "localhost" in names
        assert host in names and f"{host.split('.')[0]}.local" in names
        assert "127.0.0.1" in addresses
        assert all(address in addresses for address in lan_addresses())
        assert cert.not_valid_after_utc - cert.not_valid_before_utc <= timedelta(days=398)
        # Asked by the loopback address, the certificate is checked for that address too.
        assert get(port, "/healthz", context, name="127.0.0.1")[0] == 200

        # The authority is handed out as a phone installs one, over an ordinary HTTPS GET.
        with urllib.request.urlopen(f"https://localhost:{port}/ca.crt", context=context,
                                    timeout=10) as response:
            assert response.headers["Content-Type"] == "application/x-x509-ca-cert"
            assert response.read() == ca.read_bytes()
        with urllib.request.urlopen(f"https://localhost:{port}/trust", context=context,
                                    timeout=10) as response:
            text = response.read().decode()
        assert "Certificate Trust Settings" in text and "CA certificate" in text
        assert tls.fingerprint(ca) in text and 'href="/ca.crt"' in text

        # A client that does not trust it is refused: the certificate is the table's own.
        with pytest.raises(ssl.SSLCertVerificationError):
            get(port, "/healthz", trusting(tls.ensure(tmp_path / "stranger").files.ca))
    finally:
        stop(process)

    # The next run keeps the same authority and certificate: a phone trusts it only once.
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    process, port, printed = start_https(tmp_path, folder)
    try:
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
        assert "A new certificate authority" not in printed
        assert get(port, "/healthz", trusting(folder / "ca.crt"))[0] == 200
    finally:
        stop(process)


def test_the_authority_vouches_only_for_this_machines_names_and_home_addresses(tmp_path):
    made = tls.ensure(tmp_path / "tls", ["scores.example.org", "10.1.2.3"])
    ca = x509.load_pem_x509_certificate(made.files.ca.read_bytes())
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    names, addresses, left = tls.allowed(ca, ["bank.example.com", "vm.local",
                                              "scores.example.org"],
                                         ["8.8.8.8", "192.168.1.20"])
    assert names == ["vm.local", "scores.example.org"] and addresses == ["192.168.1.20"]
    assert left == ["bank.example.com", "8.8.8.8"]
    cert = x509.load_pem_x509_certificate(made.files.cert.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "scores.example.org" in san.get_values_for_type(x509.DNSName)
    assert ipaddress.ip_address("10.1.2.3") in san.get_values_for_type(x509.IPAddress)

    # New names or addresses: a new server certificate from the same authority.
    again = tls.ensure(tmp_path / "tls")
    assert not again.new_ca and again.new_cert
    assert made.files.ca.read_bytes() == again.files.ca.read_bytes()


def test_without_https_there_is_no_certificate_to_download(app, tmp_path):
    app.config["TLS_FOLDER"] = str(tmp_path / "never-made")
    client = app.test_client()
    assert client.get("/ca.crt").status_code == 404
    page = client.get("/trust").get_data(as_text=True)
    assert "served over plain HTTP" in page and "make run HTTPS=1" in page
