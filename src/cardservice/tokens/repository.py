"""Every statement of the token tables (`token_provisionings`, `card_tokens`), and the few
reads of a card the token rules need (whether the caller may read it, its status, whether
it was ever approved)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.auth import readable_by
from cardservice.db.sql import Reader, Row, Tx, insert_sql, row_args
from cardservice.models import CardToken, TokenProvisioning
from cardservice.models.base import table_of
from cardservice.tokens.records import token_columns

_PROVISIONINGS = table_of(TokenProvisioning)
_PROVISIONING_COLUMNS = tuple(column.name for column in _PROVISIONINGS.columns)
_TOKENS = table_of(CardToken)
_TOKEN_COLUMNS = tuple(column.name for column in _TOKENS.columns)

# A card's first approved authorization (any purchase not declined), or none.
_EVER_APPROVED = (
    "SELECT 1 FROM transactions WHERE card_uuid = $1 AND type = 'card_purchase'"
    " AND status <> 'declined' LIMIT 1"
)
_CARD_FINGERPRINT_TAKEN = "SELECT 1 FROM cards WHERE pan_fingerprint = $1"
_LATEST_DECISION = (
    "SELECT uuid, user_uuid, card_uuid, wallet, device_name, decision, activation_code_uuid"
    " FROM token_provisionings WHERE token_reference = $1 ORDER BY created_at DESC LIMIT 1"
)
_BY_REFERENCE = (
    "SELECT uuid, user_uuid, card_uuid, provisioning_uuid, dpan_fingerprint, status,"
    " activation_failures FROM card_tokens WHERE token_reference = $1 FOR NO KEY UPDATE"
)
_SET_ACTIVATION_FAILURES = "UPDATE card_tokens SET activation_failures = $2 WHERE uuid = $1"
_BY_DPAN = "SELECT token_reference FROM card_tokens WHERE dpan_fingerprint = $1"
_ACTIVATION_CODE = "SELECT p.activation_code_uuid FROM token_provisionings p WHERE p.uuid = $1"
_TOKENS_OF_CARD = (
    f"SELECT {token_columns('k')} FROM card_tokens k WHERE k.card_uuid = $1"  # noqa: S608
    " ORDER BY k.created_at, k.uuid"
)
_TOKEN_OF_CARD = (
    f"SELECT {token_columns('k')} FROM card_tokens k"  # noqa: S608
    " WHERE k.uuid = $1 AND k.card_uuid = $2 FOR NO KEY UPDATE"
)
_SET_STATUS = "UPDATE card_tokens SET status = $2, updated_at = $3 WHERE uuid = $1"
_MOVE = (
    "UPDATE card_tokens SET card_uuid = $2, updated_at = $3"
    " WHERE card_uuid = $1 AND status <> 'deleted'"
)
_DELETE_OF_CARD = (
    "UPDATE card_tokens SET status = 'deleted', updated_at = $2"
    " WHERE card_uuid = $1 AND status <> 'deleted'"
)


async def readable_card(
    reader: Reader | Tx, card_uuid: uuid.UUID, user_uuid: uuid.UUID, owned_team: uuid.UUID | None
) -> Row | None:
    """The card (`uuid`, `status`) when it is the user's, or a user's of `owned_team` (the
    team the user owns; None: their own cards only); else None."""
    readable, args = readable_by("c.user_uuid", 2, user_uuid, owned_team)
    return await reader.row(
        f"SELECT c.uuid, c.status FROM cards c WHERE c.uuid = $1 AND {readable}",  # noqa: S608
        card_uuid,
        *args,
    )


async def ever_approved(reader: Reader | Tx, card_uuid: uuid.UUID) -> bool:
    return await reader.value(_EVER_APPROVED, card_uuid) is not None


async def is_card_number(reader: Reader | Tx, fingerprint: str) -> bool:
    """Whether a card's number has this fingerprint (a DPAN must not be one)."""
    return await reader.value(_CARD_FINGERPRINT_TAKEN, fingerprint) is not None


async def reference_of_dpan(reader: Reader | Tx, fingerprint: str) -> str | None:
    """The token reference of the token with this DPAN fingerprint, or None."""
    value = await reader.value(_BY_DPAN, fingerprint)
    return None if value is None else str(value)


async def insert_provisioning(tx: Tx, row: dict[str, Any]) -> None:
    await tx.execute(
        insert_sql(_PROVISIONINGS.name, _PROVISIONING_COLUMNS),
        *row_args(_PROVISIONING_COLUMNS, [row]),
    )


async def latest_decision(reader: Reader | Tx, reference: str) -> Row | None:
    """The newest decision taken for this token reference, or None."""
    return await reader.row(_LATEST_DECISION, reference)


async def activation_code_of(tx: Tx, provisioning_uuid: uuid.UUID) -> uuid.UUID | None:
    value = await tx.value(_ACTIVATION_CODE, provisioning_uuid)
    return None if value is None else uuid.UUID(str(value))


async def insert_token(tx: Tx, row: dict[str, Any]) -> None:
    await tx.execute(insert_sql(_TOKENS.name, _TOKEN_COLUMNS), *row_args(_TOKEN_COLUMNS, [row]))


async def token_by_reference(tx: Tx, reference: str) -> Row | None:
    """The token of this reference, locked, or None."""
    return await tx.row(_BY_REFERENCE, reference)


async def tokens_of_card(reader: Reader | Tx, card_uuid: uuid.UUID) -> Sequence[Row]:
    """The card's tokens (`token_columns`), oldest first."""
    return await reader.rows(_TOKENS_OF_CARD, card_uuid)


async def token_of_card(tx: Tx, token_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row | None:
    """One of the card's tokens (`token_columns`), locked, or None."""
    return await tx.row(_TOKEN_OF_CARD, token_uuid, card_uuid)


async def set_status(tx: Tx, token_uuid: uuid.UUID, status: str, now: datetime) -> None:
    await tx.execute(_SET_STATUS, token_uuid, status, now)


async def set_activation_failures(tx: Tx, token_uuid: uuid.UUID, failures: int) -> None:
    await tx.execute(_SET_ACTIVATION_FAILURES, token_uuid, failures)


async def move_tokens(tx: Tx, old: uuid.UUID, new: uuid.UUID, now: datetime) -> None:
    """The old card's tokens that are not deleted now pay with the new card."""
    await tx.execute(_MOVE, old, new, now)


async def delete_tokens_of_card(tx: Tx, card_uuid: uuid.UUID, now: datetime) -> None:
    await tx.execute(_DELETE_OF_CARD, card_uuid, now)
