from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.team_request_record_kind import TeamRequestRecordKind
from ..models.team_request_record_status import TeamRequestRecordStatus

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef
    from ..models.team_request_record_details import TeamRequestRecordDetails
    from ..models.team_request_record_result_type_0 import TeamRequestRecordResultType0


T = TypeVar("T", bound="TeamRequestRecord")


@_attrs_define
class TeamRequestRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'kind': 'card', 'status': 'pending', 'requested_by': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}, 'details': {}, 'decided_by': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}, 'decision_reason': 'example', 'result': {},
            'created_at': '2026-03-19T10:15:00Z', 'updated_at': '2026-03-19T10:15:00Z', 'decided_at':
            '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        kind (TeamRequestRecordKind):
        status (TeamRequestRecordStatus):
        requested_by (MemberRef):  Example: {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'name': 'Ada Lovelace'}.
        details (TeamRequestRecordDetails): what was asked, as it was asked
        decided_by (MemberRef | None):
        decision_reason (None | str):
        result (None | TeamRequestRecordResultType0): what an approval made: `card_uuids` and `charge` of a card, the
            budget's new `amount` of an increase
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        decided_at (datetime.datetime | None):
    """

    uuid: UUID
    kind: TeamRequestRecordKind
    status: TeamRequestRecordStatus
    requested_by: MemberRef
    details: TeamRequestRecordDetails
    decided_by: MemberRef | None
    decision_reason: None | str
    result: None | TeamRequestRecordResultType0
    created_at: datetime.datetime
    updated_at: datetime.datetime
    decided_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.member_ref import MemberRef  # noqa: PLC0415
        from ..models.team_request_record_result_type_0 import TeamRequestRecordResultType0  # noqa: PLC0415

        uuid = str(self.uuid)

        kind = self.kind.value

        status = self.status.value

        requested_by = self.requested_by.to_dict()

        details = self.details.to_dict()

        decided_by: dict[str, Any] | None
        if isinstance(self.decided_by, MemberRef):
            decided_by = self.decided_by.to_dict()
        else:
            decided_by = self.decided_by

        decision_reason: None | str
        decision_reason = self.decision_reason

        result: dict[str, Any] | None
        if isinstance(self.result, TeamRequestRecordResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "kind": kind,
                "status": status,
                "requested_by": requested_by,
                "details": details,
                "decided_by": decided_by,
                "decision_reason": decision_reason,
                "result": result,
                "created_at": created_at,
                "updated_at": updated_at,
                "decided_at": decided_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.member_ref import MemberRef  # noqa: PLC0415
        from ..models.team_request_record_details import TeamRequestRecordDetails  # noqa: PLC0415
        from ..models.team_request_record_result_type_0 import TeamRequestRecordResultType0  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        kind = TeamRequestRecordKind(d.pop("kind"))

        status = TeamRequestRecordStatus(d.pop("status"))

        requested_by = MemberRef.from_dict(d.pop("requested_by"))

        details = TeamRequestRecordDetails.from_dict(d.pop("details"))

        def _parse_decided_by(data: object) -> MemberRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decided_by_type_0 = MemberRef.from_dict(data)

                return decided_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemberRef | None, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))

        def _parse_decision_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decision_reason = _parse_decision_reason(d.pop("decision_reason"))

        def _parse_result(data: object) -> None | TeamRequestRecordResultType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = TeamRequestRecordResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamRequestRecordResultType0, data)

        result = _parse_result(d.pop("result"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        team_request_record = cls(
            uuid=uuid,
            kind=kind,
            status=status,
            requested_by=requested_by,
            details=details,
            decided_by=decided_by,
            decision_reason=decision_reason,
            result=result,
            created_at=created_at,
            updated_at=updated_at,
            decided_at=decided_at,
        )

        team_request_record.additional_properties = d
        return team_request_record

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
