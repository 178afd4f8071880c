"""The addresses a phone can open (issue 38): `--host 0.0.0.0` is no address to give, 127.0.0.1
works on this machine alone, and the public URL a proxy serves is remembered per campaign (not a
secret: kept in the user's data folder beside the links, under the campaign's identity). An
address of this machine itself is the run's, not the organiser's (issue 47): `cok serve` keeps
the one it serves at now, so a link is never made with last week's scheme, address or port."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from pathlib import Path
from urllib.parse import urlsplit

from cok.core.errors import RuleError
from cok.core.folders import data_dir
from cok.links.invites import kept_line, key

EVERY = ("0.0.0.0", "::", "")


def checked_url(url: str, option: str = "--url") -> tuple[str, str | None]:
    """The URL players open, without its trailing slash, and a warning when only this machine
    can open it; refused when no phone can (no scheme, no host, or 0.0.0.0)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuleError(
            f"{option} takes the address players open, with its scheme: http://192.168.1.20:8000 or "
            f"https://club.example/cok (got {url!r})"
        )
    if parts.hostname in ("0.0.0.0", "::"):
        raise RuleError(
            f"{option} {url}: 0.0.0.0 is where the server listens, not an address a phone can open; "
            "give this machine's network address (cok serve --host 0.0.0.0 prints it)"
        )
    if parts.query or parts.fragment:
        raise RuleError(f"{option} takes the server's address alone, without ? or # (got {url!r})")
    warning = None
    if parts.hostname in ("localhost", "127.0.0.1", "::1"):
        warning = f"{url} opens on this machine alone: a phone needs this machine's network address"
    return url.strip().rstrip("/"), warning


def _file(folder: Path) -> Path:
    return data_dir() / "urls" / f"{key(folder)}.txt"


def remembered(folder: Path) -> str | None:
    """The public URL the campaign was last given (`--url` or `--public-url`), if any."""
    return kept_line(folder, "urls")


def remember(folder: Path, url: str) -> None:
    with contextlib.suppress(OSError):
        _file(folder).parent.mkdir(parents=True, exist_ok=True)
        _file(folder).write_text(url + "\n", encoding="utf-8")


def this_machine(url: str) -> bool:
    """Whether the address names this machine itself (localhost, a loopback address, one of its
    network addresses, its host name): `cok serve` answers there directly, so the scheme and
    port are the run's; any other host is a proxy's public address, which the organiser gave."""
    host = (urlsplit(url).hostname or "").lower()
    if host in ("localhost", *EVERY) or host.endswith(".localhost"):
        return True
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).is_loopback:
            return True
    names = {socket.gethostname().lower(), f"{socket.gethostname().lower()}.local"}
    return host in names or host in network_addresses()


def public(folder: Path) -> str | None:
    """The public address the organiser gave the campaign (`--public-url`, or `cok invite --url`
    naming a proxy's address): None when what is remembered is an address of this machine."""
    found = remembered(folder)
    return found if found is not None and not this_machine(found) else None


def served_now(folder: Path, address: str) -> None:
    """`cok serve` is serving the campaign at `address` (its path included): kept as the address
    links start with, unless the organiser gave a public one (`cok invite` then prints the
    address of this run, and the run's scheme and port, not those of an earlier `--url`)."""
    kept, now = remembered(folder), urlsplit(address.rstrip("/"))
    if kept is not None and not this_machine(kept):
        return  # the public address given
    if kept is not None:
        was = urlsplit(kept)
        if (was.scheme, was.port, was.path.rstrip("/")) == (now.scheme, now.port, now.path.rstrip("/")):
            return  # this machine under a name the organiser chose, at this run's scheme and port
    remember(folder, address.rstrip("/"))


def store_address() -> str | None:
    """This machine's address on the store's network: the one its default route leaves by (a
    UDP socket connected nowhere: no packet is sent), else its first network address."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
        found = str(probe.getsockname()[0])
        if not ipaddress.ip_address(found).is_loopback and found != "0.0.0.0":
            return found
    every = network_addresses()
    return every[0] if every else None


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, as the system names them (no packet
    is sent to find them)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    with contextlib.suppress(OSError, ImportError):
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
                    found.add(socket.inet_ntoa(packed[20:24]))  # SIOCGIFADDR
    return sorted(a for a in found if not ipaddress.ip_address(a).is_loopback)


def served_at(host: str, port: int, root: str) -> list[str]:
    """The addresses to print for `cok serve --host HOST --port PORT --root-path ROOT`."""
    tail = f":{port}{root.rstrip('/')}/"
    if host in EVERY:
        first = store_address()
        every = sorted(network_addresses(), key=lambda a: a != first)
        return [f"http://{a}{tail}" for a in every] or [f"http://localhost{tail}"]
    shown = "localhost" if host in ("127.0.0.1", "::1") else (f"[{host}]" if ":" in host else host)
    return [f"http://{shown}{tail}"]
