"""The listener's bounds through a real socket, with small settings
(docs/network.md#operating-the-listener): one connection over `CARDSERVICE_ISO8583_MAX_CONNECTIONS`
is closed at once; a connection with no complete message for `_IDLE_SECONDS` is closed (an echo is
traffic); a length whose bytes do not follow within `_FRAME_SECONDS` closes its connection; past
`_IN_FLIGHT` requests a connection is not read until an answer leaves, and nothing is dropped. Each
is counted on `/metrics`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY
from starlette.responses import JSONResponse, Response

from cardservice.config import Settings
from cardservice.network import messages
from cardservice.network.client import NetworkClient, stans, transmitted_now
from cardservice.network.listener import running_listener
from tests.decisions.conftest import Receiver, use_receiver
from tests.network.conftest import issue_card


@dataclass
class Listener:
    port: int
    numbers: Any

    def key(self) -> tuple[str, str]:
        return next(self.numbers), transmitted_now()

    async def connect(self) -> NetworkClient:
        return await NetworkClient.connect("127.0.0.1", self.port)


Start = Callable[..., Awaitable[Listener]]


@pytest.fixture
async def bounded(app: FastAPI, iso_settings: Settings) -> AsyncIterator[Start]:
    """Starts the test's listener with the bounds it names (the others at their defaults)."""
    state = app.state
    stack: list[Any] = []

    async def start(**bounds: object) -> Listener:
        settings = iso_settings.model_copy(
            update={f"iso8583_{name}": value for name, value in bounds.items()}
        )
        running = running_listener(settings, state.db, state.cipher, state.outbound)
        await running.__aenter__()
        stack.append(running)
        assert settings.iso8583_port is not None
        return Listener(settings.iso8583_port, stans())

    yield start
    for running in stack:
        await running.__aexit__(None, None, None)


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def _until(condition: Callable[[], bool]) -> None:
    """Wait for the listener to reach a state (the test's own deadline ends a hang)."""
    async with asyncio.timeout(30):
        while not condition():  # noqa: ASYNC110 - the listener offers no event
            await asyncio.sleep(0.01)


async def _echo(listener: Listener, client: NetworkClient) -> str:
    return (await client.request("0800", messages.echo(*listener.key()))).fields[39]


async def test_one_connection_over_the_maximum_is_closed_at_once(bounded: Start) -> None:
    listener = await bounded(max_connections=2)
    refused = _sample("cardservice_iso8583_connections_closed_total", bound="max_connections")
    first, second = await listener.connect(), await listener.connect()
    assert await _echo(listener, first) == "00" and await _echo(listener, second) == "00"
    third = await listener.connect()
    await asyncio.wait_for(third.reading, 30)  # the host closed it without a word
    assert third.closed
    assert (
        _sample("cardservice_iso8583_connections_closed_total", bound="max_connections")
        == refused + 1
    )
    assert await _echo(listener, first) == "00"  # the others are untouched
    open_now = _sample("cardservice_iso8583_connections")
    await second.close()
    await _until(lambda: _sample("cardservice_iso8583_connections") == open_now - 1)
    fourth = await listener.connect()  # a place is free again
    assert await _echo(listener, fourth) == "00"
    for client in (first, third, fourth):
        await client.close()


async def test_a_silent_connection_and_a_one_byte_sender_are_closed_when_idle(
    bounded: Start,
) -> None:
    listener = await bounded(idle_seconds=0.5, frame_seconds=60)
    idle = _sample("cardservice_iso8583_connections_closed_total", bound="idle")
    silent = await listener.connect()
    assert await _echo(listener, silent) == "00"  # traffic, then silence
    one_byte = await listener.connect()
    one_byte.writer.write(b"\x00")  # half a length, never the rest
    await asyncio.wait_for(silent.reading, 30)
    await asyncio.wait_for(one_byte.reading, 30)
    assert silent.closed and one_byte.closed
    assert _sample("cardservice_iso8583_connections_closed_total", bound="idle") == idle + 2
    await silent.close()
    await one_byte.close()


async def test_echoes_keep_a_connection_open(bounded: Start) -> None:
    listener = await bounded(idle_seconds=3.0)
    client = await listener.connect()
    for _ in range(5):  # 5 s of traffic on a 3 s idle bound
        assert await _echo(listener, client) == "00"
        await asyncio.sleep(1.0)
    assert not client.closed
    await client.close()


async def test_a_length_whose_bytes_do_not_follow_closes_its_connection(bounded: Start) -> None:
    listener = await bounded(frame_seconds=0.5, idle_seconds=60)
    cut = _sample("cardservice_iso8583_connections_closed_total", bound="frame")
    client = await listener.connect()
    client.writer.write((100).to_bytes(2, "big") + b"0800")  # 4 of 100 bytes
    await asyncio.wait_for(client.reading, 30)
    assert client.closed
    assert _sample("cardservice_iso8583_connections_closed_total", bound="frame") == cut + 1
    await client.close()


async def test_past_its_in_flight_bound_a_connection_is_not_read_until_an_answer_leaves(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, bounded: Start
) -> None:
    user, card = await issue_card(app, client)
    gate = asyncio.Event()

    async def held(_event: dict[str, Any]) -> Response:
        await gate.wait()
        return JSONResponse({"approved": True})

    receiver.handler = held
    await use_receiver(client, user, receiver, timeout_ms=3000, on_timeout="approve")
    listener = await bounded(in_flight=1)
    full = _sample("cardservice_iso8583_in_flight_full_total")
    network = await listener.connect()
    answered: list[str] = []

    async def send(mti: str, fields: dict[int, str]) -> str:
        answer = await network.request(mti, fields, wait=30)
        answered.append(mti)
        return answer.fields[39]

    authorization = asyncio.create_task(
        send("0100", messages.authorization(card.pan, card.expiry, 100, *listener.key()))
    )
    await _until(lambda: len(receiver.events) == 1)  # the 0100 waits on its endpoint
    await _until(lambda: _sample("cardservice_iso8583_in_flight_full_total") == full + 1)
    echo = asyncio.create_task(send("0800", messages.echo(*listener.key())))
    gate.set()
    assert await authorization == "00" and await echo == "00"  # nothing dropped
    assert answered == ["0100", "0800"]  # the echo was read only once the 0100 was answered
    await network.close()


async def test_within_its_in_flight_bound_a_fast_answer_overtakes_a_slow_one(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, bounded: Start
) -> None:
    user, card = await issue_card(app, client)
    gate = asyncio.Event()

    async def held(_event: dict[str, Any]) -> Response:
        await gate.wait()
        return JSONResponse({"approved": True})

    receiver.handler = held
    await use_receiver(client, user, receiver, timeout_ms=3000, on_timeout="approve")
    listener = await bounded(in_flight=2)
    network = await listener.connect()
    fields = messages.authorization(card.pan, card.expiry, 100, *listener.key())
    authorization = asyncio.create_task(network.request("0100", fields, wait=30))
    await _until(lambda: len(receiver.events) == 1)
    assert await _echo(listener, network) == "00"  # answered while the 0100 waits
    assert not authorization.done()
    gate.set()
    assert (await authorization).fields[39] == "00"
    await network.close()
