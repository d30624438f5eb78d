from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="LinkReceiptRequest")


@_attrs_define
class LinkReceiptRequest:
    """
    Example:
        {'attachment_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}

    Attributes:
        attachment_uuid (str | UUID): One of the caller's attachments of type `receipt`, `invoice` or `photo`.
    """

    attachment_uuid: str | UUID

    def to_dict(self) -> dict[str, Any]:
        attachment_uuid: str
        if isinstance(self.attachment_uuid, UUID):
            attachment_uuid = str(self.attachment_uuid)
        else:
            attachment_uuid = self.attachment_uuid

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attachment_uuid": attachment_uuid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_attachment_uuid(data: object) -> str | UUID:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                attachment_uuid_type_0 = UUID(data)

                return attachment_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | UUID, data)

        attachment_uuid = _parse_attachment_uuid(d.pop("attachment_uuid"))

        link_receipt_request = cls(
            attachment_uuid=attachment_uuid,
        )

        return link_receipt_request
