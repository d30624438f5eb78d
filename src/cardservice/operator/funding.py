"""The operator's funding: accounts, credits (`deposit`) and debits (`withdrawal`).

Credits and debits are idempotent by `external_id` (one namespace for the operator): a
repeat with the same request gets the same transaction (200, `replayed`), another request
→ 409 `idempotency_conflict`. Concurrent repeats make one transaction: each unit moves the
money and then records the external_id, whose primary key lets one unit commit; the others
roll back whole and answer what it stored. A refusal (422) is not remembered: the request
may be sent again once the account can take it.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from cardservice.accounts import any_account, create_account, set_account_status
from cardservice.db.database import Database
from cardservice.db.sql import INTEGRITY_ERRORS, Reader, Tx, as_uuid
from cardservice.errors import AccountNotFound, IdempotencyConflict
from cardservice.idempotency import fingerprint
from cardservice.ledger.minor_units import from_minor, to_minor
from cardservice.operator import repository
from cardservice.operator.acting import Acting
from cardservice.operator.schemas import CreateAccountRequest, MoneyRequest
from cardservice.operator.service import UserNotFound
from cardservice.transactions import deposit, transaction_record, transaction_record_of, withdraw

Direction = Literal["credit", "debit"]


async def open_account(tx: Tx, acting: Acting, body: CreateAccountRequest) -> dict[str, Any]:
    """A new active account of the user, zero balance; its record."""
    user_uuid = uuid.UUID(body.user_uuid)
    if await repository.user_row(tx, user_uuid) is None:
        raise UserNotFound()
    account_uuid = await create_account(tx, user_uuid, body.name, body.currency, body.type)
    await acting.record(tx, "account.created", "account", account_uuid)
    return await account_of(tx, account_uuid)


async def account_of(reader: Reader | Tx, account_uuid: uuid.UUID) -> dict[str, Any]:
    return await any_account(reader, account_uuid)


async def change_account_status(
    tx: Tx, acting: Acting, account_uuid: uuid.UUID, status: str
) -> dict[str, Any]:
    await set_account_status(tx, account_uuid, status)
    await acting.record(tx, "account.updated", "account", account_uuid, {"status": status})
    return await account_of(tx, account_uuid)


def _request_hash(direction: Direction, account_uuid: uuid.UUID, body: MoneyRequest) -> str:
    return fingerprint(
        {
            "direction": direction,
            "account_uuid": str(account_uuid),
            "amount": to_minor(body.amount),
            "description": body.description,
        }
    )


async def _replay(
    reader: Reader | Tx, external_id: str, request_hash: str
) -> dict[str, Any] | None:
    """The transaction a former request with this external_id made; 409 if it differed."""
    stored = await repository.remembered_request(reader, external_id)
    if stored is None:
        return None
    if stored["request_hash"] != request_hash:
        raise IdempotencyConflict()
    row = await repository.transaction_row(reader, as_uuid(stored["transaction_uuid"]))  # type: ignore[arg-type]
    assert row is not None, "a transaction is never deleted"
    return transaction_record(row)


async def _move(
    tx: Tx, direction: Direction, account_uuid: uuid.UUID, body: MoneyRequest
) -> dict[str, Any]:
    amount = to_minor(body.amount)
    if direction == "debit":
        return await withdraw(tx, account_uuid, amount, body.description or "Withdrawal")
    owner = await repository.account_owner(tx, account_uuid)
    if owner is None:
        raise AccountNotFound()
    return await deposit(tx, owner, account_uuid, amount, body.description or "Deposit")


async def move_money_in(
    tx: Tx, acting: Acting, direction: Direction, account_uuid: uuid.UUID, body: MoneyRequest
) -> tuple[dict[str, Any], bool]:
    """The unit of a credit or debit (`move_money`), for callers already in one (the demo)."""
    request_hash = _request_hash(direction, account_uuid, body)
    replayed = await _replay(tx, body.external_id, request_hash)
    if replayed is not None:
        return replayed, True
    row = await _move(tx, direction, account_uuid, body)
    await repository.remember_request(tx, body.external_id, request_hash, row["uuid"])
    details = {"transaction_uuid": str(row["uuid"]), "amount": from_minor(row["amount"]),
               "currency": row["currency"], "external_id": body.external_id}  # fmt: skip
    await acting.record(tx, f"account.{direction}ed", "account", account_uuid, details)
    return transaction_record_of(row), False


async def move_money(
    db: Database, acting: Acting, direction: Direction, account_uuid: uuid.UUID, body: MoneyRequest
) -> tuple[dict[str, Any], bool]:
    """Credit or debit the account once per external_id: the transaction, and whether it is
    a replay of an earlier request's."""
    try:
        return await db.transact(
            lambda tx: move_money_in(tx, acting, direction, account_uuid, body)
        )
    except INTEGRITY_ERRORS:
        # a concurrent request with the same external_id committed first: answer as it did
        replayed = await _replay(
            db.reader, body.external_id, _request_hash(direction, account_uuid, body)
        )
        if replayed is None:
            raise
        return replayed, True
