"""The network simulator (docs/network.md#the-network-interface-iso-8583): an acquirer speaking ISO
8583 to a host, with faults, that checks the host's bookkeeping against its own at the end.

`run` makes its own user, account and cards (through the services), sends seeded traffic
for a while over a few connections, and then reads the database: every authorization it
saw approved is one purchase (0 applied twice), every card's balance is what the answers it
got say it should be (0 cents lost), what the stand-in advices left the cardholders owing is
what `cardholder_receivables` holds for them, and the ledger balances. An authorization the
host answered `91` at its deadline that committed after it was released by the host with its
key forgotten (a reversed purchase with no key, `released_late`): as its `91` said, nothing
of it stands, and it counts as nothing recorded.

With `advices`, a tenth of the authorizations are 0120 stand-in advices instead (some large
enough to overdraw the card, a quarter in JPY, a currency the rate table cannot convert to
the cards' USD): their shortfall depends on the card's balance at that instant, which the
simulator reads back from the purchase rather than follows itself.

With `wallets`, every card first goes into a digital wallet (acquirer/wallets.py: the
provisioning request with a random risk score, the token-created notice, the holder's
activation code; one token left waiting for it, one suspended by its holder), and three in
ten authorizations then pay with the card's DPAN instead of its number: the books must come
out the same, and an inactive token's payments are declined (`62`).
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from contextlib import suppress
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

from cardservice.accounts import create_account
from cardservice.acquirer import messages, repository, wallets
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.acquirer.presentments import write_run_file
from cardservice.cards import BuyCardsRequest, buy_cards
from cardservice.db.database import Database
from cardservice.db.sql import Tx, text_uuid
from cardservice.network.codec import encode
from cardservice.network.fields import CURRENCIES
from cardservice.security import CardCipher
from cardservice.transactions import deposit
from cardservice.users import create_user

FAULTS = (
    "duplicates", "late-reversals", "early-reversals", "advices", "pipelined", "drops", "clearing",
    "wallets",
)  # fmt: skip
WALLET_TENTHS = 3  # with `wallets`: the authorizations that pay with the card's DPAN
FEE = 10  # the default plan's card_transaction fee (minor units)
START = 500_000  # each card's start balance: most authorizations are approved
WAIT = 5.0  # seconds to wait for an answer (the host's deadline is 3 s) before a repeat
PAUSE = 0.2  # seconds between retransmissions
GIVE_UP = 90.0  # seconds a request is retransmitted before it counts as unanswered
NOT_TAKEN = ("91", "96")  # the host took nothing: an advice or a reversal is sent again
CARD_CURRENCY, UNCONVERTIBLE = "USD", "JPY"  # the rate table has no JPY → USD


@dataclass
class SimCard:
    uuid: str
    pan: str
    expiry: str
    wallet: wallets.WalletCard | None = None  # with `wallets`: the card's token


@dataclass
class Sent:
    """One authorization as the simulator knows it."""

    card: SimCard
    fields: dict[int, str]
    amount: int
    mti: str = "0100"  # or 0120, a stand-in advice
    answer: dict[int, str] | None = None
    reversed: bool = False
    captured: int = 0
    refunded: int = 0

    @property
    def currency(self) -> str:
        return CURRENCIES[self.fields[49]]


@dataclass
class Tally:
    """What the run did and what it found."""

    sent: int = 0
    answered: dict[str, int] = field(default_factory=dict)
    mismatched_repeats: int = 0
    dropped: int = 0
    retransmitted: int = 0
    unanswered: int = 0
    slowest: float = 0.0

    def count(self, code: str, took: float) -> None:
        self.answered[code] = self.answered.get(code, 0) + 1
        self.slowest = max(self.slowest, took)


async def make_cards(
    db: Database, cipher: CardCipher, count: int, start: int = START
) -> tuple[uuid.UUID, list[SimCard]]:
    """A user, an account and `count` USD cards for the run, each with `start` cents."""

    async def unit(tx: Tx) -> uuid.UUID:
        user = await create_user(
            tx, f"network-sim-{uuid.uuid4().hex[:10]}@example.com", "Simulator"
        )
        account = await create_account(tx, user, "Network simulator", "USD")
        await deposit(tx, user, account, count * start * 2)
        bin_uuid = await repository.sim_bin(tx)
        body = BuyCardsRequest(
            account_uuid=str(account), bin_uuid=text_uuid(bin_uuid) or "",
            cards_count=count, start_balance=Decimal(start) / 100,
        )  # fmt: skip
        await buy_cards(tx, cipher, user, body)
        return account

    account = await db.transact(unit)
    rows = await repository.sim_cards(db.reader, account)
    cards = [
        SimCard(text_uuid(r["uuid"]) or "", cipher.decrypt(bytes(r["pan_ciphertext"])),
                f"{r['expiry_year'] % 100:02d}{r['expiry_month']:02d}")
        for r in rows
    ]  # fmt: skip
    return account, cards


class Unanswered(Exception):
    """A request that got no definite answer however often it was sent."""


class Line:
    """One connection to the host that is made again when it drops (a killed host, a proxy
    that lost its server); the requests in flight on it are retransmitted by their senders."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.client: NetworkClient | None = None
        self._connecting = asyncio.Lock()

    async def get(self) -> NetworkClient:
        async with self._connecting:
            if self.client is None or self.client.closed:
                self.client = await NetworkClient.connect(self.host, self.port)
            return self.client

    async def drop(self, client: NetworkClient | None) -> None:
        """`client` failed: the next `get` connects again (once for all its senders)."""
        if client is not None:
            await client.close()
        if self.client is client:
            self.client = None

    async def close(self) -> None:
        await self.drop(self.client)


class Traffic:
    """Seeded traffic with the chosen faults over `connections` connections.

    An acquirer's duties are kept: a request whose line dropped or that got no answer
    within `WAIT` s is retransmitted as its repeat (0101, 0121, 0221, 0401, 0421) on a new
    line; so is an advice, a reversal or a repeat answered `91` or `96` (store and forward:
    the host has not taken it); only an 0100's own `91`/`96` is its answer (nothing was
    recorded). An authorization still unanswered after `GIVE_UP` s is reversed."""

    def __init__(self, host: str, port: int, seed: int, faults: set[str], cards: list[SimCard]):
        self.host, self.port, self.faults, self.cards = host, port, faults, cards
        self.random = random.Random(seed)  # noqa: S311 - seeded traffic, no secret
        self.numbers = stans(seed * 10_000 % 900_000 + 1)
        self.sent: list[Sent] = []
        self.tally = Tally()

    def key(self) -> tuple[str, str]:
        return next(self.numbers), transmitted_now()

    async def request(
        self, line: Line, mti: str, fields: dict[int, str], *, first: bool = False
    ) -> dict[int, str]:
        """The definite answer to `mti` (retransmitted as need be; `Unanswered` after
        `GIVE_UP` s); the slowest answer is timed from the send that it answered. `first`:
        an 0100's first send, whose own `91` or `96` is its answer (a decline)."""
        self.tally.sent += 1
        give_up, sending = time.monotonic() + GIVE_UP, mti
        while time.monotonic() < give_up:
            client, started = None, time.monotonic()
            try:
                client = await line.get()
                answer = (await client.request(sending, fields, wait=WAIT)).fields
            except (OSError, TimeoutError):  # the line dropped (ConnectionError) or no answer
                await line.drop(client)
                self.tally.retransmitted += 1
                sending = repeat_of(mti)
                await asyncio.sleep(PAUSE)
                continue
            self.tally.count(answer[39], time.monotonic() - started)
            if answer[39] in NOT_TAKEN and not (first and sending == mti):
                self.tally.retransmitted += 1
                sending = repeat_of(mti)
                await asyncio.sleep(PAUSE)
                continue
            return answer
        self.tally.unanswered += 1
        raise Unanswered(mti)

    def _new(self) -> Sent:
        """The next authorization, or (with `advices`, one in ten) stand-in advice."""
        card = self.random.choice(self.cards)
        amount = self.random.randint(100, 5_000)
        if "advices" not in self.faults or self.random.random() >= 0.1:
            stan, sent = self.key()
            pan, expiry = card.pan, card.expiry
            if card.wallet is not None and int(stan) % 10 < WALLET_TENTHS:  # no random draw:
                pan, expiry = card.wallet.dpan, card.wallet.expiry  # the other faults' mix stays
            fields = messages.authorization(pan, expiry, amount, stan, sent)
            return Sent(card, fields, amount)
        if self.random.random() < 0.1:  # beyond what a card may still hold: a shortfall
            amount = self.random.randint(START // 4, START)
        currency = UNCONVERTIBLE if self.random.random() < 0.25 else CARD_CURRENCY
        fields = messages.stand_in(card.pan, card.expiry, amount, *self.key(), currency=currency)
        return Sent(card, fields, amount, mti="0120")

    async def authorization(self, line: Line) -> None:
        sent = self._new()
        self.sent.append(sent)
        early = "early-reversals" in self.faults and self.random.random() < 0.1
        if early:
            await self._reverse(line, sent)
        try:
            if "drops" in self.faults and self.random.random() < 0.05:
                await self._dropped(sent)
            else:
                decline = sent.mti == "0100"  # an advice answered `91` is sent again
                sent.answer = await self.request(line, sent.mti, sent.fields, first=decline)
        except Unanswered:
            if not early:  # the acquirer's duty: an authorization left unanswered is reversed
                await self._reverse(line, sent)
            return
        if early:
            return
        taken = sent.answer is not None and sent.answer[39] not in NOT_TAKEN
        if "duplicates" in self.faults and self.random.random() < 0.2 and taken:
            # (a `91` recorded nothing: the same key again is a new request, not a repeat)
            mti = self.random.choice((sent.mti, repeat_of(sent.mti)))
            again = await self.request(line, mti, sent.fields)
            first = sent.answer or {}
            if any(again.get(k) != first.get(k) for k in (38, 39, 54)):
                self.tally.mismatched_repeats += 1
        await self._follow_up(line, sent)

    async def _reverse(self, line: Line, sent: Sent) -> None:
        """A whole reversal of `sent` (before it, when early): `00` now or before, or `25`
        (unknown: the host remembers it for the original); nothing of it stays held."""
        reversal = messages.reversal_request(sent.fields, *self.key(), original_mti=sent.mti)
        await self.request(line, "0420" if sent.mti == "0120" else "0400", reversal)
        sent.reversed = True

    async def _dropped(self, sent: Sent) -> None:
        """Sent, then the connection dropped before the answer; a repeat (0101, 0121) on a
        new connection gets it."""
        with suppress(OSError):  # a host away now: the repeat below is the first it sees
            dropped = await NetworkClient.connect(self.host, self.port)
            dropped.writer.write(len(b := encode(sent.mti, sent.fields)).to_bytes(2, "big") + b)
            await dropped.writer.drain()
            await dropped.close()
            self.tally.dropped += 1
        retry = Line(self.host, self.port)
        try:
            sent.answer = await self.request(retry, repeat_of(sent.mti), sent.fields)
        finally:
            await retry.close()

    async def _follow_up(self, line: Line, sent: Sent) -> None:
        if sent.answer is None or sent.answer[39] != "00":
            return
        roll = self.random.random()
        original = sent.mti
        if "late-reversals" in self.faults and roll < 0.15:
            reversal = messages.reversal_request(sent.fields, *self.key(), original_mti=original)
            answer = await self.request(line, "0420" if original == "0120" else "0400", reversal)
            sent.reversed = answer[39] == "00"
        elif "advices" in self.faults and roll < 0.45:
            amount = self.random.randint(sent.amount // 2, sent.amount)
            capture = messages.capture_advice(
                sent.fields, amount, *self.key(), original_mti=original
            )
            answer = await self.request(line, "0220", capture)
            sent.captured = amount if answer[39] == "00" else 0
            if sent.captured and self.random.random() < 0.3:
                back = self.random.randint(1, sent.captured)
                refund = messages.refund_advice(
                    sent.card.pan, back, *self.key(), original=sent.fields,
                    currency=sent.currency, original_mti=original,
                )  # fmt: skip
                sent.refunded = (
                    back if (await self.request(line, "0220", refund))[39] == "00" else 0
                )

    async def connection(self, deadline: float) -> None:
        line = Line(self.host, self.port)
        try:
            while time.monotonic() < deadline:
                burst = 5 if "pipelined" in self.faults and self.random.random() < 0.2 else 1
                results = await asyncio.gather(
                    *(self.authorization(line) for _ in range(burst)), return_exceptions=True
                )
                for result in results:  # a follow-up left unanswered: counted, the run fails
                    if isinstance(result, BaseException) and not isinstance(result, Unanswered):
                        raise result
        finally:
            await line.close()


def repeat_of(mti: str) -> str:
    """A request's repeat MTI: 0100 → 0101, 0120 → 0121."""
    return f"{mti[:3]}1"


def _owed(item: Sent, shortfall: int) -> int:
    """What a stand-in leaves its cardholder owing `cardholder_receivables` (in its own
    currency): the shortfall, less what a final capture released (repaid first), less a
    refund when the card cannot take it (a currency the card does not hold)."""
    if item.reversed:
        return 0
    if not item.captured:
        return shortfall
    owed = shortfall - min(shortfall, item.amount - item.captured)
    return owed - (item.refunded if item.currency != CARD_CURRENCY else 0)


def _cost(item: Sent, fee: int, shortfall: int) -> int:
    """What an approved authorization not reversed cost its card: what was captured (or is
    still held) and the fee, less what the cardholder owes instead (a stand-in's shortfall
    not yet repaid), less refunds the card got. A stand-in in a currency the card does not
    hold is all shortfall: the card pays none of it and gets no refund of it."""
    if item.currency != CARD_CURRENCY:
        return 0
    return (item.captured or item.amount) + fee - _owed(item, shortfall) - item.refunded


def _approved(sent: list[Sent]) -> list[Sent]:
    """The authorizations and advices answered `00` and not reversed."""
    return [s for s in sent if s.answer is not None and s.answer[39] == "00" and not s.reversed]


def _expected_balances(sent: list[Sent], by_stan: dict[str, Any]) -> dict[str, int]:
    """Each card's balance as the answers say: its start, less what every approved
    authorization not reversed cost it (`_cost`; the fee and a stand-in's shortfall read
    back from its purchase: they depend on the balance at that instant), less the decline
    fees the host charged (read back too)."""
    expected = {s.card.uuid: START for s in sent}
    for item in _approved(sent):
        row = by_stan.get(item.fields[11])
        fee, shortfall = (int(row["fee"]), int(row["shortfall"])) if row else (FEE, 0)
        expected[item.card.uuid] -= _cost(item, fee, shortfall)
    for row in by_stan.values():
        if row["status"] == "declined":
            card = text_uuid(row["card_uuid"]) or ""
            expected[card] = expected.get(card, START) - int(row["fee"])
    return expected


def _expected_owed(sent: list[Sent], by_stan: dict[str, Any]) -> dict[str, int]:
    """What `cardholder_receivables` should hold for the run's stand-ins, per currency."""
    owed: dict[str, int] = {}
    for item in _approved(sent):
        row = by_stan.get(item.fields[11])
        if item.mti == "0120" and row is not None:
            owed[item.currency] = owed.get(item.currency, 0) + _owed(item, int(row["shortfall"]))
    return owed


def _disagreements(sent: list[Sent], by_stan: dict[str, Any]) -> list[str]:
    """The requests whose answer the database disagrees with: answered other than `00` (and
    not reversed) but recorded as approved, or answered `00` but recorded as declined."""
    found = []
    for item in sent:
        row = by_stan.get(item.fields[11])
        code = item.answer[39] if item.answer else "none"
        recorded = row["status"] if row else "nothing"
        approved = recorded not in ("declined", "nothing")
        if (code == "00") != approved and not item.reversed:
            found.append(f"{item.mti} stan {item.fields[11]} answered {code}, recorded {recorded}")
    return found


async def check(db: Database, account: uuid.UUID, traffic: Traffic) -> dict[str, Any]:
    """0 applied twice, 0 cents lost (the cards, and what the stand-ins left owed), the
    ledger of the run's cards balanced."""
    recorded = list(await repository.sim_purchases(db.reader, account))
    purchases = [r for r in recorded if not r["released_late"]]  # `91`: nothing stands
    keys = [orjson.loads(r["network"])["stan"] for r in purchases if r["network"]]
    by_stan = {orjson.loads(r["network"])["stan"]: r for r in purchases if r["network"]}
    applied_twice = len(keys) - len(set(keys))
    approved = {s.fields[11] for s in traffic.sent if s.answer and s.answer[39] == "00"}
    missing = len(approved - set(keys))
    expected = _expected_balances(traffic.sent, by_stan)
    actual = {
        text_uuid(r["uuid"]) or "": int(r["balance"])
        for r in await repository.sim_card_balances(db.reader, account)
    }
    lost = sum(abs(actual.get(card, START) - balance) for card, balance in expected.items())
    owed = {r["currency"]: -int(r["owed"]) for r in await repository.sim_owed(db.reader, account)}
    expected_owed = _expected_owed(traffic.sent, by_stan)
    owed_wrong = sum(
        abs(owed.get(currency, 0) - expected_owed.get(currency, 0))
        for currency in set(owed) | set(expected_owed)
    )
    unposted = [
        r for r in await repository.sim_posted(db.reader, account) if r["balance"] != r["posted"]
    ]
    stand_ins = [s for s in traffic.sent if s.mti == "0120"]
    return {
        "requests": traffic.tally.sent,
        "answers": dict(sorted(traffic.tally.answered.items())),
        "slowest_answer_s": round(traffic.tally.slowest, 3),
        "dropped_connections": traffic.tally.dropped,
        "retransmitted": traffic.tally.retransmitted,
        "unanswered": traffic.tally.unanswered,
        "repeats_answered_differently": traffic.tally.mismatched_repeats,
        "stand_in_advices": len(stand_ins),
        "stand_ins_not_approved": sum(1 for s in stand_ins if not s.answer or s.answer[39] != "00"),
        "owed_by_cardholders": dict(sorted(owed.items())),
        "applied_twice": applied_twice,
        "released_late": len(recorded) - len(purchases),
        "approved_without_purchase": missing,
        "cents_lost": lost,
        "owed_off_by": owed_wrong,
        "cards_off_their_postings": len(unposted),
        "answered_otherwise_than_recorded": _disagreements(traffic.sent, by_stan)[:10],
    }


async def run(
    db: Database, cipher: CardCipher, host: str, port: int, *, seed: int, seconds: float,
    faults: set[str], connections: int = 4, cards: int = 8, clearing_file: Path | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The whole run; its findings (`ok` is whether every check held). With `clearing_file`,
    the run ends by writing the IPM file an acquirer would send for it
    (`presentments.write_run_file`; the `clearing` fault adds what does not match)."""
    account, issued = await make_cards(db, cipher, cards)
    traffic = Traffic(host, port, seed, faults, issued)
    if "wallets" in faults:  # DPANs drawn anew on each run's account: a run again on the same
        # database (make fleet-chaos twice) would draw the last run's, which the service refuses
        chooser = random.Random(f"{seed}:wallets:{account}")  # noqa: S311
        await _into_wallets(db, cipher, host, port, traffic, chooser)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(traffic.connection(deadline) for _ in range(connections)))
    found = await check(db, account, traffic)
    if "wallets" in faults:
        found["wallet_payments"] = _wallet_payments(traffic)
        found["inactive_tokens_paid"] = sum(
            codes.get("00", 0) for status, codes in found["wallet_payments"].items()
            if status != "active"
        )  # fmt: skip
    found["ok"] = not any(
        found[k] for k in ("applied_twice", "approved_without_purchase", "cents_lost",
                           "owed_off_by", "cards_off_their_postings", "unanswered",
                           "repeats_answered_differently", "stand_ins_not_approved")
    ) and found["slowest_answer_s"] <= 3.0  # fmt: skip
    if clearing_file is not None:
        file_id = f"SIM-{seed}-{uuid.uuid4().hex[:12]}"
        found["clearing_file"] = write_run_file(clearing_file, file_id, traffic.sent, seed, faults)
    found["ok"] = found["ok"] and not found.get("inactive_tokens_paid")
    return found


async def _into_wallets(
    db: Database, cipher: CardCipher, host: str, port: int, traffic: Traffic, chooser: random.Random
) -> None:
    """Every card of the run into a wallet, before the traffic (acquirer/wallets.py)."""
    client = await NetworkClient.connect(host, port)
    try:
        cards = [(card.uuid, card.pan, card.expiry) for card in traffic.cards]
        made = await wallets.put_in_wallets(db, cipher, client, cards, traffic.key, chooser)
    finally:
        await client.close()
    for card, wallet in zip(traffic.cards, made, strict=True):
        card.wallet = wallet


def _wallet_payments(traffic: Traffic) -> dict[str, dict[str, int]]:
    """The DPAN payments' answers, by the status of the token that made them."""
    found: dict[str, dict[str, int]] = {}
    for item in traffic.sent:
        wallet = item.card.wallet
        if wallet is None or item.fields[2] != wallet.dpan or item.answer is None:
            continue
        codes = found.setdefault(wallet.status, {})
        codes[item.answer[39]] = codes.get(item.answer[39], 0) + 1
    return found
