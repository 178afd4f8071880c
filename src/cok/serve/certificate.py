"""`cok serve --https` (issue 38: No True King seals in the browser, which needs https, and at a
store there is no public domain): a self-signed certificate for this machine's addresses, made
once with the openssl command and kept in the user's data folder (its key readable by this user
only). Each phone accepts it once, past a warning; then the page is a secure context."""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
from pathlib import Path

from cok.core.errors import Refused
from cok.links.invites import kept

DAYS = 397  # the longest a browser accepts for a certificate (Apple's limit)


def made_for(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    """The certificate and key for these hosts, made anew when a host is new to it."""
    where = kept(folder, "tls", "")  # the one made before the campaign had an id, if that is all there is
    cert, private = where / "cert.pem", where / "key.pem"
    names = sorted(set(hosts) | {"localhost", "127.0.0.1"})
    listed = where / "names.txt"
    if cert.exists() and private.exists() and listed.exists() and listed.read_text().split() == names:
        return cert, private
    if shutil.which("openssl") is None:
        raise Refused("--https makes its certificate with the openssl command, which is not installed here")
    where.mkdir(parents=True, exist_ok=True)
    where.chmod(0o700)
    alt = ",".join(f"IP:{n}" if _is_ip(n) else f"DNS:{n}" for n in names)
    made = subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-days", str(DAYS), "-subj", "/CN=cok serve", "-addext", f"subjectAltName={alt}",
            "-addext", "extendedKeyUsage=serverAuth", "-keyout", str(private), "-out", str(cert),
        ],
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    if made.returncode != 0:
        raise Refused(f"openssl could not make the certificate: {made.stderr.strip().splitlines()[-1:]}")
    private.chmod(0o600)
    listed.write_text(" ".join(names) + "\n")
    return cert, private


def fingerprint(cert: Path) -> str:
    """The certificate's SHA-256 fingerprint, as a phone's certificate details show it."""
    shown = subprocess.run(
        ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", str(cert)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return shown.strip().split("=", 1)[-1]


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
