from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.buy_cards_request import BuyCardsRequest
from ...models.envelope_buy_cards_result import EnvelopeBuyCardsResult
from ...models.error_body import ErrorBody
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    *,
    body: BuyCardsRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/card/buy",
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeBuyCardsResult | ErrorBody | None:
    if response.status_code == 201:
        response_201 = EnvelopeBuyCardsResult.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeBuyCardsResult | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: BuyCardsRequest,
) -> Response[EnvelopeBuyCardsResult | ErrorBody]:
    """Buy cards for an account

     Buy 1..100 cards on one account from one BIN, all or nothing. The account pays
    `cards_count × (card_issue fee + start_balance + start_balance × card_topup percent)` in
    one ledger entry, plus the `card_physical` fee per card with `form: physical` (sent to
    `shipping`, `inactive` until activated); each card starts with `start_balance`. Refusals (422):
    `account_inactive`, `insufficient_funds`, `bin_unavailable`, `bin_not_allowed`,
    `currency_mismatch`; another user's account or an unknown BIN → 404. With `external_id`, a
    repeat of the same body returns the first answer again (`Idempotent-Replayed: true`) and
    buys nothing; another body with that `external_id` → 409. A team member whose team's card
    policy is `request` → 403 `request_required` (ask with `POST /team/requests`).

    Args:
        body (BuyCardsRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'bin_uuid': '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001', 'cards_count': 2, 'start_balance': 25,
            'description': 'Team travel', 'external_id': 'order-1001', 'auto_replenish_amount': 50,
            'auto_replenish_min_balance': 10}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeBuyCardsResult | ErrorBody]
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
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult | ErrorBody | None:
    """Buy cards for an account

     Buy 1..100 cards on one account from one BIN, all or nothing. The account pays
    `cards_count × (card_issue fee + start_balance + start_balance × card_topup percent)` in
    one ledger entry, plus the `card_physical` fee per card with `form: physical` (sent to
    `shipping`, `inactive` until activated); each card starts with `start_balance`. Refusals (422):
    `account_inactive`, `insufficient_funds`, `bin_unavailable`, `bin_not_allowed`,
    `currency_mismatch`; another user's account or an unknown BIN → 404. With `external_id`, a
    repeat of the same body returns the first answer again (`Idempotent-Replayed: true`) and
    buys nothing; another body with that `external_id` → 409. A team member whose team's card
    policy is `request` → 403 `request_required` (ask with `POST /team/requests`).

    Args:
        body (BuyCardsRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'bin_uuid': '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001', 'cards_count': 2, 'start_balance': 25,
            'description': 'Team travel', 'external_id': 'order-1001', 'auto_replenish_amount': 50,
            'auto_replenish_min_balance': 10}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeBuyCardsResult | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeBuyCardsResult | ErrorBody]
) -> EnvelopeBuyCardsResult | ErrorBody | None:
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
    body: BuyCardsRequest,
) -> Response[EnvelopeBuyCardsResult | ErrorBody]:
    """Buy cards for an account

     Buy 1..100 cards on one account from one BIN, all or nothing. The account pays
    `cards_count × (card_issue fee + start_balance + start_balance × card_topup percent)` in
    one ledger entry, plus the `card_physical` fee per card with `form: physical` (sent to
    `shipping`, `inactive` until activated); each card starts with `start_balance`. Refusals (422):
    `account_inactive`, `insufficient_funds`, `bin_unavailable`, `bin_not_allowed`,
    `currency_mismatch`; another user's account or an unknown BIN → 404. With `external_id`, a
    repeat of the same body returns the first answer again (`Idempotent-Replayed: true`) and
    buys nothing; another body with that `external_id` → 409. A team member whose team's card
    policy is `request` → 403 `request_required` (ask with `POST /team/requests`).

    Args:
        body (BuyCardsRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'bin_uuid': '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001', 'cards_count': 2, 'start_balance': 25,
            'description': 'Team travel', 'external_id': 'order-1001', 'auto_replenish_amount': 50,
            'auto_replenish_min_balance': 10}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeBuyCardsResult | ErrorBody]
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
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: BuyCardsRequest,
) -> EnvelopeBuyCardsResult | ErrorBody | None:
    """Buy cards for an account

     Buy 1..100 cards on one account from one BIN, all or nothing. The account pays
    `cards_count × (card_issue fee + start_balance + start_balance × card_topup percent)` in
    one ledger entry, plus the `card_physical` fee per card with `form: physical` (sent to
    `shipping`, `inactive` until activated); each card starts with `start_balance`. Refusals (422):
    `account_inactive`, `insufficient_funds`, `bin_unavailable`, `bin_not_allowed`,
    `currency_mismatch`; another user's account or an unknown BIN → 404. With `external_id`, a
    repeat of the same body returns the first answer again (`Idempotent-Replayed: true`) and
    buys nothing; another body with that `external_id` → 409. A team member whose team's card
    policy is `request` → 403 `request_required` (ask with `POST /team/requests`).

    Args:
        body (BuyCardsRequest):  Example: {'account_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'bin_uuid': '4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001', 'cards_count': 2, 'start_balance': 25,
            'description': 'Team travel', 'external_id': 'order-1001', 'auto_replenish_amount': 50,
            'auto_replenish_min_balance': 10}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeBuyCardsResult | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
