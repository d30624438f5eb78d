from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.attachment_upload_type import AttachmentUploadType

T = TypeVar("T", bound="AttachmentUpload")


@_attrs_define
class AttachmentUpload:
    """
    Example:
        {'type': 'receipt', 'file':
            'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='}

    Attributes:
        type (AttachmentUploadType): What the file is: `receipt`, `invoice`, `document` or `photo`.
        file (str): base64 (standard alphabet, padded), optionally as a data: URL
    """

    type: AttachmentUploadType
    file: str

    def to_dict(self) -> dict[str, Any]:
        type = self.type.value

        file = self.file

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type,
                "file": file,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type = AttachmentUploadType(d.pop("type"))

        file = d.pop("file")

        attachment_upload = cls(
            type=type,
            file=file,
        )

        return attachment_upload
