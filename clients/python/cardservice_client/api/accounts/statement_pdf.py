from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import Response, loads_exact


def _get_kwargs(
    user_account_uuid: str | UUID,
    month: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/account/{user_account_uuid}/statements/{month}.pdf".format(
            user_account_uuid=quote(str(user_account_uuid), safe=""),
            month=quote(str(month), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> ErrorBody | None:
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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Any],
) -> Response[ErrorBody]:
    """An account's statement for a UTC month, as a printable PDF

     The same statement as the JSON one, as a printable PDF (holder, account, period, opening
    and closing balance, every line, page numbers), named by the month as the service
    parsed it (the path's text is never reflected into a header).

    Args:
        user_account_uuid (str | UUID): The account's uuid (`GET /accounts`)
        month (str): The statement's UTC month, `YYYY-MM` (e.g. `2026-03`); anything else → 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody]
    """

    kwargs = _get_kwargs(
        user_account_uuid=user_account_uuid,
        month=month,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> ErrorBody: ...


@overload
def sync(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> ErrorBody | None: ...


def sync(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Any],
) -> ErrorBody | None:
    """An account's statement for a UTC month, as a printable PDF

     The same statement as the JSON one, as a printable PDF (holder, account, period, opening
    and closing balance, every line, page numbers), named by the month as the service
    parsed it (the path's text is never reflected into a header).

    Args:
        user_account_uuid (str | UUID): The account's uuid (`GET /accounts`)
        month (str): The statement's UTC month, `YYYY-MM` (e.g. `2026-03`); anything else → 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody
    """

    response = sync_detailed(
        user_account_uuid=user_account_uuid,
        month=month,
        client=client,
    )
    return _answer(client, response)


def _answer(client: Client[Any], response: Response[ErrorBody]) -> ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Any],
) -> Response[ErrorBody]:
    """An account's statement for a UTC month, as a printable PDF

     The same statement as the JSON one, as a printable PDF (holder, account, period, opening
    and closing balance, every line, page numbers), named by the month as the service
    parsed it (the path's text is never reflected into a header).

    Args:
        user_account_uuid (str | UUID): The account's uuid (`GET /accounts`)
        month (str): The statement's UTC month, `YYYY-MM` (e.g. `2026-03`); anything else → 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody]
    """

    kwargs = _get_kwargs(
        user_account_uuid=user_account_uuid,
        month=month,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> ErrorBody: ...


@overload
async def asyncio(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> ErrorBody | None: ...


async def asyncio(
    user_account_uuid: str | UUID,
    month: str,
    *,
    client: AuthenticatedClient[Any],
) -> ErrorBody | None:
    """An account's statement for a UTC month, as a printable PDF

     The same statement as the JSON one, as a printable PDF (holder, account, period, opening
    and closing balance, every line, page numbers), named by the month as the service
    parsed it (the path's text is never reflected into a header).

    Args:
        user_account_uuid (str | UUID): The account's uuid (`GET /accounts`)
        month (str): The statement's UTC month, `YYYY-MM` (e.g. `2026-03`); anything else → 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody
    """

    response = await asyncio_detailed(
        user_account_uuid=user_account_uuid,
        month=month,
        client=client,
    )
    return _answer(client, response)
