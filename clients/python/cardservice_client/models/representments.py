from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pre_arbitration_answers import PreArbitrationAnswers
    from ..models.representment_exception import RepresentmentException


T = TypeVar("T", bound="Representments")


@_attrs_define
class Representments:
    """
    Example:
        {'received': 1, 'exceptions': [{'message_number': 1, 'reason': 'example', 'transaction_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}], 'pre_arbitration': {'accepted': 1, 'declined': 1}}

    Attributes:
        received (int): Second presentments that answered a chargeback.
        exceptions (list[RepresentmentException]): Second presentments refused, nothing moved (more than the
            chargeback).
        pre_arbitration (PreArbitrationAnswers | Unset):  Example: {'accepted': 1, 'declined': 1}.
    """

    received: int
    exceptions: list[RepresentmentException]
    pre_arbitration: PreArbitrationAnswers | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        received = self.received

        exceptions = []
        for exceptions_item_data in self.exceptions:
            exceptions_item = exceptions_item_data.to_dict()
            exceptions.append(exceptions_item)

        pre_arbitration: dict[str, Any] | Unset = UNSET
        if not isinstance(self.pre_arbitration, Unset):
            pre_arbitration = self.pre_arbitration.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "received": received,
                "exceptions": exceptions,
            }
        )
        if pre_arbitration is not UNSET:
            field_dict["pre_arbitration"] = pre_arbitration

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pre_arbitration_answers import PreArbitrationAnswers  # noqa: PLC0415
        from ..models.representment_exception import RepresentmentException  # noqa: PLC0415

        d = dict(src_dict)
        received = d.pop("received")

        exceptions = []
        _exceptions = d.pop("exceptions")
        for exceptions_item_data in _exceptions:
            exceptions_item = RepresentmentException.from_dict(exceptions_item_data)

            exceptions.append(exceptions_item)

        _pre_arbitration = d.pop("pre_arbitration", UNSET)
        pre_arbitration: PreArbitrationAnswers | Unset
        if isinstance(_pre_arbitration, Unset):
            pre_arbitration = UNSET
        else:
            pre_arbitration = PreArbitrationAnswers.from_dict(_pre_arbitration)

        representments = cls(
            received=received,
            exceptions=exceptions,
            pre_arbitration=pre_arbitration,
        )

        representments.additional_properties = d
        return representments

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
