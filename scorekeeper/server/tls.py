"""The table's own certificates, for `make run HTTPS=1`: made on the first run, kept in
instance/tls/, used again after.

- A small certificate authority, made once: a phone trusts it once (docs/https.md). It
  may vouch only for this machine's names (`localhost`, the host name, any `*.local`, the
  names in PUBLIC_URL and TRUSTED_HOSTS) and for private network addresses and the
  machine's own (name constraints), so its key, were it ever taken from this machine, could
  not pass for a bank or a mail server on the phones that trust it.
- The server's certificate, signed by it, for localhost, the host name, `name.local`, the
  machine's LAN addresses and 127.0.0.1. Valid 397 days (what phones accept), made again
  on its own when it nears its end or when the machine's names or addresses change: the
  phones trust the authority, so they need do nothing.

Keys are EC P-256 (every phone of the last ten years speaks it) and readable by their
owner only.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ..config import private_file, private_folder
from .network import lan_addresses

ORGANISATION = "Kings Corners Scorekeeper"
CA_DAYS = 10 * 365
SERVER_DAYS = 397  # browsers and iPhones refuse a server certificate valid for longer
RENEW_DAYS = 30  # made again this long before it ends
# Where the authority may vouch for an address: loopback and the private ranges a home
# network uses (and the shared range of carrier-grade NAT and VPNs such as Tailscale).
PRIVATE_NETWORKS = ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                    "169.254.0.0/16", "100.64.0.0/10", "::1/128", "fc00::/7", "fe80::/10")


@dataclass(frozen=True)
class Files:
    """Where the authority's and the server's certificates and keys are."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.crt"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca.key"

    @property
    def cert(self) -> Path:
        return self.folder / "server.crt"

    @property
    def key(self) -> Path:
        return self.folder / "server.key"


def host_names(extra: list[str] | tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Return (names, addresses) the server's certificate covers: localhost, this machine's
    host name and `name.local`, its LAN addresses and loopback, and `extra` hosts."""
    names = ["localhost"]
    host = socket.gethostname().strip().lower().rstrip(".")
    if host and host != "localhost":
        short = host.split(".")[0]
        names += [host, f"{host}.local", short, f"{short}.local"]
    addresses = ["127.0.0.1", *lan_addresses()]
    for item in extra:
        item = item.strip().lower().rstrip(".")
        if not item:
            continue
        try:
            addresses.append(str(ipaddress.ip_address(item.strip("[]"))))
        except ValueError:
            names.append(item)
    return list(dict.fromkeys(names)), list(dict.fromkeys(addresses))


def _permitted_names(names: list[str]) -> list[str]:
    """Return the DNS names the authority may vouch for: these, and anything under .local."""
    return list(dict.fromkeys(["localhost", "local", *names]))


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """Write a private key readable by its owner only from the first moment."""
    path.unlink(missing_ok=True)
    private_file(path, key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode())


def _permitted_networks(addresses: list[str]) -> list[ipaddress._BaseNetwork]:
    """Return the networks the authority may vouch for: the private ranges, and this
    machine's own addresses now (on a network that hands out public ones)."""
    nets = [ipaddress.ip_network(n) for n in PRIVATE_NETWORKS]
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if not any(ip in net for net in nets if net.version == ip.version):
            nets.append(ipaddress.ip_network(address))
    return nets


def _make_ca(files: Files, names: list[str], addresses: list[str]) -> None:
    """Make the table's certificate authority (once)."""
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname().split(".")[0] or "this machine"
    subject = x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, f"Kings Corners table on {host}"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION),
    ])
    constraints = x509.NameConstraints(
        permitted_subtrees=[x509.DNSName(n) for n in _permitted_names(names)]
        + [x509.IPAddress(n) for n in _permitted_networks(addresses)],
        excluded_subtrees=None)
    now = _now()
    cert = (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=True, key_cert_sign=True, crl_sign=True,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(constraints, critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .sign(key, hashes.SHA256()))
    _write_key(files.ca_key, key)
    files.ca.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def allowed(ca: x509.Certificate, names: list[str], addresses: list[str]
            ) -> tuple[list[str], list[str], list[str]]:
    """Split names and addresses into those the authority may vouch for and the rest."""
    try:
        constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return names, addresses, []
    dns = [t.value.lower() for t in constraints.permitted_subtrees or []
           if isinstance(t, x509.DNSName)]
    nets = [t.value for t in constraints.permitted_subtrees or []
            if isinstance(t, x509.IPAddress)]
    ok_names = [n for n in names if any(n == d or n.endswith("." + d) for d in dns)]
    ok_addresses = [a for a in addresses
                    if any(ipaddress.ip_address(a) in net for net in nets
                           if net.version == ipaddress.ip_address(a).version)]
    left = [n for n in names if n not in ok_names] + [
        a for a in addresses if a not in ok_addresses]
    return ok_names, ok_addresses, left


def _covers(cert: x509.Certificate, names: list[str], addresses: list[str]) -> bool:
    """Tell whether a server certificate is for exactly these names and addresses."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    have_names = set(san.get_values_for_type(x509.DNSName))
    have_addresses = {str(a) for a in san.get_values_for_type(x509.IPAddress)}
    return have_names == set(names) and have_addresses == set(addresses)


def _make_server(files: Files, ca: x509.Certificate, names: list[str],
                 addresses: list[str]) -> None:
    """Make the server's certificate for these names and addresses, signed by the authority."""
    ca_key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = _now()
    san = x509.SubjectAlternativeName(
        [x509.DNSName(n) for n in names]
        + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses])
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([
                x509.NameAttribute(NameOID.COMMON_NAME, ORGANISATION),
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANISATION)]))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=SERVER_DAYS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=True, key_cert_sign=False, crl_sign=False,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(san, critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    _write_key(files.key, key)
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


@dataclass(frozen=True)
class Made:
    """What `ensure` found or made."""

    files: Files
    new_ca: bool  # the authority was made now: every phone must trust it (once)
    new_cert: bool
    left_out: list[str]  # names or addresses the authority may not vouch for


def ensure(folder: Path, extra: list[str] | tuple[str, ...] = ()) -> Made:
    """Make what is missing in `folder`: the authority (once), the server's certificate
    (when missing, near its end, or for other names); return where they are."""
    private_folder(folder)
    files = Files(folder)
    names, addresses = host_names(extra)
    new_ca = not (files.ca.exists() and files.ca_key.exists())
    if new_ca:
        _make_ca(files, names, addresses)
    ca = x509.load_pem_x509_certificate(files.ca.read_bytes())
    names, addresses, left_out = allowed(ca, names, addresses)
    new_cert = new_ca or not (files.cert.exists() and files.key.exists())
    if not new_cert:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        new_cert = (cert.not_valid_after_utc - _now() < dt.timedelta(days=RENEW_DAYS)
                    or not _covers(cert, names, addresses))
    if new_cert:
        _make_server(files, ca, names, addresses)
    return Made(files, new_ca, new_cert, left_out)


def fingerprint(path: Path) -> str:
    """Return a certificate's SHA-256 fingerprint as phones show it (AB:CD:...)."""
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()
