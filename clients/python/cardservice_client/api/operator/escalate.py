from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_dispute_record import EnvelopeDisputeRecord
from ...models.error_body import ErrorBody
from ...types import Response, loads_exact


def _get_kwargs(
    dispute_uuid: str | UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/disputes/{dispute_uuid}/escalate".format(
            dispute_uuid=quote(str(dispute_uuid), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeDisputeRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeDisputeRecord.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeDisputeRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
) -> Response[EnvelopeDisputeRecord | ErrorBody]:
    """Escalate after a second presentment: pre-arbitration in the next outgoing file

     A dispute in `representment_received` becomes `pre_arbitration`: a 1442 `451` in the
    next outgoing file; another status is 409 `dispute_wrong_status` (scope `network`).

    Args:
        dispute_uuid (str | UUID): The dispute's uuid

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeDisputeRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        dispute_uuid=dispute_uuid,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopeDisputeRecord: ...


@overload
def sync(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopeDisputeRecord | ErrorBody | None: ...


def sync(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopeDisputeRecord | ErrorBody | None:
    """Escalate after a second presentment: pre-arbitration in the next outgoing file

     A dispute in `representment_received` becomes `pre_arbitration`: a 1442 `451` in the
    next outgoing file; another status is 409 `dispute_wrong_status` (scope `network`).

    Args:
        dispute_uuid (str | UUID): The dispute's uuid

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeDisputeRecord | ErrorBody
    """

    response = sync_detailed(
        dispute_uuid=dispute_uuid,
        client=client,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeDisputeRecord | ErrorBody]
) -> EnvelopeDisputeRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
) -> Response[EnvelopeDisputeRecord | ErrorBody]:
    """Escalate after a second presentment: pre-arbitration in the next outgoing file

     A dispute in `representment_received` becomes `pre_arbitration`: a 1442 `451` in the
    next outgoing file; another status is 409 `dispute_wrong_status` (scope `network`).

    Args:
        dispute_uuid (str | UUID): The dispute's uuid

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeDisputeRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        dispute_uuid=dispute_uuid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopeDisputeRecord: ...


@overload
async def asyncio(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopeDisputeRecord | ErrorBody | None: ...


async def asyncio(
    dispute_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopeDisputeRecord | ErrorBody | None:
    """Escalate after a second presentment: pre-arbitration in the next outgoing file

     A dispute in `representment_received` becomes `pre_arbitration`: a 1442 `451` in the
    next outgoing file; another status is 409 `dispute_wrong_status` (scope `network`).

    Args:
        dispute_uuid (str | UUID): The dispute's uuid

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeDisputeRecord | ErrorBody
    """

    response = await asyncio_detailed(
        dispute_uuid=dispute_uuid,
        client=client,
    )
    return _answer(client, response)
