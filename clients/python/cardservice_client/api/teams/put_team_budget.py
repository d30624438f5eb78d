from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_budget_record import EnvelopeBudgetRecord
from ...models.error_body import ErrorBody
from ...models.set_budget_request import SetBudgetRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    user_uuid: str | UUID,
    *,
    body: SetBudgetRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/team/members/{user_uuid}/budget".format(
            user_uuid=quote(str(user_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeBudgetRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeBudgetRecord.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeBudgetRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: SetBudgetRequest,
) -> Response[EnvelopeBudgetRecord | ErrorBody]:
    """Set a member's monthly budget (owner)

     Set a member's monthly budget in one currency they hold an account in (replacing any).
    Authorizations that would take the member's month past it are declined
    `budget_exceeded`.

    Args:
        user_uuid (str | UUID): A member of the caller's team
        body (SetBudgetRequest):  Example: {'amount': 500, 'currency': 'USD'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeBudgetRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        user_uuid=user_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord: ...


@overload
def sync(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord | ErrorBody | None: ...


def sync(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord | ErrorBody | None:
    """Set a member's monthly budget (owner)

     Set a member's monthly budget in one currency they hold an account in (replacing any).
    Authorizations that would take the member's month past it are declined
    `budget_exceeded`.

    Args:
        user_uuid (str | UUID): A member of the caller's team
        body (SetBudgetRequest):  Example: {'amount': 500, 'currency': 'USD'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeBudgetRecord | ErrorBody
    """

    response = sync_detailed(
        user_uuid=user_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeBudgetRecord | ErrorBody]
) -> EnvelopeBudgetRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: SetBudgetRequest,
) -> Response[EnvelopeBudgetRecord | ErrorBody]:
    """Set a member's monthly budget (owner)

     Set a member's monthly budget in one currency they hold an account in (replacing any).
    Authorizations that would take the member's month past it are declined
    `budget_exceeded`.

    Args:
        user_uuid (str | UUID): A member of the caller's team
        body (SetBudgetRequest):  Example: {'amount': 500, 'currency': 'USD'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeBudgetRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        user_uuid=user_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord: ...


@overload
async def asyncio(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord | ErrorBody | None: ...


async def asyncio(
    user_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: SetBudgetRequest,
) -> EnvelopeBudgetRecord | ErrorBody | None:
    """Set a member's monthly budget (owner)

     Set a member's monthly budget in one currency they hold an account in (replacing any).
    Authorizations that would take the member's month past it are declined
    `budget_exceeded`.

    Args:
        user_uuid (str | UUID): A member of the caller's team
        body (SetBudgetRequest):  Example: {'amount': 500, 'currency': 'USD'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeBudgetRecord | ErrorBody
    """

    response = await asyncio_detailed(
        user_uuid=user_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
