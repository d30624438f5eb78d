from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_pin_key import EnvelopePinKey
from ...models.error_body import ErrorBody
from ...types import Response, loads_exact


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/card/pin-key",
    }

    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopePinKey | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopePinKey.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopePinKey | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
) -> Response[EnvelopePinKey | ErrorBody]:
    """The public key to encrypt a PIN with (RSA-2048, for RSA-OAEP with SHA-256)

     The PIN key's id and public half (PEM, SubjectPublicKeyInfo); its private half never
    leaves the key backend (the PKCS#11 token, docs/cards.md#pin-keys). Keys unavailable → 503
    `keys_unavailable`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopePinKey | ErrorBody]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopePinKey: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopePinKey | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopePinKey | ErrorBody | None:
    """The public key to encrypt a PIN with (RSA-2048, for RSA-OAEP with SHA-256)

     The PIN key's id and public half (PEM, SubjectPublicKeyInfo); its private half never
    leaves the key backend (the PKCS#11 token, docs/cards.md#pin-keys). Keys unavailable → 503
    `keys_unavailable`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopePinKey | ErrorBody
    """

    response = sync_detailed(
        client=client,
    )
    return _answer(client, response)


def _answer(client: Client[Any], response: Response[EnvelopePinKey | ErrorBody]) -> EnvelopePinKey | ErrorBody | None:
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
) -> Response[EnvelopePinKey | ErrorBody]:
    """The public key to encrypt a PIN with (RSA-2048, for RSA-OAEP with SHA-256)

     The PIN key's id and public half (PEM, SubjectPublicKeyInfo); its private half never
    leaves the key backend (the PKCS#11 token, docs/cards.md#pin-keys). Keys unavailable → 503
    `keys_unavailable`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopePinKey | ErrorBody]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[True]],
) -> EnvelopePinKey: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
) -> EnvelopePinKey | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
) -> EnvelopePinKey | ErrorBody | None:
    """The public key to encrypt a PIN with (RSA-2048, for RSA-OAEP with SHA-256)

     The PIN key's id and public half (PEM, SubjectPublicKeyInfo); its private half never
    leaves the key backend (the PKCS#11 token, docs/cards.md#pin-keys). Keys unavailable → 503
    `keys_unavailable`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopePinKey | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
    )
    return _answer(client, response)
