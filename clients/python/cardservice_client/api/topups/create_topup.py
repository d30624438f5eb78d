from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_topup_record import EnvelopeTopupRecord
from ...models.error_body import ErrorBody
from ...models.topup_request import TopupRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    *,
    body: TopupRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/topups",
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeTopupRecord | ErrorBody | None:
    if response.status_code == 201:
        response_201 = EnvelopeTopupRecord.from_dict(loads_exact(response.content))

        return response_201

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeTopupRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: TopupRequest,
) -> Response[EnvelopeTopupRecord | ErrorBody]:
    """Ask to fund an account by a payment method

     Ask to fund an account by a payment method: answers 201 with a `reference` to quote with
    the payment, the fee, the amount that will be credited and when the request expires (72 h).
    The method and currency come from `GET /payment/currencies/{slug}`, within its minimum and
    maximum; a currency other than the account's is converted at the rate table.

    Args:
        body (TopupRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'method': 'bank-transfer', 'currency': 'USD', 'amount': 500}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeTopupRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
    body: TopupRequest,
) -> EnvelopeTopupRecord: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: TopupRequest,
) -> EnvelopeTopupRecord | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: TopupRequest,
) -> EnvelopeTopupRecord | ErrorBody | None:
    """Ask to fund an account by a payment method

     Ask to fund an account by a payment method: answers 201 with a `reference` to quote with
    the payment, the fee, the amount that will be credited and when the request expires (72 h).
    The method and currency come from `GET /payment/currencies/{slug}`, within its minimum and
    maximum; a currency other than the account's is converted at the rate table.

    Args:
        body (TopupRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'method': 'bank-transfer', 'currency': 'USD', 'amount': 500}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeTopupRecord | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeTopupRecord | ErrorBody]
) -> EnvelopeTopupRecord | ErrorBody | None:
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
    body: TopupRequest,
) -> Response[EnvelopeTopupRecord | ErrorBody]:
    """Ask to fund an account by a payment method

     Ask to fund an account by a payment method: answers 201 with a `reference` to quote with
    the payment, the fee, the amount that will be credited and when the request expires (72 h).
    The method and currency come from `GET /payment/currencies/{slug}`, within its minimum and
    maximum; a currency other than the account's is converted at the rate table.

    Args:
        body (TopupRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'method': 'bank-transfer', 'currency': 'USD', 'amount': 500}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeTopupRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    body: TopupRequest,
) -> EnvelopeTopupRecord: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: TopupRequest,
) -> EnvelopeTopupRecord | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: TopupRequest,
) -> EnvelopeTopupRecord | ErrorBody | None:
    """Ask to fund an account by a payment method

     Ask to fund an account by a payment method: answers 201 with a `reference` to quote with
    the payment, the fee, the amount that will be credited and when the request expires (72 h).
    The method and currency come from `GET /payment/currencies/{slug}`, within its minimum and
    maximum; a currency other than the account's is converted at the rate table.

    Args:
        body (TopupRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'method': 'bank-transfer', 'currency': 'USD', 'amount': 500}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeTopupRecord | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
