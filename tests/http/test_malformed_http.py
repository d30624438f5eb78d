"""Malformed HTTP gets the docs/api.md#errors body (issue 28, item 9), not the server's plain-text
"Invalid HTTP request received.": a real uvicorn server on a loopback port, with the
protocol `cardservice serve` runs (both of uvicorn's parsers), fed bytes that are not HTTP."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
import uvicorn
from fastapi import FastAPI

from cardservice.http.protocol import H11Protocol, HttpToolsProtocol, protocol_class

MALFORMED = [
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: twelve\r\n\r\n",
    b"GET /health HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
]


@asynccontextmanager
async def serving(app: FastAPI, protocol: type[asyncio.Protocol]) -> AsyncIterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, http=protocol, lifespan="off", log_config=None, access_log=False)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:  # noqa: ASYNC110 - uvicorn offers no event
            await asyncio.sleep(0.01)
        yield int(sock.getsockname()[1])
    finally:
        server.should_exit = True
        await task
        sock.close()


async def _exchange(port: int, raw: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


def test_serve_uses_the_json_protocol() -> None:
    assert protocol_class() in (H11Protocol, HttpToolsProtocol)


@pytest.mark.parametrize("protocol", [H11Protocol, HttpToolsProtocol])
async def test_malformed_http_gets_the_error_body(
    app: FastAPI, protocol: type[asyncio.Protocol]
) -> None:
    async with serving(app, protocol) as port:
        for raw in MALFORMED:
            answer = await _exchange(port, raw)
            head, _, body = answer.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
            assert lines[0].startswith("HTTP/1.1 400"), answer
            assert headers["content-type"] == "application/json"
            assert headers["x-content-type-options"] == "nosniff"
            assert len(headers["x-request-id"]) == 32
            assert int(headers["content-length"]) == len(body)
            assert json.loads(body) == {
                "success": False,
                "message": "The request is not valid HTTP/1.1.",
                "code": "bad_request",
            }
        healthy = await _exchange(
            port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        assert healthy.startswith(b"HTTP/1.1 200")
