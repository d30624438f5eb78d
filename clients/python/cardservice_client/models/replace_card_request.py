from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.replace_card_request_reason import ReplaceCardRequestReason

T = TypeVar("T", bound="ReplaceCardRequest")


@_attrs_define
class ReplaceCardRequest:
    """POST /card/{cardUuid}/replace (docs/operations.md#running-a-program).

    Example:
        {'reason': 'damaged'}

    Attributes:
        reason (ReplaceCardRequestReason): Why: `lost` or `stolen` (the old card then declines `41`/`43` on the
            network), `damaged`
            or `expiring`. Recorded as the old card's `closed_reason`.
    """

    reason: ReplaceCardRequestReason

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = ReplaceCardRequestReason(d.pop("reason"))

        replace_card_request = cls(
            reason=reason,
        )

        return replace_card_request
