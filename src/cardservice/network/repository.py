"""Every statement of the network channel: cards by number, tags by name, message keys."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, cast

import orjson

from cardservice.db.sql import Reader, Row, Tx, as_datetime, as_uuid
from cardservice.tokens import paid_with
from cardservice.transactions import (
    CARD_WITH_FEES_NAMES,
    Locked,
    authorization_account_sql,
    card_with_fees_sql,
)
from cardservice.transactions.card_testing import Merchant

# A number is a card's (its fingerprint) or a wallet token's DPAN (the same fingerprint,
# docs/network.md#wallet-tokens): both joins are index lookups; the token's card answers for a DPAN.
_CARD_OF_NUMBER = (
    "SELECT coalesce(c.uuid, tc.uuid) AS card_uuid,"
    " coalesce(c.user_uuid, tc.user_uuid) AS user_uuid,"
    " coalesce(c.expiry_year, tc.expiry_year) AS expiry_year,"
    " coalesce(c.expiry_month, tc.expiry_month) AS expiry_month,"
    " coalesce(c.currency, tc.currency) AS currency, k.uuid AS token_uuid,"
    " k.wallet AS token_wallet, k.last4 AS token_last4, k.status AS token_status,"
    " k.expiry_year AS token_expiry_year, k.expiry_month AS token_expiry_month,"
    " tc.pan_ciphertext AS token_card_pan"  # a DPAN's card's own number (its PIN's PVV)
)


def _number_joins(number: str) -> str:
    """The joins from a number's fingerprint (`number`: a parameter or a column) to its card."""
    return (
        f" LEFT JOIN cards c ON c.pan_fingerprint = {number}"
        f" LEFT JOIN card_tokens k ON k.dpan_fingerprint = {number}"
        " LEFT JOIN cards tc ON tc.uuid = k.card_uuid"
    )


_NUMBER_JOINS = _number_joins("$1")
_CARD_BY_FINGERPRINT = f"{_CARD_OF_NUMBER} FROM (SELECT 1 AS one) o{_NUMBER_JOINS}"
_ACCOUNT_OF_NUMBER = (
    "SELECT coalesce(c.account_uuid, tc.account_uuid) AS account_uuid"  # noqa: S608 - ours
    f" FROM (SELECT 1 AS one) o{_NUMBER_JOINS}"
)
# An authorization's first statement, in its unit (network/authorizations.py), for one request
# or for each of a lane's unit (network/batches.py), a row of `w` each: the card of its
# number (a card's or a wallet token's); the accounts locked first, in uuid order
# (docs/ledger.md, "Lock order"), with what the rules read beside them, by the engine's own
# text (`transactions.locks.authorization_account_sql`: `uuid` … `budget_currency`); then the
# cards locked in uuid order with their users' fee overrides, decision endpoints and each
# request's tag, by the engine's own text too (`card_with_fees_sql`, its columns `locked_`…:
# one row an override; the sort reads every account's row, so every account is locked
# before any card); each request's key row, the card-testing guard's block of its merchant
# and lock of its number's BIN (transactions/card_testing/). Each lock is its CTE's: no outer
# join may lock its nullable side.
_LOCKED = "locked_"
_WANTED = (
    "fingerprint", "acquirer_id", "stan", "transmitted", "mti_class", "merchant_acquirer",
    "merchant_id", "bin", "tag",
)  # fmt: skip
_LOCKED_ACCOUNTS = authorization_account_sql("n", "n", "n.i AS account_of, ")
_LOCKED_CARDS = card_with_fees_sql(
    "c.user_uuid", "n.tag", _LOCKED, "n.i AS locked_of, ",
    "n JOIN l ON l.account_of = n.i JOIN cards c ON c.uuid = n.card_uuid",
)  # fmt: skip
_LOCKED_NAMES = tuple((name, _LOCKED + name) for name in CARD_WITH_FEES_NAMES)


@functools.cache
def _locked_cards_and_keys_sql(count: int) -> str:
    """The first statement of `count` requests, each a row of `w` (`i`: its place, then
    `_WANTED`, `$`… in that order), their rows in that order."""
    width = len(_WANTED)
    values = ", ".join(
        f"({i}, " + ", ".join(f"${i * width + j}" for j in range(1, width + 1)) + ")"
        for i in range(count)
    )
    return (
        f"WITH w(i, {', '.join(_WANTED)}) AS (VALUES {values}),"  # noqa: S608 - our fragments
        f" n AS ({_CARD_OF_NUMBER}, coalesce(c.account_uuid, tc.account_uuid) AS account_uuid,"
        f" w.* FROM w{_number_joins('w.fingerprint')}),"
        f" l AS ({_LOCKED_ACCOUNTS} ORDER BY a.uuid FOR NO KEY UPDATE OF a),"
        f" f AS ({_LOCKED_CARDS} ORDER BY c.uuid FOR NO KEY UPDATE OF c)"
        " SELECT n.*, l.*, m.response_code, m.answer, m.transaction_uuid, m.created_at,"
        " g.blocked_until, b.locked_until AS bin_locked_until, f.*"
        " FROM n LEFT JOIN l ON l.account_of = n.i LEFT JOIN f ON f.locked_of = n.i"
        " LEFT JOIN network_messages m ON m.acquirer_id = n.acquirer_id AND m.stan = n.stan"
        " AND m.transmitted = n.transmitted AND m.mti_class = n.mti_class"
        " LEFT JOIN card_testing_merchants g ON g.acquirer_id = n.merchant_acquirer"
        " AND g.merchant_id = n.merchant_id"
        " LEFT JOIN card_testing_bins b ON b.bin = n.bin ORDER BY n.i"
    )


_CLOSED_REASON = "SELECT closed_reason FROM cards WHERE uuid = $1"
_BIN_LOCKED_UNTIL = "SELECT locked_until FROM card_testing_bins WHERE bin = $1"
_TAG_NAMES = "SELECT slug, name FROM transaction_tags"
# the original's own currency is its field 49's: the merchant's, when it was converted
_OWNER_AND_CARD = (
    "SELECT user_uuid, card_uuid, coalesce(merchant_currency, currency) AS original_currency"
    " FROM transactions WHERE uuid = $1"
)
_KEY = "acquirer_id = $1 AND stan = $2 AND transmitted = $3 AND mti_class = $4"
_FIND = (
    "SELECT response_code, answer, transaction_uuid, created_at FROM network_messages"  # noqa: S608
    f" WHERE {_KEY}"
)
_KEY_ROW = (
    "INSERT INTO network_messages (acquirer_id, stan, transmitted, mti_class,"
    " transaction_uuid, response_code, answer, created_at)"
)
_REMEMBER = (
    f"{_KEY_ROW} VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (acquirer_id, stan, transmitted, mti_class) DO NOTHING RETURNING id"
)
# the keys a unit left for later, one array a column: one text whatever their count, prepared
# once a connection (`Tx.with_commit`); a key taken fails it: `key_taken`
_REMEMBER_AT_COMMIT = _KEY_ROW + (  # noqa: S608 - no value in the text
    " SELECT * FROM unnest(CAST($1 AS text[]), CAST($2 AS text[]), CAST($3 AS text[]),"
    " CAST($4 AS text[]), CAST($5 AS uuid[]), CAST($6 AS text[]), CAST($7 AS text[]),"
    " CAST($8 AS timestamptz[]))"
)
_KEY_CONSTRAINT = "uq_network_messages_key"
# A waiting reversal's row (no answer yet) becomes the original's once it is answered.
_ANSWER_WAITING = (
    "UPDATE network_messages SET transaction_uuid = $5, response_code = $6, answer = $7,"  # noqa: S608
    f" created_at = $8 WHERE {_KEY} AND response_code IS NULL RETURNING id"
)
_FORGET_WAITING = f"DELETE FROM network_messages WHERE {_KEY} AND response_code IS NULL"  # noqa: S608
_FORGET_ANSWER = f"DELETE FROM network_messages WHERE {_KEY} AND transaction_uuid = $5"  # noqa: S608


@dataclass(frozen=True, slots=True)
class Key:
    """A message's key (32, 11, 7) and its MTI's class (`0100` and `0101` are one)."""

    acquirer_id: str  # 11 digits, zero-filled: field 32 as field 90 writes it
    stan: str
    transmitted: str
    mti_class: str

    def args(self) -> tuple[str, str, str, str]:
        return self.acquirer_id, self.stan, self.transmitted, self.mti_class

    def masked(self) -> str:
        return f"{self.mti_class}0/{self.acquirer_id}/{self.stan}/{self.transmitted}"


@dataclass(frozen=True, slots=True)
class Remembered:
    """A key's row: the first answer's own fields, or (code None) a reversal waiting."""

    response_code: str | None
    answer: dict[str, Any]
    transaction_uuid: uuid.UUID | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class WalletToken:
    """The wallet token whose DPAN a message carries (docs/network.md#wallet-tokens)."""

    uuid: uuid.UUID
    wallet: str
    last4: str
    status: str
    expiry_yymm: str


@dataclass(frozen=True, slots=True)
class IssuedCard:
    """The card of a message's number; `token` when the number is a wallet token's DPAN."""

    card_uuid: uuid.UUID
    user_uuid: uuid.UUID
    expiry_yymm: str
    currency: str
    token: WalletToken | None = None
    # a DPAN's card's own number, encrypted: the PVV of a PIN sent with the DPAN is its
    token_card_pan: bytes | None = field(default=None, repr=False)

    @property
    def paid_with(self) -> dict[str, str | None] | None:
        """What a transaction this number pays shows as its `token` (`{uuid, wallet, last4}`,
        tokens.records.paid_with); None for a card's own number."""
        return None if self.token is None else paid_with(asdict(self.token))


async def account_of_number(reader: Reader, fingerprint: str) -> uuid.UUID | None:
    """The account of a number's card (a card's or a wallet token's), read without a lock;
    None for a number of no card."""
    return as_uuid(await reader.value(_ACCOUNT_OF_NUMBER, fingerprint))


class KeyTaken(Exception):
    """Another unit wrote this key first: the work rolls back and the message is looked up
    again (a concurrent repeat, or an early reversal of this original)."""


async def issued_card(reader: Reader | Tx, fingerprint: str) -> IssuedCard | None:
    """The card of a number, a card's or a wallet token's (with its `token`), or None."""
    row = await reader.row(_CARD_BY_FINGERPRINT, fingerprint)
    return None if row is None else _issued(row)


def _cards_by_fingerprints(count: int) -> str:
    """The cards of `count` numbers in one statement, each row with its `fingerprint`."""
    values = ", ".join(f"(${i})" for i in range(1, count + 1))
    return (
        f"WITH o(fingerprint) AS (VALUES {values}) {_CARD_OF_NUMBER},"
        f" o.fingerprint FROM o{_number_joins('o.fingerprint')}"
    )


async def issued_cards(
    reader: Reader | Tx, fingerprints: Collection[str]
) -> dict[str, IssuedCard | None]:
    """`issued_card` of several numbers in one statement, by fingerprint."""
    if not fingerprints:
        return {}
    ordered = sorted(fingerprints)
    rows = await reader.rows(_cards_by_fingerprints(len(ordered)), *ordered)
    found: dict[str, IssuedCard | None] = dict.fromkeys(ordered)
    for row in rows:
        found[str(row["fingerprint"])] = _issued(row)
    return found


def _yymm(year: int, month: int) -> str:
    return f"{year % 100:02d}{month:02d}"


def _issued(row: Row) -> IssuedCard | None:
    card, user = as_uuid(row["card_uuid"]), as_uuid(row["user_uuid"])
    if card is None or user is None:
        return None
    token = None
    token_uuid = as_uuid(row["token_uuid"])
    if token_uuid is not None:
        expiry = _yymm(row["token_expiry_year"], row["token_expiry_month"])
        token = WalletToken(
            token_uuid, row["token_wallet"], row["token_last4"], row["token_status"], expiry
        )
    expiry = _yymm(row["expiry_year"], row["expiry_month"])
    card_pan = row["token_card_pan"] if token is not None else None
    return IssuedCard(
        card, user, expiry, row["currency"], token, None if card_pan is None else bytes(card_pan)
    )


def _remembered(row: Row) -> Remembered | None:
    if row["answer"] is None:
        return None
    return Remembered(
        row["response_code"], orjson.loads(row["answer"]), as_uuid(row["transaction_uuid"]),
        _aware(row["created_at"]),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Opened:
    """What an authorization's unit reads first (`locked_card_and_key`)."""

    card: IssuedCard | None
    locked: Locked | None  # the card's account's row and the card's, locked (None without a card)
    found: Remembered | None  # the key's row
    blocked_until: Any  # the card-testing guard's block of the merchant
    bin_locked_until: Any  # … and its lock of the number's BIN


@dataclass(slots=True, eq=False)
class Opening:
    """What an authorization's first statement reads for: the number's fingerprint, the
    message's key, the merchant, the number's BIN and the merchant's tag (None: none). A lane's
    unit reads it with its neighbours' in one statement (`keep`); the request's own step then
    takes what was read in that unit's transaction (`take`), or reads it itself."""

    fingerprint: str
    key: Key
    merchant: Merchant
    bin: str
    tag: str | None
    _kept: tuple[Tx, Opened] | None = None

    def args(self) -> tuple[str | None, ...]:
        m = self.merchant
        return (
            self.fingerprint,
            *self.key.args(),
            m.acquirer_id,
            m.merchant_id,
            self.bin,
            self.tag,
        )

    def keep(self, tx: Tx, opened: Opened) -> None:
        self._kept = (tx, opened)

    def take(self, tx: Tx) -> Opened | None:
        """What `keep` kept in `tx` (once); None when it was another unit's, or nothing."""
        kept, self._kept = self._kept, None
        return kept[1] if kept is not None and kept[0] is tx else None


async def locked_cards_and_keys(tx: Tx, openings: Sequence[Opening]) -> list[Opened]:
    """Each request's card (a card's or a wallet token's) with its account locked and read as
    `transactions.locks.lock_authorization_account` reads it, then its card locked and read as
    `lock_card_with_fees` reads it with the request's tag, the row of its key, its merchant's
    `blocked_until` and its BIN's `locked_until`: one statement, the unit's first, the accounts
    and then the cards locked in uuid order. In the requests' order."""
    args = [arg for opening in openings for arg in opening.args()]
    rows = await tx.rows(_locked_cards_and_keys_sql(len(openings)), *args)
    each: list[list[Row]] = [[] for _ in openings]
    for row in rows:  # one row a request, or one a fee override of its card's user
        each[int(row["i"])].append(row)
    return [_opened(request_rows) for request_rows in each]


async def locked_card_and_key(tx: Tx, opening: Opening) -> Opened:
    """`locked_cards_and_keys` of one request: a batch of one."""
    return (await locked_cards_and_keys(tx, [opening]))[0]


def _opened(rows: Sequence[Row]) -> Opened:
    row = rows[0]
    card = _issued(row)
    locked = None
    if card is not None and row["uuid"] is not None:
        cards = [{name: each[column] for name, column in _LOCKED_NAMES} for each in rows]
        card_rows = cast("list[Row]", cards)  # by name, as the engine reads a row
        locked = Locked(row, card_rows if cards[0]["uuid"] is not None else [])
    return Opened(card, locked, _remembered(row), row["blocked_until"], row["bin_locked_until"])


async def closed_reason(tx: Tx, card_uuid: uuid.UUID) -> str | None:
    """Why the card was closed (`lost`, `stolen`, … docs/operations.md#running-a-program); None when
    not said."""
    value = await tx.value(_CLOSED_REASON, card_uuid)
    return None if value is None else str(value)


async def bin_locked_until(reader: Reader | Tx, bin_: str) -> Any:
    """The card-testing guard's lock of a BIN (its `locked_until`, as read), or None."""
    return await reader.value(_BIN_LOCKED_UNTIL, bin_)


async def tag_names(reader: Reader) -> dict[str, str]:
    """Each tag's name, lower-case without spaces → its slug."""
    return {_folded(row["name"]): row["slug"] for row in await reader.rows(_TAG_NAMES)}


def _folded(name: str) -> str:
    return "".join(name.split()).lower()


def tag_of(names: dict[str, str], merchant_name: str) -> str | None:
    return names.get(_folded(merchant_name))


async def find(reader: Reader | Tx, key: Key) -> Remembered | None:
    row = await reader.row(_FIND, *key.args())
    return None if row is None else _remembered(row)


def _aware(value: object) -> datetime:
    moment = as_datetime(value)
    assert moment is not None
    return moment


async def remember(
    tx: Tx,
    key: Key,
    transaction_uuid: uuid.UUID | None,
    response_code: str | None,
    answer: dict[str, Any],
    now: datetime,
    *,
    waiting: bool = False,
    with_commit: bool = False,
) -> None:
    """Write the key's row with its answer (`KeyTaken` when it exists already); `waiting`:
    the key had a waiting reversal's row, which now takes the answer. `with_commit` (and no
    reversal waiting): on PostgreSQL the row is written with the unit's COMMIT, in its round
    trip, with the other keys the unit left so (`_remember_at_commit`); a key another unit
    wrote first then fails the COMMIT, which `key_taken` tells."""
    args = (*key.args(), transaction_uuid, response_code, orjson.dumps(answer).decode(), now)
    if waiting and await tx.value(_ANSWER_WAITING, *args) is not None:
        return
    if with_commit and not waiting and tx.dialect == "postgresql":
        await tx.later(_remember_at_commit, args)
        return
    if await tx.value(_REMEMBER, *args) is None:
        raise KeyTaken(key.masked())


async def _remember_at_commit(tx: Tx, rows: list[tuple[Any, ...]]) -> None:
    """The keys' rows a unit left for later (`remember(…, with_commit=True)`): one prepared
    statement, its values written in, sent with the COMMIT (`Tx.with_commit`): a lane's unit
    writes the keys of all its requests at once, as it writes their entries
    (`ledger.post_entry`)."""
    await tx.with_commit(_REMEMBER_AT_COMMIT, *(list(column) for column in zip(*rows, strict=True)))


def key_taken(error: BaseException) -> bool:
    """A unit's COMMIT failed on a key row written with it (`remember(…, with_commit=True)`):
    another unit wrote the key first."""
    return getattr(error, "constraint_name", None) == _KEY_CONSTRAINT


async def forget_waiting(tx: Tx, key: Key) -> None:
    """A waiting reversal older than the 24 h it is remembered: gone."""
    await tx.execute(_FORGET_WAITING, *key.args())


async def forget_answer(tx: Tx, key: Key, transaction_uuid: uuid.UUID) -> None:
    """The key's answer gone (an authorization answered `91` at its deadline, then recorded:
    `91` said nothing was, so a repeat of the key is a new request)."""
    await tx.execute(_FORGET_ANSWER, *key.args(), transaction_uuid)


async def owner_and_card(
    tx: Tx, transaction_uuid: uuid.UUID
) -> tuple[uuid.UUID, uuid.UUID | None, str]:
    """The user a transaction belongs to (the lifecycle's entries act for a user), its card
    and the currency its network message was in (the merchant's)."""
    row = await tx.row(_OWNER_AND_CARD, transaction_uuid)
    assert row is not None, "a transaction is never deleted"
    user = as_uuid(row["user_uuid"])
    assert user is not None
    return user, as_uuid(row["card_uuid"]), row["original_currency"]


def network_json(network: dict[str, str | None]) -> str:
    """A transaction's `network` column."""
    return orjson.dumps(network).decode()
