from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.activate_card_request import ActivateCardRequest
from ...models.envelope_card_record import EnvelopeCardRecord
from ...models.error_body import ErrorBody
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    card_uuid: str | UUID,
    *,
    body: ActivateCardRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/card/{card_uuid}/activate".format(
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
    body: ActivateCardRequest,
) -> Response[EnvelopeCardRecord | ErrorBody]:
    """Activate a physical card that has been shipped, with its last four digits

     Make one of the caller's physical cards `active` once it is `shipped` or `delivered`
    (docs/cards.md#activation). Before it is shipped, or once returned → 409
    `card_not_shipped`; wrong `last4` → 422 `invalid_card_details` (counted: the 5th within
    24 h freezes the card `suspected_fraud`, then 409 `card_frozen` until its holder sets it
    active); an active card → 409 `card_already_active`; a virtual card → 422
    `card_not_physical`.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /card`, or `data.cards[].uuid` of `POST
            /card/buy`)
        body (ActivateCardRequest): `POST /card/{cardUuid}/activate` (docs/cards.md#activation).
            Example: {'last4': '4242'}.

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
    body: ActivateCardRequest,
) -> EnvelopeCardRecord: ...


@overload
def sync(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ActivateCardRequest,
) -> EnvelopeCardRecord | ErrorBody | None: ...


def sync(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ActivateCardRequest,
) -> EnvelopeCardRecord | ErrorBody | None:
    """Activate a physical card that has been shipped, with its last four digits

     Make one of the caller's physical cards `active` once it is `shipped` or `delivered`
    (docs/cards.md#activation). Before it is shipped, or once returned → 409
    `card_not_shipped`; wrong `last4` → 422 `invalid_card_details` (counted: the 5th within
    24 h freezes the card `suspected_fraud`, then 409 `card_frozen` until its holder sets it
    active); an active card → 409 `card_already_active`; a virtual card → 422
    `card_not_physical`.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /card`, or `data.cards[].uuid` of `POST
            /card/buy`)
        body (ActivateCardRequest): `POST /card/{cardUuid}/activate` (docs/cards.md#activation).
            Example: {'last4': '4242'}.

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
    body: ActivateCardRequest,
) -> Response[EnvelopeCardRecord | ErrorBody]:
    """Activate a physical card that has been shipped, with its last four digits

     Make one of the caller's physical cards `active` once it is `shipped` or `delivered`
    (docs/cards.md#activation). Before it is shipped, or once returned → 409
    `card_not_shipped`; wrong `last4` → 422 `invalid_card_details` (counted: the 5th within
    24 h freezes the card `suspected_fraud`, then 409 `card_frozen` until its holder sets it
    active); an active card → 409 `card_already_active`; a virtual card → 422
    `card_not_physical`.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /card`, or `data.cards[].uuid` of `POST
            /card/buy`)
        body (ActivateCardRequest): `POST /card/{cardUuid}/activate` (docs/cards.md#activation).
            Example: {'last4': '4242'}.

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
    body: ActivateCardRequest,
) -> EnvelopeCardRecord: ...


@overload
async def asyncio(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ActivateCardRequest,
) -> EnvelopeCardRecord | ErrorBody | None: ...


async def asyncio(
    card_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ActivateCardRequest,
) -> EnvelopeCardRecord | ErrorBody | None:
    """Activate a physical card that has been shipped, with its last four digits

     Make one of the caller's physical cards `active` once it is `shipped` or `delivered`
    (docs/cards.md#activation). Before it is shipped, or once returned → 409
    `card_not_shipped`; wrong `last4` → 422 `invalid_card_details` (counted: the 5th within
    24 h freezes the card `suspected_fraud`, then 409 `card_frozen` until its holder sets it
    active); an active card → 409 `card_already_active`; a virtual card → 422
    `card_not_physical`.

    Args:
        card_uuid (str | UUID): The card's uuid (`GET /card`, or `data.cards[].uuid` of `POST
            /card/buy`)
        body (ActivateCardRequest): `POST /card/{cardUuid}/activate` (docs/cards.md#activation).
            Example: {'last4': '4242'}.

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
