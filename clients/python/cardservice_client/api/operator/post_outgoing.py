from http import HTTPStatus
from typing import Any, Literal, cast, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.outgoing_request import OutgoingRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    *,
    body: OutgoingRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/clearing-outgoing",
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: OutgoingRequest,
) -> Response[Any | ErrorBody]:
    """Write the issuer's outgoing clearing file of a date (chargebacks)

     The date's outgoing Mastercard IPM file (scope `network`): a 1442 for each dispute
    waiting to be sent, which moves to `chargeback_sent` (or its pre-arbitration is marked
    sent). Written once: the same date again answers the same bytes and moves nothing. A
    future date is 422.

    Args:
        body (OutgoingRequest):  Example: {'date': '2026-03-19'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
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
    body: OutgoingRequest,
) -> Any: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: OutgoingRequest,
) -> Any | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: OutgoingRequest,
) -> Any | ErrorBody | None:
    """Write the issuer's outgoing clearing file of a date (chargebacks)

     The date's outgoing Mastercard IPM file (scope `network`): a 1442 for each dispute
    waiting to be sent, which moves to `chargeback_sent` (or its pre-arbitration is marked
    sent). Written once: the same date again answers the same bytes and moves nothing. A
    future date is 422.

    Args:
        body (OutgoingRequest):  Example: {'date': '2026-03-19'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(client: Client[Any], response: Response[Any | ErrorBody]) -> Any | ErrorBody | None:
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
    body: OutgoingRequest,
) -> Response[Any | ErrorBody]:
    """Write the issuer's outgoing clearing file of a date (chargebacks)

     The date's outgoing Mastercard IPM file (scope `network`): a 1442 for each dispute
    waiting to be sent, which moves to `chargeback_sent` (or its pre-arbitration is marked
    sent). Written once: the same date again answers the same bytes and moves nothing. A
    future date is 422.

    Args:
        body (OutgoingRequest):  Example: {'date': '2026-03-19'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
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
    body: OutgoingRequest,
) -> Any: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: OutgoingRequest,
) -> Any | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: OutgoingRequest,
) -> Any | ErrorBody | None:
    """Write the issuer's outgoing clearing file of a date (chargebacks)

     The date's outgoing Mastercard IPM file (scope `network`): a 1442 for each dispute
    waiting to be sent, which moves to `chargeback_sent` (or its pre-arbitration is marked
    sent). Written once: the same date again answers the same bytes and moves nothing. A
    future date is 422.

    Args:
        body (OutgoingRequest):  Example: {'date': '2026-03-19'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
