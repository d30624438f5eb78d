"""Queries for the cards table (`$n` SQL; records come from `cards.records`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.cards.records import card_columns, card_order
from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_uuid, escape_like, in_list, insert_sql, row_args
from cardservice.models import Card
from cardservice.models.base import table_of, utcnow


def _where(user_uuid: uuid.UUID | None, filters: dict[str, Any]) -> tuple[str, list[Any]]:
    """The list's WHERE over `c`: one user's cards, or every user's (None, the operator's)."""
    clauses = [] if user_uuid is None else ["c.user_uuid = $1"]
    args: list[Any] = [] if user_uuid is None else [user_uuid]
    for key in ("user_uuid", "status", "account_uuid", "is_favorite"):
        if key in filters:
            args.append(filters[key])
            clauses.append(f"c.{key} = ${len(args)}")
    if "program_uuid" in filters:
        args.append(filters["program_uuid"])
        clauses.append(
            f"c.user_uuid IN (SELECT p.uuid FROM users p WHERE p.program_uuid = ${len(args)})"  # noqa: S608
        )
    if "search" in filters:
        args.append(f"%{escape_like(filters['search'].lower())}%")
        n = len(args)
        clauses.append(
            f"(c.last4 LIKE ${n} ESCAPE '\\' OR lower(c.bin) LIKE ${n} ESCAPE '\\'"
            f" OR lower(coalesce(c.description, '')) LIKE ${n} ESCAPE '\\'"
            f" OR substr(c.bin, 1, 6) || '******' || c.last4 LIKE ${n} ESCAPE '\\')"
        )
    return " AND ".join(clauses) or "1 = 1", args


async def page_of_cards(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """One page of the user's cards in their order, and how many match in all."""
    where, args = _where(user_uuid, filters)  # fixed clauses; every value is a parameter
    return await paginate(  # one user's cards: short
        reader,
        f"SELECT $TOTAL AS total, {card_columns('c')} FROM cards c WHERE {where}"  # noqa: S608
        f" ORDER BY {card_order('c')}",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM cards c WHERE {where}",  # noqa: S608
    )


async def page_of_every_card(
    reader: Reader, filters: dict[str, Any], offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """One page of every user's cards (the operator's read-back), oldest first (ties by
    uuid), and how many match in all."""
    where, args = _where(None, filters)  # fixed clauses; every value is a parameter
    return await paginate(
        reader,
        f"SELECT $TOTAL AS total, {card_columns('c')} FROM cards c WHERE {where}"  # noqa: S608
        " ORDER BY c.created_at, c.uuid",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM cards c WHERE {where}",  # noqa: S608
        walk=True,
    )


async def page_of_team_cards(
    reader: Reader, team_uuid: uuid.UUID, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """One page of the cards of the team's members (role `member`) that are not closed — the
    cards its owner manages — by holder name, then each holder's card order; and how many."""
    where = "u.team_uuid = $1 AND u.role = 'member' AND c.status <> 'closed'"
    return await paginate(
        reader,
        "SELECT $TOTAL AS total, u.uuid AS holder_uuid, u.name AS holder_name,"  # noqa: S608
        f" {card_columns('c')} FROM cards c JOIN users u ON u.uuid = c.user_uuid"
        f" WHERE {where} ORDER BY u.name, u.uuid, {card_order('c')}",
        [team_uuid],
        Offset(offset, limit),
        count=f"SELECT count(*) FROM cards c JOIN users u ON u.uuid = c.user_uuid WHERE {where}",  # noqa: S608
    )


_HOLDER = "SELECT user_uuid FROM cards WHERE uuid = $1"


async def holder_of(reader: Reader | Tx, card_uuid: uuid.UUID) -> uuid.UUID | None:
    """The user who holds the card (never changes), or None when there is no such card."""
    return as_uuid(await reader.value(_HOLDER, card_uuid))


_TEAM_MEMBER = "SELECT 1 FROM users WHERE uuid = $1 AND team_uuid = $2 AND role = 'member'"
_MEMBER_CARDS = "SELECT t.member_cards FROM teams t WHERE t.uuid = $1"


async def is_team_member(reader: Reader | Tx, user_uuid: uuid.UUID, team_uuid: uuid.UUID) -> bool:
    """Whether the user is a member (role `member`) of the team."""
    return await reader.value(_TEAM_MEMBER, user_uuid, team_uuid) is not None


async def member_cards_policy(reader: Reader | Tx, team_uuid: uuid.UUID) -> str:
    """The team's card policy for its members: `direct` or `request`."""
    return str(await reader.value(_MEMBER_CARDS, team_uuid) or "direct")


_OWN_CARD = f"SELECT {card_columns('c')} FROM cards c WHERE c.uuid = $1 AND c.user_uuid = $2"  # noqa: S608


async def own_card(reader: Reader | Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row | None:
    """One of the user's cards, or None."""
    return await reader.row(_OWN_CARD, card_uuid, user_uuid)


async def lock_order(tx: Tx, user_uuid: uuid.UUID) -> dict[uuid.UUID, int]:
    """The user's cards → sort_order, in card order; locked (by uuid, the lock order) for
    re-numbering."""
    rows = await tx.rows(
        "SELECT uuid, sort_order, created_at FROM cards WHERE user_uuid = $1"
        " ORDER BY uuid FOR NO KEY UPDATE",
        user_uuid,
    )
    ordered = sorted(rows, key=lambda r: (r["sort_order"], r["created_at"], str(r["uuid"])))
    return {as_uuid(row["uuid"]): int(row["sort_order"]) for row in ordered}  # type: ignore[misc]


async def set_favorite(
    tx: Tx, user_uuid: uuid.UUID, card_uuids: Sequence[uuid.UUID], is_favorite: bool
) -> int:
    """Mark the user's cards among `card_uuids` (locked by uuid first, the lock order); how
    many were the user's."""
    owned = await tx.rows(
        f"SELECT uuid FROM cards WHERE user_uuid = $1 AND uuid IN {in_list(len(card_uuids), 2)}"  # noqa: S608
        " ORDER BY uuid FOR NO KEY UPDATE",
        user_uuid,
        *card_uuids,
    )
    if owned:
        await tx.execute(
            f"UPDATE cards SET is_favorite = $2, updated_at = $3"  # noqa: S608 - placeholders
            f" WHERE user_uuid = $1 AND uuid IN {in_list(len(card_uuids), 4)}",
            user_uuid,
            is_favorite,
            utcnow(),
            *card_uuids,
        )
    return len(owned)


async def set_sort_orders(tx: Tx, orders: dict[uuid.UUID, int]) -> None:
    now = utcnow()
    for card_uuid, position in orders.items():
        await tx.execute(
            "UPDATE cards SET sort_order = $2, updated_at = $3 WHERE uuid = $1",
            card_uuid,
            position,
            now,
        )


_CARD_SECRET = (
    f"SELECT c.pan_ciphertext, {card_columns('c')} FROM cards c"  # noqa: S608 - our names
    " WHERE c.uuid = $1 AND c.user_uuid = $2 FOR NO KEY UPDATE"
)


async def lock_own_card_secret(tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row | None:
    """One of the user's cards with its number's ciphertext first, locked (a reveal counts
    its reveals under this lock, so concurrent ones cannot pass the limit together)."""
    return await tx.row(_CARD_SECRET, card_uuid, user_uuid)


_BY_FINGERPRINT = (
    f"SELECT c.user_uuid AS owner_uuid, {card_columns('c')} FROM cards c"  # noqa: S608
    " WHERE c.pan_fingerprint = $1"
)


async def card_by_fingerprint(
    reader: Reader | Tx, fingerprint: str, *, for_update: bool = False
) -> Row | None:
    """The card whose number has this keyed fingerprint (`cards.pan_fingerprint`, unique),
    its owner's uuid first; locked when `for_update`. No row is decrypted to find it."""
    sql = _BY_FINGERPRINT + (" FOR NO KEY UPDATE" if for_update else "")
    return await reader.row(sql, fingerprint)


async def update_card(tx: Tx, card_uuid: uuid.UUID, columns: dict[str, Any], now: datetime) -> None:
    """Set the named columns of the card (names are ours, never the caller's) and its
    `updated_at`."""
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=3))
    await tx.execute(
        f"UPDATE cards SET updated_at = $2, {sets} WHERE uuid = $1",  # noqa: S608 - column names
        card_uuid,
        now,
        *columns.values(),
    )


async def existing_tags(tx: Tx, slugs: Sequence[str]) -> set[str]:
    """Which of the slugs name a transaction tag."""
    rows = await tx.rows(
        f"SELECT slug FROM transaction_tags WHERE slug IN {in_list(len(slugs))}",  # noqa: S608
        *slugs,
    )
    return {row["slug"] for row in rows}


# The statements of a purchase. Parameters: $1 user, $2 account or BIN.
_CONTEXT = """
SELECT u.name,
       (SELECT max(sort_order) FROM cards WHERE user_uuid = $1) AS last_sort,
       b.uuid AS bin_uuid, b.bin, b.brand, b.currency, b.status, b.card_price,
       o.slug AS fee_slug, o.kind AS fee_kind, o.value AS fee_value,
       p.bin_uuids AS program_bins, p.card_validity_months, p.fee_overrides AS program_fees
FROM users u LEFT JOIN bins b ON b.uuid = $2
             LEFT JOIN user_fee_overrides o ON o.user_uuid = u.uuid
             LEFT JOIN programs p ON p.uuid = u.program_uuid
WHERE u.uuid = $1"""


async def purchase_context(tx: Tx, user_uuid: uuid.UUID, bin_uuid: uuid.UUID) -> Sequence[Row]:
    """The buyer's name, last card position and program (BINs, validity, fees) joined with the
    BIN (or NULLs; its card price) and with each of their fee overrides; no row when the user
    does not exist."""
    return await tx.rows(_CONTEXT, user_uuid, bin_uuid)


# Every column of the table: a new card must give each one (a missing one fails loudly).
CARD_COLUMNS = tuple(table_of(Card).columns.keys())


def _insert_cards_sql(count: int) -> str:
    # a number another card holds (or a twin in the same batch) is skipped, not an error
    suffix = " ON CONFLICT (pan_fingerprint) DO NOTHING RETURNING uuid"
    return insert_sql("cards", CARD_COLUMNS, count, suffix)


async def insert_cards(tx: Tx, cards: Sequence[dict[str, Any]]) -> Sequence[Row]:
    """Insert the cards in one statement, skipping any whose number is taken; the inserted
    ones' uuids."""
    return await tx.rows(_insert_cards_sql(len(cards)), *row_args(CARD_COLUMNS, cards))


# A card's event that no table change makes (a reveal,
# docs/security.md#card-details-cvv2-and-issuer-keys): inserted with `data` NULL, which the unit
# fills with the card's record before it commits (`events.outbox.complete_events`), so it is
# sequenced and delivered like any other.
_INSERT_EVENT = (
    "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)"
    " VALUES ($1, $2, $3, 'card', $4, $5)"
)


async def insert_card_event(
    tx: Tx, type_: str, user_uuid: uuid.UUID, card_uuid: uuid.UUID, now: datetime
) -> uuid.UUID:
    """One event of the card in the caller's unit; its uuid."""
    event = uuid.uuid4()
    await tx.execute(_INSERT_EVENT, event, type_, user_uuid, card_uuid, now)
    return event


_VALIDITY = (
    "SELECT p.card_validity_months FROM users u JOIN programs p ON p.uuid = u.program_uuid"
    " WHERE u.uuid = $1"
)
_CLOSE_REPLACED = (
    "UPDATE cards SET status = 'closed', closed_reason = $2, replaced_by = $3, updated_at = $4"
    " WHERE uuid = $1"
)


async def program_validity(tx: Tx, user_uuid: uuid.UUID) -> int | None:
    """The card validity (months) of the user's program; None outside a program."""
    value = await tx.value(_VALIDITY, user_uuid)
    return None if value is None else int(value)


async def close_replaced(
    tx: Tx, card_uuid: uuid.UUID, reason: str, replaced_by: uuid.UUID, now: datetime
) -> None:
    """Close a replaced card (`lost`, `stolen`, …), naming its replacement
    (docs/operations.md#running-a-program)."""
    await tx.execute(_CLOSE_REPLACED, card_uuid, reason, replaced_by, now)


_CARDS_OF_USER = "SELECT uuid, currency FROM cards WHERE user_uuid = $1 ORDER BY sort_order"
_CARDS_OF_USER_IN = (
    "SELECT uuid, currency FROM cards WHERE user_uuid = $1 AND currency = $2 ORDER BY sort_order"
)
_LAST_CARD_OF_ACCOUNT = (
    "SELECT uuid FROM cards WHERE account_uuid = $1 ORDER BY sort_order DESC, uuid"
)


async def cards_of_user(
    source: Reader | Tx, user_uuid: uuid.UUID, currency: str | None = None
) -> Sequence[Row]:
    """The user's cards (uuid, currency) in their position order, of one currency if given."""
    if currency is None:
        return await source.rows(_CARDS_OF_USER, user_uuid)
    return await source.rows(_CARDS_OF_USER_IN, user_uuid, currency)


async def last_card_of_account(source: Reader | Tx, account_uuid: uuid.UUID) -> uuid.UUID | None:
    """The account's card placed last (the one bought last), or None."""
    return as_uuid(await source.value(_LAST_CARD_OF_ACCOUNT, account_uuid))


async def spend_pin_nonce(tx: Tx, digest: str, now: datetime) -> bool:
    """Record a PIN envelope's nonce (its SHA-256) as used; False when it was used before."""
    inserted = await tx.value(
        "INSERT INTO pin_nonces (nonce_hash, created_at) VALUES ($1, $2)"
        " ON CONFLICT (nonce_hash) DO NOTHING RETURNING nonce_hash",
        digest,
        now,
    )
    return inserted is not None
