from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.program_endpoint_update_event_types_type_0_item_type_0 import (
    ProgramEndpointUpdateEventTypesType0ItemType0,
)
from ..models.program_endpoint_update_event_types_type_0_item_type_1 import (
    ProgramEndpointUpdateEventTypesType0ItemType1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProgramEndpointUpdate")


@_attrs_define
class ProgramEndpointUpdate:
    """A program-wide endpoint's change: a cardholder's endpoint's fields; its `event_types`
    may also name the operator's own events.

        Example:
            {'enabled': True, 'event_types': None}

        Attributes:
            url (None | str | Unset): http(s) URL; host a name (IDN in punycode), an IPv4 address or an [IPv6] address;
                loopback, private and reserved addresses refused (also carried inside IPv6 forms)
            description (None | str | Unset): Your label, up to 255 characters; `null` clears it.
            event_types (list[ProgramEndpointUpdateEventTypesType0ItemType0 | ProgramEndpointUpdateEventTypesType0ItemType1]
                | None | Unset): The event types to send (at least one); `null`: every type, the operator's own too.
            enabled (bool | None | Unset): `false` stops deliveries (events still queue); `true` resumes them.
    """

    url: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    event_types: (
        list[ProgramEndpointUpdateEventTypesType0ItemType0 | ProgramEndpointUpdateEventTypesType0ItemType1]
        | None
        | Unset
    ) = UNSET
    enabled: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        event_types: list[str] | None | Unset
        if isinstance(self.event_types, Unset):
            event_types = UNSET
        elif isinstance(self.event_types, list):
            event_types = []
            for event_types_type_0_item_data in self.event_types:
                event_types_type_0_item: str
                if isinstance(event_types_type_0_item_data, ProgramEndpointUpdateEventTypesType0ItemType0):
                    event_types_type_0_item = event_types_type_0_item_data.value
                else:
                    event_types_type_0_item = event_types_type_0_item_data.value

                event_types.append(event_types_type_0_item)

        else:
            event_types = self.event_types

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if description is not UNSET:
            field_dict["description"] = description
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_event_types(
            data: object,
        ) -> (
            list[ProgramEndpointUpdateEventTypesType0ItemType0 | ProgramEndpointUpdateEventTypesType0ItemType1]
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = []
                _event_types_type_0 = data
                for event_types_type_0_item_data in _event_types_type_0:

                    def _parse_event_types_type_0_item(
                        data: object,
                    ) -> ProgramEndpointUpdateEventTypesType0ItemType0 | ProgramEndpointUpdateEventTypesType0ItemType1:
                        try:
                            if not isinstance(data, str):
                                raise TypeError()
                            event_types_type_0_item_type_0 = ProgramEndpointUpdateEventTypesType0ItemType0(data)

                            return event_types_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, str):
                            raise TypeError()
                        event_types_type_0_item_type_1 = ProgramEndpointUpdateEventTypesType0ItemType1(data)

                        return event_types_type_0_item_type_1

                    event_types_type_0_item = _parse_event_types_type_0_item(event_types_type_0_item_data)

                    event_types_type_0.append(event_types_type_0_item)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[ProgramEndpointUpdateEventTypesType0ItemType0 | ProgramEndpointUpdateEventTypesType0ItemType1]
                | None
                | Unset,
                data,
            )

        event_types = _parse_event_types(d.pop("event_types", UNSET))

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        program_endpoint_update = cls(
            url=url,
            description=description,
            event_types=event_types,
            enabled=enabled,
        )

        return program_endpoint_update
