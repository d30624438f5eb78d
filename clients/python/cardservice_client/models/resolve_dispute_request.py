from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.resolve_dispute_request_outcome import ResolveDisputeRequestOutcome

T = TypeVar("T", bound="ResolveDisputeRequest")


@_attrs_define
class ResolveDisputeRequest:
    """
    Example:
        {'outcome': 'won'}

    Attributes:
        outcome (ResolveDisputeRequestOutcome): `won`: the disputed amount is credited back to the card; `lost`: nothing
            moves.
    """

    outcome: ResolveDisputeRequestOutcome

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        outcome = ResolveDisputeRequestOutcome(d.pop("outcome"))

        resolve_dispute_request = cls(
            outcome=outcome,
        )

        return resolve_dispute_request
