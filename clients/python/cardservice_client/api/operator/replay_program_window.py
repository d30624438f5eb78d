from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_queued import EnvelopeQueued
from ...models.error_body import ErrorBody
from ...models.replay_request import ReplayRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    endpoint_uuid: str | UUID,
    *,
    body: ReplayRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/webhook-endpoints/{endpoint_uuid}/replay".format(
            endpoint_uuid=quote(str(endpoint_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeQueued | ErrorBody | None:
    if response.status_code == 202:
        response_202 = EnvelopeQueued.from_dict(loads_exact(response.content))

        return response_202

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeQueued | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ReplayRequest,
) -> Response[EnvelopeQueued | ErrorBody]:
    """Queue every event of a window the program-wide endpoint never received with a 2xx

     Queue every event of `[since, until)` this endpoint wants — every cardholder's and the
    operator's own — that it never answered with a 2xx and is not waiting for (202 with the
    number queued; scope `webhooks`): what it missed while it was down. Audited.

    Args:
        endpoint_uuid (str | UUID): The program-wide endpoint's uuid (`GET /operator/webhook-
            endpoints`)
        body (ReplayRequest):  Example: {'since': '2026-03-19T00:00:00Z', 'until':
            '2026-03-20T00:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeQueued | ErrorBody]
    """

    kwargs = _get_kwargs(
        endpoint_uuid=endpoint_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ReplayRequest,
) -> EnvelopeQueued: ...


@overload
def sync(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ReplayRequest,
) -> EnvelopeQueued | ErrorBody | None: ...


def sync(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ReplayRequest,
) -> EnvelopeQueued | ErrorBody | None:
    """Queue every event of a window the program-wide endpoint never received with a 2xx

     Queue every event of `[since, until)` this endpoint wants — every cardholder's and the
    operator's own — that it never answered with a 2xx and is not waiting for (202 with the
    number queued; scope `webhooks`): what it missed while it was down. Audited.

    Args:
        endpoint_uuid (str | UUID): The program-wide endpoint's uuid (`GET /operator/webhook-
            endpoints`)
        body (ReplayRequest):  Example: {'since': '2026-03-19T00:00:00Z', 'until':
            '2026-03-20T00:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeQueued | ErrorBody
    """

    response = sync_detailed(
        endpoint_uuid=endpoint_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(client: Client[Any], response: Response[EnvelopeQueued | ErrorBody]) -> EnvelopeQueued | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ReplayRequest,
) -> Response[EnvelopeQueued | ErrorBody]:
    """Queue every event of a window the program-wide endpoint never received with a 2xx

     Queue every event of `[since, until)` this endpoint wants — every cardholder's and the
    operator's own — that it never answered with a 2xx and is not waiting for (202 with the
    number queued; scope `webhooks`): what it missed while it was down. Audited.

    Args:
        endpoint_uuid (str | UUID): The program-wide endpoint's uuid (`GET /operator/webhook-
            endpoints`)
        body (ReplayRequest):  Example: {'since': '2026-03-19T00:00:00Z', 'until':
            '2026-03-20T00:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeQueued | ErrorBody]
    """

    kwargs = _get_kwargs(
        endpoint_uuid=endpoint_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ReplayRequest,
) -> EnvelopeQueued: ...


@overload
async def asyncio(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ReplayRequest,
) -> EnvelopeQueued | ErrorBody | None: ...


async def asyncio(
    endpoint_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ReplayRequest,
) -> EnvelopeQueued | ErrorBody | None:
    """Queue every event of a window the program-wide endpoint never received with a 2xx

     Queue every event of `[since, until)` this endpoint wants — every cardholder's and the
    operator's own — that it never answered with a 2xx and is not waiting for (202 with the
    number queued; scope `webhooks`): what it missed while it was down. Audited.

    Args:
        endpoint_uuid (str | UUID): The program-wide endpoint's uuid (`GET /operator/webhook-
            endpoints`)
        body (ReplayRequest):  Example: {'since': '2026-03-19T00:00:00Z', 'until':
            '2026-03-20T00:00:00Z'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeQueued | ErrorBody
    """

    response = await asyncio_detailed(
        endpoint_uuid=endpoint_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
