"""A wallet token's payments racing its card's replacement (docs/network.md#wallet-tokens), on
`cardservice serve --workers 2` with PostgreSQL and a real TCP ISO 8583 client: every payment is
booked on exactly one of the two cards — the old one before the replacement, the new one after —
never both, never lost (declined as a closed card's)."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from pathlib import Path

import asyncpg
import httpx
import pytest

from cardservice.acquirer.client import NetworkClient, stans
from cardservice.security import CardCipher
from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.network.conftest import IssuedCard, Network, free_port
from tests.stress.bank_run import ADMIN_DSN, KEY, Server, _setup
from tests.tokens.conftest import decide, first_payment, new_wallet, notify, pay

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="row locks across two server processes: PostgreSQL",
)
BEFORE = 3  # payments answered before the replacement is asked for, on the first connection
AFTER = 5  # payments each connection sends once the replacement is done


async def _issued(url: str, card_uuid: str) -> IssuedCard:
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow(
            "SELECT account_uuid, pan_ciphertext, expiry_year, expiry_month FROM cards"
            " WHERE uuid = $1",
            uuid.UUID(card_uuid),
        )
    finally:
        await connection.close()
    assert row is not None
    pan = CardCipher([KEY.encode()]).decrypt(bytes(row["pan_ciphertext"]))
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    return IssuedCard(row["account_uuid"], card_uuid, pan, expiry)


async def _books(url: str) -> tuple[list[tuple[str, str]], dict[str, tuple[str, int, int]]]:
    """The token's purchases (card, status) and each card's (status, balance, postings)."""
    connection = await asyncpg.connect(url)
    try:
        purchases = await connection.fetch(
            "SELECT card_uuid, status FROM transactions"
            " WHERE type = 'card_purchase' AND token IS NOT NULL"
        )
        cards = await connection.fetch(
            "SELECT c.uuid, c.status, c.balance, coalesce(sum(p.amount), 0) AS posted"
            " FROM cards c LEFT JOIN postings p ON p.card_uuid = c.uuid"
            " GROUP BY c.uuid, c.status, c.balance"
        )
    finally:
        await connection.close()
    return (
        [(str(r["card_uuid"]), r["status"]) for r in purchases],
        {str(r["uuid"]): (r["status"], int(r["balance"]), int(r["posted"])) for r in cards},
    )


async def test_token_payments_racing_a_replacement_are_booked_on_exactly_one_card() -> None:
    url = await create_migrated_database(ADMIN_DSN, "cs_tokens")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()  # noqa: ASYNC240 - once, before the server starts
    server = Server(url, workdir, workers=2)
    iso_port = free_port()
    server.env["CARDSERVICE_ISO8583_PORT"] = str(iso_port)
    try:
        await server.start()
        headers, _accounts, cards = await _setup(url, server, "wallet@example.com")
        card = await _issued(url, cards[0])
        clients = [await NetworkClient.connect("127.0.0.1", iso_port) for _ in range(3)]
        numbers = stans()
        setup = Network(iso_port, clients[0], numbers)
        await first_payment(setup, card)
        wallet = new_wallet()
        assert await decide(setup, card, wallet) == "00"
        assert await notify(setup, card, wallet) == "00"

        replaced = asyncio.Event()
        started = asyncio.Event()
        answers: list[tuple[str, str]] = []  # (when: before | during | after, response code)

        async def payer(client: NetworkClient, first: bool) -> None:
            network, sent, after = Network(iso_port, client, numbers), 0, 0
            while after < AFTER:
                when = (
                    "after" if replaced.is_set() else "before" if not started.is_set() else "during"
                )
                answer = await pay(network, wallet.dpan, wallet.expiry, 10)
                answers.append((when, answer[39]))
                sent += 1
                after += when == "after"
                if first and sent == BEFORE:
                    started.set()
                await asyncio.sleep(0)

        async def replacement() -> str:
            await started.wait()
            async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=60) as http:
                response = await http.post(f"/card/{card.uuid}/replace", json={"reason": "lost"})
            replaced.set()
            assert response.status_code == 201, response.text
            return str(response.json()["data"]["uuid"])

        payers = [payer(client, index == 0) for index, client in enumerate(clients)]
        new_card, *_ = await asyncio.gather(replacement(), *payers)
        for client in clients:
            await client.close()

        assert [code for _, code in answers] == ["00"] * len(answers)  # none lost
        purchases, books = await _books(url)
        assert len(purchases) == len(answers)  # each booked once
        on_old = sum(1 for paid_by, _ in purchases if paid_by == card.uuid)
        on_new = sum(1 for paid_by, _ in purchases if paid_by == new_card)
        assert on_old + on_new == len(answers)  # on one of the two cards, no other
        assert on_old >= sum(1 for when, _ in answers if when == "before")
        assert on_new >= sum(1 for when, _ in answers if when == "after")
        assert books[card.uuid][:2] == ("closed", 0)
        for _status, balance, posted in books.values():
            assert balance == posted  # every card's balance is the sum of its postings
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
        await drop_database(ADMIN_DSN, url)
