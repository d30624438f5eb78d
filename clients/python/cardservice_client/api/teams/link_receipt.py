from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_transaction_record import EnvelopeTransactionRecord
from ...models.error_body import ErrorBody
from ...models.link_receipt_request import LinkReceiptRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    transaction_uuid: str | UUID,
    *,
    body: LinkReceiptRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/transaction/{transaction_uuid}/receipt".format(
            transaction_uuid=quote(str(transaction_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeTransactionRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeTransactionRecord.from_dict(loads_exact(response.content))

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
) -> Response[EnvelopeTransactionRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: LinkReceiptRequest,
) -> Response[EnvelopeTransactionRecord | ErrorBody]:
    """Link a receipt to one of the caller's transactions

     Link one of the caller's attachments of type `receipt`, `invoice` or `photo` (replacing
    any). A card the receipt policy froze is unfrozen when this was its last missing receipt.
    The transaction's record shows `receipt_attachment_uuid`.

    Args:
        transaction_uuid (str | UUID): The transaction's uuid
        body (LinkReceiptRequest):  Example: {'attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeTransactionRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        transaction_uuid=transaction_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord: ...


@overload
def sync(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord | ErrorBody | None: ...


def sync(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord | ErrorBody | None:
    """Link a receipt to one of the caller's transactions

     Link one of the caller's attachments of type `receipt`, `invoice` or `photo` (replacing
    any). A card the receipt policy froze is unfrozen when this was its last missing receipt.
    The transaction's record shows `receipt_attachment_uuid`.

    Args:
        transaction_uuid (str | UUID): The transaction's uuid
        body (LinkReceiptRequest):  Example: {'attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeTransactionRecord | ErrorBody
    """

    response = sync_detailed(
        transaction_uuid=transaction_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeTransactionRecord | ErrorBody]
) -> EnvelopeTransactionRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: LinkReceiptRequest,
) -> Response[EnvelopeTransactionRecord | ErrorBody]:
    """Link a receipt to one of the caller's transactions

     Link one of the caller's attachments of type `receipt`, `invoice` or `photo` (replacing
    any). A card the receipt policy froze is unfrozen when this was its last missing receipt.
    The transaction's record shows `receipt_attachment_uuid`.

    Args:
        transaction_uuid (str | UUID): The transaction's uuid
        body (LinkReceiptRequest):  Example: {'attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeTransactionRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        transaction_uuid=transaction_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord: ...


@overload
async def asyncio(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord | ErrorBody | None: ...


async def asyncio(
    transaction_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: LinkReceiptRequest,
) -> EnvelopeTransactionRecord | ErrorBody | None:
    """Link a receipt to one of the caller's transactions

     Link one of the caller's attachments of type `receipt`, `invoice` or `photo` (replacing
    any). A card the receipt policy froze is unfrozen when this was its last missing receipt.
    The transaction's record shows `receipt_attachment_uuid`.

    Args:
        transaction_uuid (str | UUID): The transaction's uuid
        body (LinkReceiptRequest):  Example: {'attachment_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeTransactionRecord | ErrorBody
    """

    response = await asyncio_detailed(
        transaction_uuid=transaction_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
