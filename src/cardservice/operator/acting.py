"""Who the operator's writes are recorded as (docs/operations.md#running-a-program, "Audit"): every
write of the operator API and of the CLI's operator commands leaves an `audit_log` row in its own
unit (cardservice.audit.repository), so there is no write without its row."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cardservice.audit import Actor, record_audit
from cardservice.db.sql import Tx


class KeyHolder(Protocol):
    """A caller holding an operator key (`keys.Operator`, which records its own key's rows
    through `Acting`: hence a protocol, not an import)."""

    @property
    def key_uuid(self) -> uuid.UUID: ...


@dataclass(frozen=True, slots=True)
class Acting:
    """The actor of an operator write and the request that carried it."""

    actor: Actor
    request_id: str | None = None

    @property
    def operator_key(self) -> uuid.UUID | None:
        """The operator key acting, when one is (not the CLI)."""
        return (
            uuid.UUID(self.actor.id)
            if self.actor.type == "operator_key" and self.actor.id
            else None
        )

    async def record(
        self,
        tx: Tx,
        action: str,
        object_type: str,
        object_uuid: uuid.UUID | str | None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        """One audit row in `tx`; `details` never carry a secret (no token, code or PAN)."""
        if isinstance(object_uuid, str):
            object_uuid = uuid.UUID(object_uuid)
        await record_audit(
            tx, self.actor, action, object_type, object_uuid,
            request_id=self.request_id, details=details,
        )  # fmt: skip


CLI = Acting(Actor("system", "cli"))


def acting_key(operator: KeyHolder, request_id: str | None) -> Acting:
    """An operator key acting, in the request `request_id` (the edge's
    `operator.dependencies.acting` reads it from the request)."""
    return Acting(Actor("operator_key", str(operator.key_uuid)), request_id)
