from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import Response, loads_exact


def _get_kwargs(
    attachment_uuid: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/attachment/{attachment_uuid}".format(
            attachment_uuid=quote(str(attachment_uuid), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    attachment_uuid: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody]:
    """Download one of the caller's attachments

     The file, as a download (`Content-Disposition: attachment`): never rendered inline
    from the API's origin, where a `?_code=` link could make it run as a page.

    Args:
        attachment_uuid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody]
    """

    kwargs = _get_kwargs(
        attachment_uuid=attachment_uuid,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    attachment_uuid: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | None:
    """Download one of the caller's attachments

     The file, as a download (`Content-Disposition: attachment`): never rendered inline
    from the API's origin, where a `?_code=` link could make it run as a page.

    Args:
        attachment_uuid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody
    """

    return sync_detailed(
        attachment_uuid=attachment_uuid,
        client=client,
    ).parsed


async def asyncio_detailed(
    attachment_uuid: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody]:
    """Download one of the caller's attachments

     The file, as a download (`Content-Disposition: attachment`): never rendered inline
    from the API's origin, where a `?_code=` link could make it run as a page.

    Args:
        attachment_uuid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody]
    """

    kwargs = _get_kwargs(
        attachment_uuid=attachment_uuid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    attachment_uuid: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | None:
    """Download one of the caller's attachments

     The file, as a download (`Content-Disposition: attachment`): never rendered inline
    from the API's origin, where a `?_code=` link could make it run as a page.

    Args:
        attachment_uuid (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody
    """

    return (
        await asyncio_detailed(
            attachment_uuid=attachment_uuid,
            client=client,
        )
    ).parsed
