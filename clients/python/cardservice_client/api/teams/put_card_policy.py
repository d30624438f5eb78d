from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.card_policy_request import CardPolicyRequest
from ...models.envelope_card_policy_record import EnvelopeCardPolicyRecord
from ...models.error_body import ErrorBody
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    *,
    body: CardPolicyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/team/card-policy",
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeCardPolicyRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeCardPolicyRecord.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeCardPolicyRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: CardPolicyRequest,
) -> Response[EnvelopeCardPolicyRecord | ErrorBody]:
    """Set whether members buy cards or ask for them (owner)

     `member_cards`: `direct` (the default: members buy cards with `POST /card/buy`) or
    `request` (a member's `POST /card/buy` answers 403 `request_required`; the member asks with
    `POST /team/requests` and the owner approves).

    Args:
        body (CardPolicyRequest):  Example: {'member_cards': 'direct'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeCardPolicyRecord | ErrorBody]
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
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord | ErrorBody | None:
    """Set whether members buy cards or ask for them (owner)

     `member_cards`: `direct` (the default: members buy cards with `POST /card/buy`) or
    `request` (a member's `POST /card/buy` answers 403 `request_required`; the member asks with
    `POST /team/requests` and the owner approves).

    Args:
        body (CardPolicyRequest):  Example: {'member_cards': 'direct'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeCardPolicyRecord | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeCardPolicyRecord | ErrorBody]
) -> EnvelopeCardPolicyRecord | ErrorBody | None:
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
    body: CardPolicyRequest,
) -> Response[EnvelopeCardPolicyRecord | ErrorBody]:
    """Set whether members buy cards or ask for them (owner)

     `member_cards`: `direct` (the default: members buy cards with `POST /card/buy`) or
    `request` (a member's `POST /card/buy` answers 403 `request_required`; the member asks with
    `POST /team/requests` and the owner approves).

    Args:
        body (CardPolicyRequest):  Example: {'member_cards': 'direct'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeCardPolicyRecord | ErrorBody]
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
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: CardPolicyRequest,
) -> EnvelopeCardPolicyRecord | ErrorBody | None:
    """Set whether members buy cards or ask for them (owner)

     `member_cards`: `direct` (the default: members buy cards with `POST /card/buy`) or
    `request` (a member's `POST /card/buy` answers 403 `request_required`; the member asks with
    `POST /team/requests` and the owner approves).

    Args:
        body (CardPolicyRequest):  Example: {'member_cards': 'direct'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeCardPolicyRecord | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
