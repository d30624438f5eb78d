"""The HTTP/1.1 protocol `cardservice serve` runs: uvicorn's own, but a request the parser
refuses (not HTTP, a malformed header, a bad Content-Length) is answered with the docs/api.md#errors
body — 400 `bad_request`, JSON, `nosniff`, a request id — instead of uvicorn's
plain-text "Invalid HTTP request received.". Nothing of the request reached the app."""

from __future__ import annotations

import asyncio
import uuid

from uvicorn.protocols.http.h11_impl import H11Protocol as _H11
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HttpTools

from cardservice.encoding import dumps

BODY = dumps(
    {"success": False, "message": "The request is not valid HTTP/1.1.", "code": "bad_request"}
)


def bad_request() -> bytes:
    """The whole answer to a request the parser refused; the connection closes after it."""
    return (
        b"HTTP/1.1 400 Bad Request\r\n"
        b"content-type: application/json\r\n"
        b"content-length: " + str(len(BODY)).encode() + b"\r\n"
        b"x-content-type-options: nosniff\r\n"
        b"x-request-id: " + uuid.uuid4().hex.encode() + b"\r\n"
        b"connection: close\r\n\r\n" + BODY
    )


class H11Protocol(_H11):
    def send_400_response(self, msg: str) -> None:
        self.transport.write(bad_request())
        self.transport.close()


class HttpToolsProtocol(_HttpTools):
    def send_400_response(self, msg: str) -> None:
        self.transport.write(bad_request())
        self.transport.close()


def protocol_class() -> type[asyncio.Protocol]:
    """httptools' parser when it is installed (uvicorn's own choice), else h11's."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return H11Protocol
    return HttpToolsProtocol
