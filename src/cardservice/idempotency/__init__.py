"""Idempotency by `external_id` (docs/api.md#buying-cards): the first answer is remembered per user
and request, and a repeat gets it again instead of acting twice.

* A repeat with the same body gets the stored answer (`Idempotent-Replayed: true`).
* A repeat with another body gets 409 — checked before anything else, so even a repeat
  naming an account that is not the caller's answers 409, not 404.
* A refusal by a business rule (422) is remembered too: a repeat is refused again the same
  way, and can never act later because the account meanwhile changed.
* Concurrent repeats act once: the remembered answer's primary key is the guard; the loser
  of the race rolls back whole and answers what the winner stored.

The statements are in `idempotency/repository.py`.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.db.database import Database
from cardservice.db.sql import INTEGRITY_ERRORS, Reader, Tx
from cardservice.encoding import dumps
from cardservice.errors import IdempotencyConflict, RuleViolation
from cardservice.idempotency import repository
from cardservice.models.base import utcnow


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An answer to send: fresh, or replayed for a repeated external_id."""

    status_code: int
    body: bytes
    replayed: bool = False


def fingerprint(canonical: dict[str, Any]) -> str:
    """The hash of a request's meaning (its fields normalised by the caller)."""
    return hashlib.sha256(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS)).hexdigest()


async def remembered(
    reader: Reader | Tx, user_uuid: uuid.UUID, external_id: str, request_hash: str
) -> StoredResponse | None:
    """The answer stored for this external_id, or None; 409 when the request differs."""
    stored = await repository.stored_answer(reader, user_uuid, external_id)
    if stored is None:
        return None
    if stored["request_hash"] != request_hash:
        raise IdempotencyConflict()
    return StoredResponse(stored["status_code"], stored["response_body"].encode(), replayed=True)


async def act_once(
    db: Database,
    user_uuid: uuid.UUID,
    external_id: str | None,
    request_hash: str,
    act: Callable[[Tx], Awaitable[StoredResponse]],
) -> StoredResponse:
    """Run `act` in one write unit, at most once per (user, external_id)."""
    if external_id is None:
        return await db.transact(act)

    async def unit(tx: Tx) -> StoredResponse:
        stored = await remembered(tx, user_uuid, external_id, request_hash)
        if stored is not None:
            return stored
        await repository.savepoint(tx)
        try:
            answer = await act(tx)
        except RuleViolation as refusal:  # remembered; whatever `act` wrote is undone
            await repository.back_to_savepoint(tx)
            answer = StoredResponse(refusal.status_code, dumps(refusal.body()))
        remembered_answer = (answer.status_code, answer.body.decode())
        await repository.store_answer(
            tx, user_uuid, external_id, request_hash, remembered_answer, utcnow()
        )
        return answer

    try:
        return await db.transact(unit)
    except INTEGRITY_ERRORS:
        # A concurrent request with the same external_id committed first: answer as it did.
        replayed = await remembered(db.reader, user_uuid, external_id, request_hash)
        if replayed is None:
            raise
        return replayed
