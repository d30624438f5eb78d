from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_list_payment_currency_record import EnvelopeListPaymentCurrencyRecord
from ...models.error_body import ErrorBody
from ...types import Response, loads_exact


def _get_kwargs(
    slug: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/payment/currencies/{slug}".format(
            slug=quote(str(slug), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: Client[Any], response: httpx.Response
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeListPaymentCurrencyRecord.from_dict(loads_exact(response.content))

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
) -> Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    *,
    client: AuthenticatedClient[Any],
) -> Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]:
    """Currencies of a payment method

     The currencies a top-up payment method (`bank-transfer`, `crypto`, `card`, …) accepts,
    each with its network, decimals, minimum and maximum amount and percent fee. Unknown method
    → 404.

    Args:
        slug (str): A top-up payment method: `bank-transfer`, `crypto`, `card`, …

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        slug=slug,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    slug: str,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopeListPaymentCurrencyRecord: ...


@overload
def sync(
    slug: str,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None: ...


def sync(
    slug: str,
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None:
    """Currencies of a payment method

     The currencies a top-up payment method (`bank-transfer`, `crypto`, `card`, …) accepts,
    each with its network, decimals, minimum and maximum amount and percent fee. Unknown method
    → 404.

    Args:
        slug (str): A top-up payment method: `bank-transfer`, `crypto`, `card`, …

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListPaymentCurrencyRecord | ErrorBody
    """

    response = sync_detailed(
        slug=slug,
        client=client,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient[Any],
) -> Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]:
    """Currencies of a payment method

     The currencies a top-up payment method (`bank-transfer`, `crypto`, `card`, …) accepts,
    each with its network, decimals, minimum and maximum amount and percent fee. Unknown method
    → 404.

    Args:
        slug (str): A top-up payment method: `bank-transfer`, `crypto`, `card`, …

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListPaymentCurrencyRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        slug=slug,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopeListPaymentCurrencyRecord: ...


@overload
async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None: ...


async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopeListPaymentCurrencyRecord | ErrorBody | None:
    """Currencies of a payment method

     The currencies a top-up payment method (`bank-transfer`, `crypto`, `card`, …) accepts,
    each with its network, decimals, minimum and maximum amount and percent fee. Unknown method
    → 404.

    Args:
        slug (str): A top-up payment method: `bank-transfer`, `crypto`, `card`, …

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListPaymentCurrencyRecord | ErrorBody
    """

    response = await asyncio_detailed(
        slug=slug,
        client=client,
    )
    return _answer(client, response)
