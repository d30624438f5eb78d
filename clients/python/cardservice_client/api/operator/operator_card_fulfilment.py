from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_card_record import EnvelopeCardRecord
from ...models.error_body import ErrorBody
from ...models.fulfilment_request import FulfilmentRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    card_uuid: str | UUID,
    *,
    body: FulfilmentRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/cards/{card_uuid}/fulfilment".format(
            card_uuid=quote(str(card_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeCardRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeCardRecord.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeCardRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: FulfilmentRequest,
) -> Response[EnvelopeCardRecord | ErrorBody]:
    """The card producer's feed: a physical card's next fulfilment step

     Move a physical card to its next fulfilment step (scope `cards`): `ordered → printed →
    shipped → delivered`, or `returned` from `shipped`, with the carrier and tracking number
    when known. A step out of order → 409 `fulfilment_out_of_order`; a virtual card → 422
    `card_not_physical`. Each step is a `card.updated` event to the holder; audited.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /operator/cards`)
        body (FulfilmentRequest): A physical card's next fulfilment step
            (docs/cards.md#fulfilment). Example: {'status': 'printed'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeCardRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        card_uuid=card_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord: ...


@overload
def sync(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord | ErrorBody | None: ...


def sync(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord | ErrorBody | None:
    """The card producer's feed: a physical card's next fulfilment step

     Move a physical card to its next fulfilment step (scope `cards`): `ordered → printed →
    shipped → delivered`, or `returned` from `shipped`, with the carrier and tracking number
    when known. A step out of order → 409 `fulfilment_out_of_order`; a virtual card → 422
    `card_not_physical`. Each step is a `card.updated` event to the holder; audited.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /operator/cards`)
        body (FulfilmentRequest): A physical card's next fulfilment step
            (docs/cards.md#fulfilment). Example: {'status': 'printed'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeCardRecord | ErrorBody
    """

    response = sync_detailed(
        card_uuid=card_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeCardRecord | ErrorBody]
) -> EnvelopeCardRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: FulfilmentRequest,
) -> Response[EnvelopeCardRecord | ErrorBody]:
    """The card producer's feed: a physical card's next fulfilment step

     Move a physical card to its next fulfilment step (scope `cards`): `ordered → printed →
    shipped → delivered`, or `returned` from `shipped`, with the carrier and tracking number
    when known. A step out of order → 409 `fulfilment_out_of_order`; a virtual card → 422
    `card_not_physical`. Each step is a `card.updated` event to the holder; audited.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /operator/cards`)
        body (FulfilmentRequest): A physical card's next fulfilment step
            (docs/cards.md#fulfilment). Example: {'status': 'printed'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeCardRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        card_uuid=card_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord: ...


@overload
async def asyncio(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord | ErrorBody | None: ...


async def asyncio(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: FulfilmentRequest,
) -> EnvelopeCardRecord | ErrorBody | None:
    """The card producer's feed: a physical card's next fulfilment step

     Move a physical card to its next fulfilment step (scope `cards`): `ordered → printed →
    shipped → delivered`, or `returned` from `shipped`, with the carrier and tracking number
    when known. A step out of order → 409 `fulfilment_out_of_order`; a virtual card → 422
    `card_not_physical`. Each step is a `card.updated` event to the holder; audited.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /operator/cards`)
        body (FulfilmentRequest): A physical card's next fulfilment step
            (docs/cards.md#fulfilment). Example: {'status': 'printed'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeCardRecord | ErrorBody
    """

    response = await asyncio_detailed(
        card_uuid=card_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
