"""The authorization host's transaction manager (jPOS's): one message through small
participants — check its fields, look up its key, verify the card, call the use case's
entry, remember the answer — and never into the ledger directly.

Every answer is a dict of the answer's own fields (`"39"`, `"38"`, `"54"`), kept in
`network_messages` under the message's key so that a repeat gets it again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta

from cardservice.db.database import Database
from cardservice.db.deadlines import AnsweredAlready
from cardservice.db.sql import Tx
from cardservice.db.unavailable import is_database_unavailable
from cardservice.errors import RuleViolation, ServiceError
from cardservice.infra.outbound import Outbound
from cardservice.models.base import utcnow
from cardservice.network import repository
from cardservice.network.batches import Batches
from cardservice.network.codec import Message
from cardservice.network.repository import Key, KeyTaken
from cardservice.network.responses import (
    DATABASE_UNREACHABLE,
    FORMAT_ERROR,
    ORIGINAL_UNKNOWN,
    REFUSALS,
    SYSTEM_FAILURE,
    WRONG_STATE,
    response,
)
from cardservice.security import CardCipher
from cardservice.transactions.card_testing import Merchant

log = logging.getLogger("cardservice.network")

ANSWER_WITHIN = 2.0  # seconds a decision endpoint may take: the network's deadline is 3 s
REVERSAL_MEMORY = timedelta(hours=24)  # how long a reversal waits for its original
ACCOUNTS_KEPT = 100_000  # numbers whose account a process keeps in mind to queue them together
TAGS_FRESH_FOR = 60.0  # seconds the tag names are reused before they are read again
ATTEMPTS = 3  # a key taken by a concurrent unit: look again, answer from what is there
# connections a network process warms before it listens: a burst on one account's (its
# queue's unit, the reads beside it), not the whole pool — the database's connections are
# shared with every other process (the pool opens the rest as the load needs them)
WARM_CONNECTIONS = 4

Answer = dict[str, str]


class Malformed(Exception):
    """A known MTI with a missing or malformed field: answered `30`."""


@dataclass(slots=True)
class Host:
    """What every participant needs: the database, the cipher (card fingerprints, CVV2),
    the decision endpoints' client, the tags dictionary by name, and the authorizations'
    lanes, each account always in one (`batches.py`)."""

    db: Database
    cipher: CardCipher
    http: Outbound
    allow_private: bool
    _tags: dict[str, str] = field(default_factory=dict)
    _tags_read_at: float = float("-inf")
    _tags_reading: asyncio.Future[None] | None = None
    _working: dict[Key, asyncio.Future[None]] = field(default_factory=dict)
    batches: Batches = field(default_factory=Batches)
    _accounts: dict[str, Hashable] = field(default_factory=dict)
    _reading: dict[str, asyncio.Future[Hashable]] = field(default_factory=dict)

    async def group_of(self, fingerprint: str) -> Hashable:
        """Whose queue a number's authorization joins (`batches.py`): its card's account
        (read once a process, by one request while the others of the number wait for it),
        the number itself when it has no card. Only a hint: each unit locks what its card's
        account is then."""
        if (known := self._accounts.get(fingerprint)) is not None:
            return known
        if (reading := self._reading.get(fingerprint)) is not None:
            return await asyncio.shield(reading)
        reading = self._reading[fingerprint] = asyncio.get_running_loop().create_future()
        group: Hashable = fingerprint
        try:
            group = await repository.account_of_number(self.db.reader, fingerprint) or group
        finally:
            del self._reading[fingerprint]
            reading.set_result(group)
        self.seen(fingerprint, group)
        return group

    def seen(self, fingerprint: str, group: Hashable) -> None:
        """The number's group, as a unit read it."""
        if len(self._accounts) >= ACCOUNTS_KEPT:
            self._accounts.clear()
        self._accounts[fingerprint] = group

    @asynccontextmanager
    async def one_at_a_time(self, key: Key) -> AsyncIterator[None]:
        """A key worked on by one request of this process at a time: a repeat waits for its
        first to end — also when the first was answered `91` at its deadline and goes on
        (it may commit, then release itself: the repeat must see what it left)."""
        while (first := self._working.get(key)) is not None:
            await asyncio.shield(first)
        done = asyncio.get_running_loop().create_future()
        self._working[key] = done
        try:
            yield
        finally:
            del self._working[key]
            done.set_result(None)

    async def tag_of(self, merchant_name: str) -> str | None:
        """The tag of a merchant's name. The names are read by one request at a time (a burst
        on a process that has not read them yet waits for one read, not one each)."""
        if time.monotonic() - self._tags_read_at > TAGS_FRESH_FOR:
            if self._tags_reading is None:
                self._tags_reading = asyncio.ensure_future(self._read_tags())
            await asyncio.shield(self._tags_reading)
        return repository.tag_of(self._tags, merchant_name)

    async def warm(self) -> None:
        """Before the listener listens: the tag names read, and `WARM_CONNECTIONS` of the
        pool opened with the unit's read prepared on each (the card of a number with its
        account and itself locked, the key's row), run on no card in a transaction rolled
        back. A process's first units took
        0.3-0.5 s without (docs/performance.md#a-burst-on-one-account). A database not there
        yet is the first request's to find."""
        with suppress(Exception):
            await self.tag_of("")
            await self.db.warm(_prepare_statements, WARM_CONNECTIONS)

    async def _read_tags(self) -> None:
        try:
            self._tags = await repository.tag_names(self.db.reader)
            self._tags_read_at = time.monotonic()
        finally:
            self._tags_reading = None


async def _prepare_statements(tx: Tx) -> None:
    nothing = repository.Opening("", Key("", "", "", ""), Merchant("", ""), "", None)
    await repository.locked_card_and_key(tx, nothing)


def require(message: Message, *numbers: int) -> None:
    """The fields must be present and well formed (any malformed one refuses the message)."""
    missing = [number for number in numbers if number not in message.fields]
    if missing or message.malformed:
        raise Malformed(f"fields missing {missing} or malformed {message.malformed}")


def key_of(message: Message, mti: str | None = None) -> Key:
    """The message's key (32, 11, 7), or the key it names for another MTI."""
    require(message, 7, 11, 32)
    mti = mti or message.mti
    return Key(message.fields[32].rjust(11, "0"), message.fields[11], message.fields[7], mti[:3])


HIDDEN_DIGITS = 6  # a logged card number always hides at least this many of its characters


def masked_pan(message: Message) -> str:
    """Field 2 as a log line may show it: the first 6 and last 4 characters when at least 6
    stay hidden between them (16 or more), the last 4 alone when that hides 6 (10 to 15),
    nothing (`-`) when shorter, whatever the field holds."""
    pan = message.fields.get(2, "")
    if len(pan) >= 6 + HIDDEN_DIGITS + 4:
        return f"{pan[:6]}{'*' * (len(pan) - 10)}{pan[-4:]}"
    if len(pan) >= HIDDEN_DIGITS + 4:
        return f"{'*' * (len(pan) - 4)}{pan[-4:]}"
    return "-"


class NotTheirs(Exception):
    """A follow-up naming an original of another acquirer or another card (network/originals.py):
    answered `25`, nothing moved and nothing remembered."""


class Refused(Exception):
    """The channel refuses the message with a response code of its own; nothing moved."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


async def _remember_refusal(host: Host, key: Key, answer: Answer) -> bool:
    """A refusal's answer under its key, in a unit of its own (False: the key was taken)."""
    now = utcnow()
    try:
        await host.db.transact(
            lambda tx: repository.remember(tx, key, None, answer["39"], answer, now)
        )
    except KeyTaken:
        return False
    return True


async def once(host: Host, key: Key, work: Callable[[Tx], Awaitable[Answer]]) -> Answer:
    """Answer a message that moves money once: a key answered already gets its first answer;
    otherwise `work` runs in one unit that also writes the key (`repository.remember`, its
    work's last step). A refusal by the use case rolls the unit back and is remembered by a
    unit of its own; a follow-up that is not its original's (`NotTheirs`) rolls back and is
    remembered nowhere. A key another unit took meanwhile: look again."""
    for _attempt in range(ATTEMPTS):
        found = await repository.find(host.db.reader, key)
        if found is not None and found.response_code is not None:
            return found.answer
        try:
            return await host.db.transact(work)
        except KeyTaken:
            continue
        except NotTheirs:
            return {"39": ORIGINAL_UNKNOWN}
        except RuleViolation as refusal:
            answer = {"39": REFUSALS.get(refusal.code, WRONG_STATE)}
        except Refused as refusal:
            answer = {"39": refusal.code}
        if await _remember_refusal(host, key, answer):
            return answer
    raise RuntimeError(f"message key {key.masked()} kept changing")


Participant = Callable[[Host, Message], Awaitable[Answer]]


async def answer(
    host: Host, message: Message, participants: dict[str, Participant]
) -> tuple[str, dict[int, str]]:
    """The answer to one decoded message (never raises): its participant's, `30` for a bad
    field, `91` when the database cannot be reached, `96` for anything else (logged with the
    masked PAN and the key, never the number or the CVV2)."""
    try:
        own = await participants[message.mti](host, message)
    except AnsweredAlready:  # the listener answered `91` at the deadline; nothing recorded
        own = {"39": DATABASE_UNREACHABLE}
    except Malformed as exc:
        log.info("ISO 8583 %s format error: %s (pan %s)", message.mti, exc, masked_pan(message))
        own = {"39": FORMAT_ERROR}
    except Exception as exc:
        own = {"39": DATABASE_UNREACHABLE if is_database_unavailable(exc) else SYSTEM_FAILURE}
        level = logging.WARNING if own["39"] == DATABASE_UNREACHABLE else logging.ERROR
        reason = exc.code if isinstance(exc, ServiceError) else type(exc).__name__
        log.log(
            level,
            "ISO 8583 %s key %s/%s/%s pan %s answered %s: %s",
            message.mti, message.fields.get(32), message.fields.get(11), message.fields.get(7),
            masked_pan(message), own["39"], reason,
        )  # fmt: skip
    return response(message, own)
