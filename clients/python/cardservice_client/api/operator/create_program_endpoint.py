from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_program_endpoint_record import EnvelopeProgramEndpointRecord
from ...models.error_body import ErrorBody
from ...models.program_endpoint_create import ProgramEndpointCreate
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    *,
    body: ProgramEndpointCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/webhook-endpoints",
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: Client[Any], response: httpx.Response
) -> EnvelopeProgramEndpointRecord | ErrorBody | None:
    if response.status_code == 201:
        response_201 = EnvelopeProgramEndpointRecord.from_dict(loads_exact(response.content))

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


def _build_response(
    *, client: Client[Any], response: httpx.Response
) -> Response[EnvelopeProgramEndpointRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: ProgramEndpointCreate,
) -> Response[EnvelopeProgramEndpointRecord | ErrorBody]:
    """Add a program-wide webhook endpoint: every cardholder's events and the operator's own

     Send every event of the service — each cardholder's, and the operator's own
    (`clearing_file.ingested`, `card_testing.locked`) — to this URL (scope `webhooks`),
    signed as a cardholder's endpoint is (Standard Webhooks). Answers 201 with the record and
    its signing `secret` in full, shown only here and on rotation. `event_types` narrows what
    it receives. Private and loopback addresses → 422 `url_not_allowed` unless allowed by
    configuration. Audited.

    Args:
        body (ProgramEndpointCreate): A program-wide endpoint: a cardholder's endpoint's fields;
            its `event_types` may also
            name the operator's own events (docs/events.md#the-operators-own-events). Example: {'url':
            'https://ops.example.com/hooks', 'description': 'Back office', 'event_types':
            ['clearing_file.ingested', 'card_testing.locked', 'dispute.updated']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeProgramEndpointRecord | ErrorBody]
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
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord | ErrorBody | None:
    """Add a program-wide webhook endpoint: every cardholder's events and the operator's own

     Send every event of the service — each cardholder's, and the operator's own
    (`clearing_file.ingested`, `card_testing.locked`) — to this URL (scope `webhooks`),
    signed as a cardholder's endpoint is (Standard Webhooks). Answers 201 with the record and
    its signing `secret` in full, shown only here and on rotation. `event_types` narrows what
    it receives. Private and loopback addresses → 422 `url_not_allowed` unless allowed by
    configuration. Audited.

    Args:
        body (ProgramEndpointCreate): A program-wide endpoint: a cardholder's endpoint's fields;
            its `event_types` may also
            name the operator's own events (docs/events.md#the-operators-own-events). Example: {'url':
            'https://ops.example.com/hooks', 'description': 'Back office', 'event_types':
            ['clearing_file.ingested', 'card_testing.locked', 'dispute.updated']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeProgramEndpointRecord | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeProgramEndpointRecord | ErrorBody]
) -> EnvelopeProgramEndpointRecord | ErrorBody | None:
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
    body: ProgramEndpointCreate,
) -> Response[EnvelopeProgramEndpointRecord | ErrorBody]:
    """Add a program-wide webhook endpoint: every cardholder's events and the operator's own

     Send every event of the service — each cardholder's, and the operator's own
    (`clearing_file.ingested`, `card_testing.locked`) — to this URL (scope `webhooks`),
    signed as a cardholder's endpoint is (Standard Webhooks). Answers 201 with the record and
    its signing `secret` in full, shown only here and on rotation. `event_types` narrows what
    it receives. Private and loopback addresses → 422 `url_not_allowed` unless allowed by
    configuration. Audited.

    Args:
        body (ProgramEndpointCreate): A program-wide endpoint: a cardholder's endpoint's fields;
            its `event_types` may also
            name the operator's own events (docs/events.md#the-operators-own-events). Example: {'url':
            'https://ops.example.com/hooks', 'description': 'Back office', 'event_types':
            ['clearing_file.ingested', 'card_testing.locked', 'dispute.updated']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeProgramEndpointRecord | ErrorBody]
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
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: ProgramEndpointCreate,
) -> EnvelopeProgramEndpointRecord | ErrorBody | None:
    """Add a program-wide webhook endpoint: every cardholder's events and the operator's own

     Send every event of the service — each cardholder's, and the operator's own
    (`clearing_file.ingested`, `card_testing.locked`) — to this URL (scope `webhooks`),
    signed as a cardholder's endpoint is (Standard Webhooks). Answers 201 with the record and
    its signing `secret` in full, shown only here and on rotation. `event_types` narrows what
    it receives. Private and loopback addresses → 422 `url_not_allowed` unless allowed by
    configuration. Audited.

    Args:
        body (ProgramEndpointCreate): A program-wide endpoint: a cardholder's endpoint's fields;
            its `event_types` may also
            name the operator's own events (docs/events.md#the-operators-own-events). Example: {'url':
            'https://ops.example.com/hooks', 'description': 'Back office', 'event_types':
            ['clearing_file.ingested', 'card_testing.locked', 'dispute.updated']}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeProgramEndpointRecord | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
