from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.paged_envelope_team_card_list import PagedEnvelopeTeamCardList
from ...types import UNSET, Response, Unset, loads_exact


def _get_kwargs(
    *,
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["per_page"] = per_page

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/team/cards",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> ErrorBody | PagedEnvelopeTeamCardList | None:
    if response.status_code == 200:
        response_200 = PagedEnvelopeTeamCardList.from_dict(loads_exact(response.content))

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
) -> Response[ErrorBody | PagedEnvelopeTeamCardList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> Response[ErrorBody | PagedEnvelopeTeamCardList]:
    """The team members' cards (the team's owner)

     For a team's owner: every card of each member (role `member`) that is not closed — the
    cards the owner reads and changes with `GET`/`PATCH /card/{cardUuid}` — with its holder
    `{uuid, name}`, by holder name, then the holder's card order; 100 a page by default, up
    to 500. A member or a user of no team: 404.

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..500 (default 100) Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PagedEnvelopeTeamCardList]
    """

    kwargs = _get_kwargs(
        page=page,
        per_page=per_page,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> PagedEnvelopeTeamCardList: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> ErrorBody | PagedEnvelopeTeamCardList | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> ErrorBody | PagedEnvelopeTeamCardList | None:
    """The team members' cards (the team's owner)

     For a team's owner: every card of each member (role `member`) that is not closed — the
    cards the owner reads and changes with `GET`/`PATCH /card/{cardUuid}` — with its holder
    `{uuid, name}`, by holder name, then the holder's card order; 100 a page by default, up
    to 500. A member or a user of no team: 404.

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..500 (default 100) Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PagedEnvelopeTeamCardList
    """

    response = sync_detailed(
        client=client,
        page=page,
        per_page=per_page,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[ErrorBody | PagedEnvelopeTeamCardList]
) -> ErrorBody | PagedEnvelopeTeamCardList | None:
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
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> Response[ErrorBody | PagedEnvelopeTeamCardList]:
    """The team members' cards (the team's owner)

     For a team's owner: every card of each member (role `member`) that is not closed — the
    cards the owner reads and changes with `GET`/`PATCH /card/{cardUuid}` — with its holder
    `{uuid, name}`, by holder name, then the holder's card order; 100 a page by default, up
    to 500. A member or a user of no team: 404.

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..500 (default 100) Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PagedEnvelopeTeamCardList]
    """

    kwargs = _get_kwargs(
        page=page,
        per_page=per_page,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> PagedEnvelopeTeamCardList: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> ErrorBody | PagedEnvelopeTeamCardList | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    page: int | Unset = 1,
    per_page: int | Unset = 100,
) -> ErrorBody | PagedEnvelopeTeamCardList | None:
    """The team members' cards (the team's owner)

     For a team's owner: every card of each member (role `member`) that is not closed — the
    cards the owner reads and changes with `GET`/`PATCH /card/{cardUuid}` — with its holder
    `{uuid, name}`, by holder name, then the holder's card order; 100 a page by default, up
    to 500. A member or a user of no team: 404.

    Args:
        page (int | Unset): Page number, from 1 (default 1); past the last page the list is empty
            Default: 1.
        per_page (int | Unset): Rows per page, 1..500 (default 100) Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PagedEnvelopeTeamCardList
    """

    response = await asyncio_detailed(
        client=client,
        page=page,
        per_page=per_page,
    )
    return _answer(client, response)
