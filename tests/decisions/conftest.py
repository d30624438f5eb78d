"""A real decision endpoint for the tests: an HTTP server on loopback (ports 18500-18599) in
the test's own event loop, whose answer each test sets, and a way to point a user at it."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from standardwebhooks import Webhook
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from cardservice.http.router import dumps
from tests.factories import Caller

Handler = Callable[[dict[str, Any]], Awaitable[Response]]
PORTS = range(18510, 18600)


async def approve(_event: dict[str, Any]) -> Response:
    return JSONResponse({"approved": True})


@dataclass
class Receiver:
    """What the endpoint saw (signature checked with `secret`) and how it answers."""

    url: str
    handler: Handler = approve
    secret: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    async def handle(self, request: Request) -> Response:
        body, headers = await request.body(), dict(request.headers)
        assert self.secret is not None, "set the endpoint first"
        event = Webhook(self.secret).verify(body, headers)  # raises on a bad signature
        self.events.append(event)
        self.headers.append(headers)
        return await self.handler(event)


def free_port() -> int:
    for port in random.sample(PORTS, len(PORTS)):  # parallel runs rarely collide
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18510-18599")


async def serve(app: ASGIApp) -> AsyncIterator[str]:
    """Serve `app` on a loopback port for the test; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the receiver did not start"
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@pytest.fixture
async def receiver(app: FastAPI) -> AsyncIterator[Receiver]:
    found = Receiver(url="")
    async for base in serve(Starlette(routes=[Route("/decide", found.handle, methods=["POST"])])):
        found.url = f"{base}/decide"
        yield found
    await app.state.outbound.aclose()


async def set_endpoint(
    client: httpx.AsyncClient, user: Caller, url: str, **settings: object
) -> httpx.Response:
    return await client.put(
        "/authorization-endpoint",
        content=dumps({"url": url, **settings}),
        headers={**user.headers, "Content-Type": "application/json"},
    )


async def use_receiver(
    client: httpx.AsyncClient, user: Caller, receiver: Receiver, **settings: object
) -> dict[str, Any]:
    response = await set_endpoint(client, user, receiver.url, **settings)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    receiver.secret = data["secret"]
    return data
