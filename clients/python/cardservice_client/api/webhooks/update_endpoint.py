from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_update import EndpointUpdate
from ...models.envelope_endpoint_record import EnvelopeEndpointRecord
from ...models.error_body import ErrorBody
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    endpoint_uuid: str,
    *,
    body: EndpointUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/webhook-endpoints/{endpoint_uuid}".format(
            endpoint_uuid=quote(str(endpoint_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EnvelopeEndpointRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeEndpointRecord.from_dict(loads_exact(response.content))

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EnvelopeEndpointRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_uuid: str,
    *,
    client: AuthenticatedClient,
    body: EndpointUpdate,
) -> Response[EnvelopeEndpointRecord | ErrorBody]:
    """Change a webhook endpoint

    Args:
        endpoint_uuid (str):
        body (EndpointUpdate):  Example: {'url': 'https://hooks.example.com/cardservice',
            'description': 'Team travel', 'event_types': ['card.created'], 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeEndpointRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        endpoint_uuid=endpoint_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    endpoint_uuid: str,
    *,
    client: AuthenticatedClient,
    body: EndpointUpdate,
) -> EnvelopeEndpointRecord | ErrorBody | None:
    """Change a webhook endpoint

    Args:
        endpoint_uuid (str):
        body (EndpointUpdate):  Example: {'url': 'https://hooks.example.com/cardservice',
            'description': 'Team travel', 'event_types': ['card.created'], 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeEndpointRecord | ErrorBody
    """

    return sync_detailed(
        endpoint_uuid=endpoint_uuid,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    endpoint_uuid: str,
    *,
    client: AuthenticatedClient,
    body: EndpointUpdate,
) -> Response[EnvelopeEndpointRecord | ErrorBody]:
    """Change a webhook endpoint

    Args:
        endpoint_uuid (str):
        body (EndpointUpdate):  Example: {'url': 'https://hooks.example.com/cardservice',
            'description': 'Team travel', 'event_types': ['card.created'], 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeEndpointRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        endpoint_uuid=endpoint_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    endpoint_uuid: str,
    *,
    client: AuthenticatedClient,
    body: EndpointUpdate,
) -> EnvelopeEndpointRecord | ErrorBody | None:
    """Change a webhook endpoint

    Args:
        endpoint_uuid (str):
        body (EndpointUpdate):  Example: {'url': 'https://hooks.example.com/cardservice',
            'description': 'Team travel', 'event_types': ['card.created'], 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeEndpointRecord | ErrorBody
    """

    return (
        await asyncio_detailed(
            endpoint_uuid=endpoint_uuid,
            client=client,
            body=body,
        )
    ).parsed
