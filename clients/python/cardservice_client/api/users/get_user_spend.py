from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_list_spend_row import EnvelopeListSpendRow
from ...models.error_body import ErrorBody
from ...models.get_user_spend_group_by import GetUserSpendGroupBy
from ...models.get_user_spend_type_type_0 import GetUserSpendTypeType0
from ...types import UNSET, Response, Unset, loads_exact


def _get_kwargs(
    *,
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    else:
        json_to = to
    params["to"] = json_to

    json_group_by: str | Unset = UNSET
    if not isinstance(group_by, Unset):
        json_group_by = group_by.value

    params["group_by"] = json_group_by

    params["limit"] = limit

    json_type_: None | str | Unset
    if isinstance(type, Unset):
        json_type_ = UNSET
    elif isinstance(type, GetUserSpendTypeType0):
        json_type_ = type.value
    else:
        json_type_ = type
    params["type"] = json_type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/user/spend",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeListSpendRow | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeListSpendRow.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeListSpendRow | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> Response[EnvelopeListSpendRow | ErrorBody]:
    """Where the money went: spend per merchant, card, tag or member

     Approved card purchases and ATM withdrawals less refunds, created in the window, per
    group and currency, largest first: `[{key, name, count, amount, currency}]`
    (docs/transactions.md#spend-in-view); per merchant, the withdrawals are one row (`key`
    null). A team owner's includes the team's users; `group_by=member` gives one row per
    person.

    Args:
        from_ (None | str | Unset): First UTC day, YYYY-MM-DD; default the 1st of this month
        to (None | str | Unset): Last UTC day (inclusive), YYYY-MM-DD; default today
        group_by (GetUserSpendGroupBy | Unset): merchant, card, tag or member (default merchant)
            Default: GetUserSpendGroupBy.MERCHANT.
        limit (int | Unset): At most this many rows Default: 100.
        type (GetUserSpendTypeType0 | None | Unset): card_purchase or atm_withdrawal only
            (default both)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListSpendRow | ErrorBody]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
        limit=limit,
        type=type,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow | ErrorBody | None:
    """Where the money went: spend per merchant, card, tag or member

     Approved card purchases and ATM withdrawals less refunds, created in the window, per
    group and currency, largest first: `[{key, name, count, amount, currency}]`
    (docs/transactions.md#spend-in-view); per merchant, the withdrawals are one row (`key`
    null). A team owner's includes the team's users; `group_by=member` gives one row per
    person.

    Args:
        from_ (None | str | Unset): First UTC day, YYYY-MM-DD; default the 1st of this month
        to (None | str | Unset): Last UTC day (inclusive), YYYY-MM-DD; default today
        group_by (GetUserSpendGroupBy | Unset): merchant, card, tag or member (default merchant)
            Default: GetUserSpendGroupBy.MERCHANT.
        limit (int | Unset): At most this many rows Default: 100.
        type (GetUserSpendTypeType0 | None | Unset): card_purchase or atm_withdrawal only
            (default both)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListSpendRow | ErrorBody
    """

    response = sync_detailed(
        client=client,
        from_=from_,
        to=to,
        group_by=group_by,
        limit=limit,
        type=type,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeListSpendRow | ErrorBody]
) -> EnvelopeListSpendRow | ErrorBody | None:
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
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> Response[EnvelopeListSpendRow | ErrorBody]:
    """Where the money went: spend per merchant, card, tag or member

     Approved card purchases and ATM withdrawals less refunds, created in the window, per
    group and currency, largest first: `[{key, name, count, amount, currency}]`
    (docs/transactions.md#spend-in-view); per merchant, the withdrawals are one row (`key`
    null). A team owner's includes the team's users; `group_by=member` gives one row per
    person.

    Args:
        from_ (None | str | Unset): First UTC day, YYYY-MM-DD; default the 1st of this month
        to (None | str | Unset): Last UTC day (inclusive), YYYY-MM-DD; default today
        group_by (GetUserSpendGroupBy | Unset): merchant, card, tag or member (default merchant)
            Default: GetUserSpendGroupBy.MERCHANT.
        limit (int | Unset): At most this many rows Default: 100.
        type (GetUserSpendTypeType0 | None | Unset): card_purchase or atm_withdrawal only
            (default both)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListSpendRow | ErrorBody]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
        limit=limit,
        type=type,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    from_: None | str | Unset = UNSET,
    to: None | str | Unset = UNSET,
    group_by: GetUserSpendGroupBy | Unset = GetUserSpendGroupBy.MERCHANT,
    limit: int | Unset = 100,
    type: GetUserSpendTypeType0 | None | Unset = UNSET,
) -> EnvelopeListSpendRow | ErrorBody | None:
    """Where the money went: spend per merchant, card, tag or member

     Approved card purchases and ATM withdrawals less refunds, created in the window, per
    group and currency, largest first: `[{key, name, count, amount, currency}]`
    (docs/transactions.md#spend-in-view); per merchant, the withdrawals are one row (`key`
    null). A team owner's includes the team's users; `group_by=member` gives one row per
    person.

    Args:
        from_ (None | str | Unset): First UTC day, YYYY-MM-DD; default the 1st of this month
        to (None | str | Unset): Last UTC day (inclusive), YYYY-MM-DD; default today
        group_by (GetUserSpendGroupBy | Unset): merchant, card, tag or member (default merchant)
            Default: GetUserSpendGroupBy.MERCHANT.
        limit (int | Unset): At most this many rows Default: 100.
        type (GetUserSpendTypeType0 | None | Unset): card_purchase or atm_withdrawal only
            (default both)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListSpendRow | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        from_=from_,
        to=to,
        group_by=group_by,
        limit=limit,
        type=type,
    )
    return _answer(client, response)
