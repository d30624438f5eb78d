"""A real listener on a free loopback port beside the test's app, and a real TCP client."""

from __future__ import annotations

import random
import socket
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.config import Settings
from cardservice.network.listener import running_listener
from tests.decisions.conftest import receiver  # noqa: F401 - the decision endpoint fixture
from tests.factories import Caller, make_card, make_user


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class IssuedCard:
    account: uuid.UUID
    uuid: str
    pan: str
    expiry: str  # YYMM


@dataclass
class Network:
    """The listener's address, a connected client, and fresh keys."""

    port: int
    client: NetworkClient
    numbers: Iterator[str]

    def key(self) -> tuple[str, str]:
        """A fresh (STAN, transmission time)."""
        return next(self.numbers), transmitted_now()

    async def connect(self) -> NetworkClient:
        return await NetworkClient.connect("127.0.0.1", self.port)


@pytest.fixture
def iso_settings(app: FastAPI) -> Settings:
    settings: Settings = app.state.settings
    return settings.model_copy(update={"iso8583_port": free_port()})


@pytest.fixture
async def network(app: FastAPI, iso_settings: Settings) -> AsyncIterator[Network]:
    state = app.state
    async with running_listener(iso_settings, state.db, state.cipher, state.outbound):
        assert iso_settings.iso8583_port is not None
        client = await NetworkClient.connect("127.0.0.1", iso_settings.iso8583_port)
        numbers = stans()
        # signed on at once, as an acquirer does: the connection's first message, before the
        # listener's first-frame deadline (docs/network.md, Bounds), however long the test's
        # own set-up takes
        signed_on = await client.request(
            "0800", messages.echo(next(numbers), transmitted_now(), "001")
        )
        assert signed_on.fields[39] == "00"
        yield Network(iso_settings.iso8583_port, client, numbers)
        await client.close()


async def issue_card(
    app: FastAPI, client: httpx.AsyncClient, user: Caller | None = None, **extra: object
) -> tuple[Caller, IssuedCard]:
    """A user with a funded card bought through the API, and its number (read back)."""
    user = user or await make_user(app)
    account, card_uuid = await make_card(app, client, user, **extra)  # type: ignore[arg-type]
    card = await app.state.db.reader.row(
        "SELECT pan_ciphertext, expiry_year, expiry_month FROM cards WHERE uuid = $1",
        uuid.UUID(card_uuid),
    )
    assert card is not None
    pan = app.state.cipher.decrypt(bytes(card["pan_ciphertext"]))
    expiry = f"{card['expiry_year'] % 100:02d}{card['expiry_month']:02d}"
    return user, IssuedCard(account, card_uuid, pan, expiry)


def unknown_numbers(card: IssuedCard, count: int) -> list[str]:
    """Numbers of the card's BIN that no card has (16 digits, random after the BIN)."""
    draw = random.Random(card.pan)
    numbers: set[str] = set()
    while len(numbers) < count:
        number = card.pan[:6] + f"{draw.randrange(10**10):010d}"
        if number != card.pan:
            numbers.add(number)
    return sorted(numbers)
