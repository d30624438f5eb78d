from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_body_errors_type_0 import ErrorBodyErrorsType0


T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """
    Example:
        {'success': True, 'message': 'example', 'code': '482913', 'errors': {}, 'request_id': 'example'}

    Attributes:
        message (str):
        code (str):
        success (bool | Unset):  Default: False.
        errors (ErrorBodyErrorsType0 | None | Unset):
        request_id (None | str | Unset):
    """

    message: str
    code: str
    success: bool | Unset = False
    errors: ErrorBodyErrorsType0 | None | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.error_body_errors_type_0 import ErrorBodyErrorsType0  # noqa: PLC0415

        message = self.message

        code = self.code

        success = self.success

        errors: dict[str, Any] | None | Unset
        if isinstance(self.errors, Unset):
            errors = UNSET
        elif isinstance(self.errors, ErrorBodyErrorsType0):
            errors = self.errors.to_dict()
        else:
            errors = self.errors

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "code": code,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success
        if errors is not UNSET:
            field_dict["errors"] = errors
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_body_errors_type_0 import ErrorBodyErrorsType0  # noqa: PLC0415

        d = dict(src_dict)
        message = d.pop("message")

        code = d.pop("code")

        success = d.pop("success", UNSET)

        def _parse_errors(data: object) -> ErrorBodyErrorsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                errors_type_0 = ErrorBodyErrorsType0.from_dict(data)

                return errors_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorBodyErrorsType0 | None | Unset, data)

        errors = _parse_errors(d.pop("errors", UNSET))

        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("request_id", UNSET))

        error_body = cls(
            message=message,
            code=code,
            success=success,
            errors=errors,
            request_id=request_id,
        )

        error_body.additional_properties = d
        return error_body

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
