"""The network simulator (API.md §14): an acquirer speaking ISO 8583 to a host, with faults,
that checks the host's bookkeeping against its own at the end.

`run` makes its own user, account and cards (through the services), sends seeded traffic
for a while over a few connections, and then reads the database: every authorization it
saw approved is one purchase (0 applied twice), every card's balance is what the answers it
got say it should be (0 cents lost), and the ledger balances.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import orjson

from cardservice.accounts.service import create_account
from cardservice.cards.purchase import buy_cards
from cardservice.cards.schemas import BuyCardsRequest
from cardservice.db import Database
from cardservice.network import messages
from cardservice.network.client import NetworkClient, stans, transmitted_now
from cardservice.network.codec import encode
from cardservice.network.repository import (
    SIM_BIN,
    SIM_CARD_BALANCES,
    SIM_CARDS,
    SIM_POSTED,
    SIM_PURCHASES,
)
from cardservice.security import CardCipher
from cardservice.sql import Tx, text_uuid
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

FAULTS = ("duplicates", "late-reversals", "early-reversals", "advices", "pipelined", "drops")
FEE = 10  # the default plan's card_transaction fee (minor units)
START = 500_000  # each card's start balance: most authorizations are approved


@dataclass
class SimCard:
    uuid: str
    pan: str
    expiry: str


@dataclass
class Sent:
    """One authorization as the simulator knows it."""

    card: SimCard
    fields: dict[int, str]
    amount: int
    answer: dict[int, str] | None = None
    reversed: bool = False
    captured: int = 0
    refunded: int = 0


@dataclass
class Tally:
    """What the run did and what it found."""

    sent: int = 0
    answered: dict[str, int] = field(default_factory=dict)
    mismatched_repeats: int = 0
    dropped: int = 0
    slowest: float = 0.0

    def count(self, code: str, took: float) -> None:
        self.answered[code] = self.answered.get(code, 0) + 1
        self.slowest = max(self.slowest, took)


async def make_cards(
    db: Database, cipher: CardCipher, count: int
) -> tuple[uuid.UUID, list[SimCard]]:
    """A user, an account and `count` funded USD cards for the run."""

    async def unit(tx: Tx) -> uuid.UUID:
        user = await create_user(
            tx, f"network-sim-{uuid.uuid4().hex[:10]}@example.com", "Simulator"
        )
        account = await create_account(tx, user, "Network simulator", "USD")
        await deposit(tx, user, account, count * START * 2)
        bin_uuid = await tx.value(SIM_BIN)
        body = BuyCardsRequest(
            account_uuid=str(account), bin_uuid=text_uuid(bin_uuid) or "",
            cards_count=count, start_balance=Decimal(START) / 100,
        )  # fmt: skip
        await buy_cards(tx, cipher, user, body)
        return account

    account = await db.transact(unit)
    rows = await db.reader.rows(SIM_CARDS, account)
    cards = [
        SimCard(text_uuid(r["uuid"]) or "", cipher.decrypt(bytes(r["pan_ciphertext"])),
                f"{r['expiry_year'] % 100:02d}{r['expiry_month']:02d}")
        for r in rows
    ]  # fmt: skip
    return account, cards


class Traffic:
    """Seeded traffic with the chosen faults over `connections` connections."""

    def __init__(self, host: str, port: int, seed: int, faults: set[str], cards: list[SimCard]):
        self.host, self.port, self.faults, self.cards = host, port, faults, cards
        self.random = random.Random(seed)  # noqa: S311 - seeded traffic, no secret
        self.numbers = stans(seed * 10_000 % 900_000 + 1)
        self.sent: list[Sent] = []
        self.tally = Tally()

    def key(self) -> tuple[str, str]:
        return next(self.numbers), transmitted_now()

    async def request(
        self, client: NetworkClient, mti: str, fields: dict[int, str]
    ) -> dict[int, str]:
        started = time.monotonic()
        self.tally.sent += 1
        answer = await client.request(mti, fields, wait=10)
        self.tally.count(answer.fields[39], time.monotonic() - started)
        return answer.fields

    async def authorization(self, client: NetworkClient) -> None:
        card = self.random.choice(self.cards)
        amount = self.random.randint(100, 5_000)
        sent = Sent(
            card, messages.authorization(card.pan, card.expiry, amount, *self.key()), amount
        )
        self.sent.append(sent)
        early = "early-reversals" in self.faults and self.random.random() < 0.1
        if early:
            reversal = messages.reversal(sent.fields, *self.key())
            await self.request(client, "0400", reversal)
        if "drops" in self.faults and self.random.random() < 0.05:
            await self._dropped(sent)
        else:
            sent.answer = await self.request(client, "0100", sent.fields)
        if early:
            sent.reversed = True
            return
        if "duplicates" in self.faults and self.random.random() < 0.2:
            again = await self.request(client, self.random.choice(("0100", "0101")), sent.fields)
            first = sent.answer or {}
            if any(again.get(k) != first.get(k) for k in (38, 39, 54)):
                self.tally.mismatched_repeats += 1
        await self._follow_up(client, sent)

    async def _dropped(self, sent: Sent) -> None:
        """Sent, then the connection dropped before the answer; a repeat (0101) on a new
        connection gets it."""
        dropped = await NetworkClient.connect(self.host, self.port)
        dropped.writer.write(len(b := messages_bytes(sent.fields)).to_bytes(2, "big") + b)
        await dropped.writer.drain()
        await dropped.close()
        self.tally.dropped += 1
        retry = await NetworkClient.connect(self.host, self.port)
        try:
            sent.answer = await self.request(retry, "0101", sent.fields)
        finally:
            await retry.close()

    async def _follow_up(self, client: NetworkClient, sent: Sent) -> None:
        if sent.answer is None or sent.answer[39] != "00":
            return
        roll = self.random.random()
        if "late-reversals" in self.faults and roll < 0.15:
            answer = await self.request(client, "0400", messages.reversal(sent.fields, *self.key()))
            sent.reversed = answer[39] == "00"
        elif "advices" in self.faults and roll < 0.45:
            amount = self.random.randint(sent.amount // 2, sent.amount)
            answer = await self.request(
                client, "0220", messages.capture(sent.fields, amount, *self.key())
            )
            sent.captured = amount if answer[39] == "00" else 0
            if sent.captured and self.random.random() < 0.3:
                back = self.random.randint(1, sent.captured)
                refund = messages.refund(sent.card.pan, back, *self.key(), original=sent.fields)
                sent.refunded = (
                    back if (await self.request(client, "0220", refund))[39] == "00" else 0
                )

    async def connection(self, deadline: float) -> None:
        client = await NetworkClient.connect(self.host, self.port)
        try:
            while time.monotonic() < deadline:
                if "pipelined" in self.faults and self.random.random() < 0.2:
                    await asyncio.gather(*(self.authorization(client) for _ in range(5)))
                else:
                    await self.authorization(client)
        finally:
            await client.close()


def messages_bytes(fields: dict[int, str]) -> bytes:
    return encode("0100", fields)


def _expected_balances(sent: list[Sent], purchases: list[Any]) -> dict[str, int]:
    """Each card's balance as the answers say: its start, less every approved authorization
    that was not reversed (what was captured, or held, and the fee), less the decline fees
    the host charged (read back: they depend on the balance at that instant)."""
    expected = {s.card.uuid: START for s in sent}
    for item in sent:
        if item.answer is None or item.answer[39] != "00" or item.reversed:
            continue
        expected[item.card.uuid] -= (item.captured or item.amount) + FEE - item.refunded
    for row in purchases:
        if row["status"] == "declined":
            card = text_uuid(row["card_uuid"]) or ""
            expected[card] = expected.get(card, START) - int(row["fee"])
    return expected


async def check(db: Database, account: uuid.UUID, traffic: Traffic) -> dict[str, Any]:
    """0 applied twice, 0 cents lost, the ledger of the run's cards balanced."""
    purchases = list(await db.reader.rows(SIM_PURCHASES, account))
    keys = [orjson.loads(r["network"])["stan"] for r in purchases if r["network"]]
    applied_twice = len(keys) - len(set(keys))
    approved = {s.fields[11] for s in traffic.sent if s.answer and s.answer[39] == "00"}
    missing = len(approved - set(keys))
    expected = _expected_balances(traffic.sent, purchases)
    actual = {
        text_uuid(r["uuid"]) or "": int(r["balance"])
        for r in await db.reader.rows(SIM_CARD_BALANCES, account)
    }
    lost = sum(abs(actual.get(card, START) - balance) for card, balance in expected.items())
    unposted = [r for r in await db.reader.rows(SIM_POSTED, account) if r["balance"] != r["posted"]]
    return {
        "requests": traffic.tally.sent,
        "answers": dict(sorted(traffic.tally.answered.items())),
        "slowest_answer_s": round(traffic.tally.slowest, 3),
        "dropped_connections": traffic.tally.dropped,
        "repeats_answered_differently": traffic.tally.mismatched_repeats,
        "applied_twice": applied_twice,
        "approved_without_purchase": missing,
        "cents_lost": lost,
        "cards_off_their_postings": len(unposted),
    }


async def run(
    db: Database, cipher: CardCipher, host: str, port: int, *, seed: int, seconds: float,
    faults: set[str], connections: int = 4, cards: int = 8,
) -> dict[str, Any]:  # fmt: skip
    """The whole run; its findings (`ok` is whether every check held)."""
    account, issued = await make_cards(db, cipher, cards)
    traffic = Traffic(host, port, seed, faults, issued)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(traffic.connection(deadline) for _ in range(connections)))
    found = await check(db, account, traffic)
    found["ok"] = not any(
        found[k] for k in ("applied_twice", "approved_without_purchase", "cents_lost",
                           "cards_off_their_postings", "repeats_answered_differently")
    ) and found["slowest_answer_s"] <= 3.0  # fmt: skip
    return found
