"""`cok serve --https` on one port for both (issue 47): a phone that types `http://` reaches the
same port, and a TLS server would close that connection without a word. Each connection's first
byte says which it is (a TLS handshake record starts with 22): https is handed to uvicorn's own
protocol through asyncio's TLS layer, plain http is answered with a redirect to https (308) to
the same host, port and path, then closed."""

from __future__ import annotations

import asyncio
import re
import ssl
from asyncio import sslproto
from pathlib import Path
from typing import Any, ClassVar

from cok.serve.deadline import REQUEST_WITHIN, Deadline

HANDSHAKE = 0x16  # TLS's record type for a handshake: the first byte of every ClientHello
HEAD_MOST = 8192  # a plain request's head read for its path and Host, at most
_HOST = re.compile(rb"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")
_TARGET = re.compile(rb"^/[\x21-\x7e]*$")


def context(cert: Path, key: Path) -> ssl.SSLContext:
    """The server's TLS context: the certificate of serve/certificate.py, HTTP/1.1 offered."""
    made = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    made.load_cert_chain(str(cert), str(key))
    made.set_alpn_protocols(["http/1.1"])
    return made


def one_port(tls: ssl.SSLContext) -> type[OnePort]:
    """uvicorn's `http=` protocol class for this run: https, and http redirected, on one port."""
    return type("OnePortServing", (OnePort,), {"tls": tls})


class OnePort(asyncio.Protocol):
    """A connection until its first bytes say what it speaks: then either uvicorn's protocol
    (with serve/deadline.py's deadline) behind asyncio's TLS layer, or a redirect to https."""

    tls: ClassVar[ssl.SSLContext]

    def __init__(self, **made: Any) -> None:
        self.made = made  # config, server_state, app_state (and uvicorn's _loop): for Deadline
        self.loop = made.get("_loop") or asyncio.get_event_loop()
        self.transport: asyncio.Transport | None = None
        self.head = b""
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.timer = self.loop.call_later(REQUEST_WITHIN, transport.close)  # a silent client is let go

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()

    def data_received(self, data: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        if not self.head and data[:1] == bytes([HANDSHAKE]):
            self._disarm()
            self._secure(data)
            return
        self.head += data
        if b"\r\n\r\n" in self.head or b"\n\n" in self.head or len(self.head) > HEAD_MOST:
            self._disarm()
            self._redirect()

    def _secure(self, first: bytes) -> None:
        """The connection handed to asyncio's TLS layer, and through it to uvicorn's protocol;
        the bytes already read are the handshake's first."""
        assert self.transport is not None
        inner = Deadline(**self.made)
        waiter = self.loop.create_future()  # the handshake's end; a failed one is only the phone's
        waiter.add_done_callback(lambda done: done.cancelled() or done.exception())
        layer = sslproto.SSLProtocol(self.loop, inner, self.tls, waiter, server_side=True)
        self.transport.set_protocol(layer)
        layer.connection_made(self.transport)
        if isinstance(layer, asyncio.BufferedProtocol):
            view = memoryview(first)
            while view:
                buffer = layer.get_buffer(len(view))
                size = min(len(buffer), len(view))
                buffer[:size] = view[:size]
                layer.buffer_updated(size)
                view = view[size:]
        else:  # pragma: no cover - asyncio's layer before Python 3.11
            layer.data_received(first)

    def _redirect(self) -> None:
        """Plain http: 308 to the same host, port and path over https, then closed."""
        assert self.transport is not None
        lines = self.head.split(b"\n")
        words = lines[0].split()
        target = words[1] if len(words) == 3 and _TARGET.match(words[1]) else b"/"
        host = b""
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"host":
                host = value.strip()
        if not _HOST.match(host):
            here = self.transport.get_extra_info("sockname") or ("localhost", 443)
            host = f"{here[0]}:{here[1]}".encode() if ":" not in str(here[0]) else f"[{here[0]}]:{here[1]}".encode()
        location = b"https://" + host + target
        body = b"This server speaks https only: " + location + b"\n"
        self.transport.write(
            b"HTTP/1.1 308 Permanent Redirect\r\nlocation: " + location + b"\r\n"
            b"content-type: text/plain; charset=utf-8\r\ncontent-length: " + str(len(body)).encode() + b"\r\n"
            b"connection: close\r\n\r\n" + body
        )
        self.transport.close()

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
