from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PreArbitrationAnswers")


@_attrs_define
class PreArbitrationAnswers:
    """
    Example:
        {'accepted': 1, 'declined': 1}

    Attributes:
        accepted (int | Unset): Pre-arbitrations the acquirer accepted (1644 640). Default: 0.
        declined (int | Unset): Pre-arbitrations the acquirer declined (1644 641). Default: 0.
    """

    accepted: int | Unset = 0
    declined: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        accepted = self.accepted

        declined = self.declined

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if accepted is not UNSET:
            field_dict["accepted"] = accepted
        if declined is not UNSET:
            field_dict["declined"] = declined

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accepted = d.pop("accepted", UNSET)

        declined = d.pop("declined", UNSET)

        pre_arbitration_answers = cls(
            accepted=accepted,
            declined=declined,
        )

        pre_arbitration_answers.additional_properties = d
        return pre_arbitration_answers

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
