"""Wallet tokens made as the network makes them: a provisioning request and a token-created
notice over a real TCP connection to a real listener (docs/network.md#wallet-tokens)."""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.messages import TOKEN_BIN
from cardservice.cards.numbers import generate_pan
from cardservice.db.sql import as_uuid
from tests.decisions.conftest import receiver  # noqa: F401 - the decision endpoint fixture
from tests.factories import ISSUED_SECRETS
from tests.network import conftest as network_fixtures
from tests.network.conftest import IssuedCard, Network

iso_settings = network_fixtures.iso_settings  # the listener of tests/network, reused here
network = network_fixtures.network
_references = itertools.count(1)


@dataclass
class Wallet:
    """A token as the wallet knows it: its DPAN, expiry and the network's reference."""

    reference: str
    dpan: str
    expiry: str  # YYMM
    uuid: str | None = None


def new_wallet() -> Wallet:
    """A fresh token reference and DPAN (registered for the log scan)."""
    dpan = generate_pan(TOKEN_BIN)
    ISSUED_SECRETS.append(dpan)
    year = datetime.now(UTC).year % 100 + 4  # never a card's expiry (36 months)
    return Wallet(f"TREF{uuid.uuid4().hex[:12].upper()}{next(_references)}", dpan, f"{year:02d}08")


async def first_payment(iso: Network, card: IssuedCard) -> None:
    """An approved authorization, so that the card's next provisioning is approved."""
    fields = messages.authorization(card.pan, card.expiry, 100, *iso.key())
    answer = await iso.client.request("0100", fields)
    assert answer.fields[39] == "00"


async def decide(iso: Network, card: IssuedCard, token: Wallet, **options: object) -> str:
    """The provisioning request's answer (field 39)."""
    fields = messages.provisioning(
        card.pan, card.expiry, *iso.key(), reference=token.reference, **options
    )  # type: ignore[arg-type]
    answer = await iso.client.request("0100", fields)
    assert answer.mti == "0110"
    return answer.fields[39]


async def notify(iso: Network, card: IssuedCard, token: Wallet, **options: object) -> str:
    """The token-created notice's answer (field 39)."""
    fields = messages.token_created(
        card.pan, token.dpan, token.expiry, *iso.key(), reference=token.reference,
        **options,  # type: ignore[arg-type]
    )  # fmt: skip
    answer = await iso.client.request("0620", fields)
    assert answer.mti == "0630"
    return answer.fields[39]


async def provision(
    app: FastAPI, iso: Network, card: IssuedCard, *, paid_before: bool = True
) -> Wallet:
    """An active token of the card (approved: the card paid once before)."""
    if paid_before:
        await first_payment(iso, card)
    wallet = new_wallet()
    assert await decide(iso, card, wallet) == "00"
    assert await notify(iso, card, wallet) == "00"
    wallet.uuid = str(await token_row(app, wallet.reference, "uuid"))
    return wallet


async def token_row(app: FastAPI, reference: str, column: str = "status") -> object:
    """One column of the token with the network's `reference` (None when there is none)."""
    found = await app.state.db.reader.value(
        f"SELECT {column} FROM card_tokens WHERE token_reference = $1", reference
    )
    return as_uuid(found) if column.endswith("uuid") else found


async def tokens_of(
    client: httpx.AsyncClient, headers: dict[str, str], card_uuid: str
) -> list[dict[str, object]]:
    response = await client.get(f"/card/{card_uuid}/tokens", headers=headers)
    assert response.status_code == 200, response.text
    data: list[dict[str, object]] = response.json()["data"]
    return data


async def pay(iso: Network, pan: str, expiry: str, amount: int) -> dict[int, str]:
    fields = messages.authorization(pan, expiry, amount, *iso.key())
    answer = await iso.client.request("0100", fields)
    return answer.fields
