from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_list_settlement import EnvelopeListSettlement
from ...models.error_body import ErrorBody
from ...types import UNSET, Response, Unset, loads_exact


def _get_kwargs(
    *,
    date: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_date: None | str | Unset
    if isinstance(date, Unset):
        json_date = UNSET
    else:
        json_date = date
    params["date"] = json_date

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/operator/reports/settlement",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeListSettlement | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeListSettlement.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeListSettlement | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    date: None | str | Unset = UNSET,
) -> Response[EnvelopeListSettlement | ErrorBody]:
    """A UTC day's settlement with the card network, per currency

     One UTC day's settlement with the card network per currency (scope `reports`): captures,
    refunds and dispute credits (count and amount) and `net`, owed to the network — equal to
    that day's postings to the network settlement account. Without `date`, today (UTC).

    Args:
        date (None | str | Unset): a UTC day, YYYY-MM-DD; default today

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListSettlement | ErrorBody]
    """

    kwargs = _get_kwargs(
        date=date,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement | ErrorBody | None:
    """A UTC day's settlement with the card network, per currency

     One UTC day's settlement with the card network per currency (scope `reports`): captures,
    refunds and dispute credits (count and amount) and `net`, owed to the network — equal to
    that day's postings to the network settlement account. Without `date`, today (UTC).

    Args:
        date (None | str | Unset): a UTC day, YYYY-MM-DD; default today

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListSettlement | ErrorBody
    """

    response = sync_detailed(
        client=client,
        date=date,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeListSettlement | ErrorBody]
) -> EnvelopeListSettlement | ErrorBody | None:
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
    date: None | str | Unset = UNSET,
) -> Response[EnvelopeListSettlement | ErrorBody]:
    """A UTC day's settlement with the card network, per currency

     One UTC day's settlement with the card network per currency (scope `reports`): captures,
    refunds and dispute credits (count and amount) and `net`, owed to the network — equal to
    that day's postings to the network settlement account. Without `date`, today (UTC).

    Args:
        date (None | str | Unset): a UTC day, YYYY-MM-DD; default today

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeListSettlement | ErrorBody]
    """

    kwargs = _get_kwargs(
        date=date,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    date: None | str | Unset = UNSET,
) -> EnvelopeListSettlement | ErrorBody | None:
    """A UTC day's settlement with the card network, per currency

     One UTC day's settlement with the card network per currency (scope `reports`): captures,
    refunds and dispute credits (count and amount) and `net`, owed to the network — equal to
    that day's postings to the network settlement account. Without `date`, today (UTC).

    Args:
        date (None | str | Unset): a UTC day, YYYY-MM-DD; default today

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeListSettlement | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        date=date,
    )
    return _answer(client, response)
