from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_account_request import ChangeAccountRequest
from ...models.envelope_account_record import EnvelopeAccountRecord
from ...models.error_body import ErrorBody
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    account_uuid: str | UUID,
    *,
    body: ChangeAccountRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/operator/accounts/{account_uuid}".format(
            account_uuid=quote(str(account_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeAccountRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeAccountRecord.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeAccountRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ChangeAccountRequest,
) -> Response[EnvelopeAccountRecord | ErrorBody]:
    """Freeze, close or re-activate an account

     Freeze, close or re-activate an account (scope `funding`). A frozen or closed account's
    cards decline `account_inactive`.

    Args:
        account_uuid (str | UUID): The account's uuid (`POST /operator/accounts`'s)
        body (ChangeAccountRequest):  Example: {'status': 'frozen'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAccountRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        account_uuid=account_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord: ...


@overload
def sync(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord | ErrorBody | None: ...


def sync(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord | ErrorBody | None:
    """Freeze, close or re-activate an account

     Freeze, close or re-activate an account (scope `funding`). A frozen or closed account's
    cards decline `account_inactive`.

    Args:
        account_uuid (str | UUID): The account's uuid (`POST /operator/accounts`'s)
        body (ChangeAccountRequest):  Example: {'status': 'frozen'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAccountRecord | ErrorBody
    """

    response = sync_detailed(
        account_uuid=account_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeAccountRecord | ErrorBody]
) -> EnvelopeAccountRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ChangeAccountRequest,
) -> Response[EnvelopeAccountRecord | ErrorBody]:
    """Freeze, close or re-activate an account

     Freeze, close or re-activate an account (scope `funding`). A frozen or closed account's
    cards decline `account_inactive`.

    Args:
        account_uuid (str | UUID): The account's uuid (`POST /operator/accounts`'s)
        body (ChangeAccountRequest):  Example: {'status': 'frozen'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeAccountRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        account_uuid=account_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord: ...


@overload
async def asyncio(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord | ErrorBody | None: ...


async def asyncio(
    account_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ChangeAccountRequest,
) -> EnvelopeAccountRecord | ErrorBody | None:
    """Freeze, close or re-activate an account

     Freeze, close or re-activate an account (scope `funding`). A frozen or closed account's
    cards decline `account_inactive`.

    Args:
        account_uuid (str | UUID): The account's uuid (`POST /operator/accounts`'s)
        body (ChangeAccountRequest):  Example: {'status': 'frozen'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeAccountRecord | ErrorBody
    """

    response = await asyncio_detailed(
        account_uuid=account_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
