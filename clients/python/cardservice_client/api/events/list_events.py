from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.events_envelope import EventsEnvelope
from ...models.list_events_filters import ListEventsFilters
from ...types import UNSET, Response, Unset, loads_exact


def _get_kwargs(
    *,
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    json_filters: dict[str, Any] | Unset = UNSET
    if not isinstance(filters, Unset):
        json_filters = filters.to_dict()
    if not isinstance(json_filters, Unset):
        params.update({f"filters[{key}]": value for key, value in json_filters.items()})

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> ErrorBody | EventsEnvelope | None:
    if response.status_code == 200:
        response_200 = EventsEnvelope.from_dict(loads_exact(response.content))

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(loads_exact(response.content))

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(loads_exact(response.content))

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(loads_exact(response.content))

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(loads_exact(response.content))

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(loads_exact(response.content))

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(loads_exact(response.content))

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(loads_exact(response.content))

        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(loads_exact(response.content))

        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(loads_exact(response.content))

        return response_429

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(loads_exact(response.content))

        return response_500

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(loads_exact(response.content))

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[ErrorBody | EventsEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> Response[ErrorBody | EventsEnvelope]:
    """The caller's events, oldest first, after a sequence

     The caller's events, oldest first, after the sequence `after` (use `meta.next_after` for
    the next call; `meta.has_more` says whether to call again). A team owner also sees the
    members' events.

    Args:
        after (int | Unset): Events with a greater `sequence` than this (the last one seen, or
            `meta.next_after`); 0, the default, starts from the first Default: 0.
        limit (int | Unset): At most this many events, 1..100 (default 20) Default: 20.
        filters (ListEventsFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventsEnvelope]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        filters=filters,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> EventsEnvelope: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> ErrorBody | EventsEnvelope | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> ErrorBody | EventsEnvelope | None:
    """The caller's events, oldest first, after a sequence

     The caller's events, oldest first, after the sequence `after` (use `meta.next_after` for
    the next call; `meta.has_more` says whether to call again). A team owner also sees the
    members' events.

    Args:
        after (int | Unset): Events with a greater `sequence` than this (the last one seen, or
            `meta.next_after`); 0, the default, starts from the first Default: 0.
        limit (int | Unset): At most this many events, 1..100 (default 20) Default: 20.
        filters (ListEventsFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventsEnvelope
    """

    response = sync_detailed(
        client=client,
        after=after,
        limit=limit,
        filters=filters,
    )
    return _answer(client, response)


def _answer(client: Client[Any], response: Response[ErrorBody | EventsEnvelope]) -> ErrorBody | EventsEnvelope | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient[Any],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> Response[ErrorBody | EventsEnvelope]:
    """The caller's events, oldest first, after a sequence

     The caller's events, oldest first, after the sequence `after` (use `meta.next_after` for
    the next call; `meta.has_more` says whether to call again). A team owner also sees the
    members' events.

    Args:
        after (int | Unset): Events with a greater `sequence` than this (the last one seen, or
            `meta.next_after`); 0, the default, starts from the first Default: 0.
        limit (int | Unset): At most this many events, 1..100 (default 20) Default: 20.
        filters (ListEventsFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventsEnvelope]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        filters=filters,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> EventsEnvelope: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> ErrorBody | EventsEnvelope | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    after: int | Unset = 0,
    limit: int | Unset = 20,
    filters: ListEventsFilters | Unset = UNSET,
) -> ErrorBody | EventsEnvelope | None:
    """The caller's events, oldest first, after a sequence

     The caller's events, oldest first, after the sequence `after` (use `meta.next_after` for
    the next call; `meta.has_more` says whether to call again). A team owner also sees the
    members' events.

    Args:
        after (int | Unset): Events with a greater `sequence` than this (the last one seen, or
            `meta.next_after`); 0, the default, starts from the first Default: 0.
        limit (int | Unset): At most this many events, 1..100 (default 20) Default: 20.
        filters (ListEventsFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventsEnvelope
    """

    response = await asyncio_detailed(
        client=client,
        after=after,
        limit=limit,
        filters=filters,
    )
    return _answer(client, response)
