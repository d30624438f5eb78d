from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.operator_disputes_filters import OperatorDisputesFilters
from ...models.paged_envelope_list_dispute_record import PagedEnvelopeListDisputeRecord
from ...types import UNSET, Response, Unset, loads_exact


def _get_kwargs(
    *,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["per_page"] = per_page

    json_filters: dict[str, Any] | Unset = UNSET
    if not isinstance(filters, Unset):
        json_filters = filters.to_dict()
    if not isinstance(json_filters, Unset):
        params.update({f"filters[{key}]": value for key, value in json_filters.items()})

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/operator/disputes",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: Client[Any], response: httpx.Response
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None:
    if response.status_code == 200:
        response_200 = PagedEnvelopeListDisputeRecord.from_dict(loads_exact(response.content))

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


def _build_response(
    *, client: Client[Any], response: httpx.Response
) -> Response[ErrorBody | PagedEnvelopeListDisputeRecord]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> Response[ErrorBody | PagedEnvelopeListDisputeRecord]:
    """Every user's disputes, newest first

     Every user's disputes, newest first, paged, `filters[status]` (scope `network` or
    `reports`).

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..100 (default 20) Default: 20.
        filters (OperatorDisputesFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PagedEnvelopeListDisputeRecord]
    """

    kwargs = _get_kwargs(
        page=page,
        per_page=per_page,
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
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> PagedEnvelopeListDisputeRecord: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None:
    """Every user's disputes, newest first

     Every user's disputes, newest first, paged, `filters[status]` (scope `network` or
    `reports`).

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..100 (default 20) Default: 20.
        filters (OperatorDisputesFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PagedEnvelopeListDisputeRecord
    """

    response = sync_detailed(
        client=client,
        page=page,
        per_page=per_page,
        filters=filters,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[ErrorBody | PagedEnvelopeListDisputeRecord]
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None:
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
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> Response[ErrorBody | PagedEnvelopeListDisputeRecord]:
    """Every user's disputes, newest first

     Every user's disputes, newest first, paged, `filters[status]` (scope `network` or
    `reports`).

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..100 (default 20) Default: 20.
        filters (OperatorDisputesFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PagedEnvelopeListDisputeRecord]
    """

    kwargs = _get_kwargs(
        page=page,
        per_page=per_page,
        filters=filters,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> PagedEnvelopeListDisputeRecord: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    filters: OperatorDisputesFilters | Unset = UNSET,
) -> ErrorBody | PagedEnvelopeListDisputeRecord | None:
    """Every user's disputes, newest first

     Every user's disputes, newest first, paged, `filters[status]` (scope `network` or
    `reports`).

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..100 (default 20) Default: 20.
        filters (OperatorDisputesFilters | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PagedEnvelopeListDisputeRecord
    """

    response = await asyncio_detailed(
        client=client,
        page=page,
        per_page=per_page,
        filters=filters,
    )
    return _answer(client, response)
