from http import HTTPStatus
from typing import Any, Literal, overload

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_clearing_report import EnvelopeClearingReport
from ...models.error_body import ErrorBody
from ...types import File, Response, loads_exact


def _get_kwargs(
    *,
    body: File,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/clearing-files",
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeClearingReport | ErrorBody | None:
    if response.status_code == 201:
        response_201 = EnvelopeClearingReport.from_dict(loads_exact(response.content))

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


def _build_response(*, client: Client[Any], response: httpx.Response) -> Response[EnvelopeClearingReport | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient[Any],
    body: File,
) -> Response[EnvelopeClearingReport | ErrorBody]:
    """Book a Mastercard IPM clearing file

     Book a clearing file (scope `network`; the file's bytes as
    `application/octet-stream`, at most 50 MiB): 201 with its report. The same file again
    answers 200 with its first report and moves nothing; a bad file (unreadable, no header
    or trailer, a trailer count that differs, a file id ingested with other bytes) is 422
    `clearing_file_invalid` and moves nothing.

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeClearingReport | ErrorBody]
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
    body: File,
) -> EnvelopeClearingReport: ...


@overload
def sync(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: File,
) -> EnvelopeClearingReport | ErrorBody | None: ...


def sync(
    *,
    client: AuthenticatedClient[Any],
    body: File,
) -> EnvelopeClearingReport | ErrorBody | None:
    """Book a Mastercard IPM clearing file

     Book a clearing file (scope `network`; the file's bytes as
    `application/octet-stream`, at most 50 MiB): 201 with its report. The same file again
    answers 200 with its first report and moves nothing; a bad file (unreadable, no header
    or trailer, a trailer count that differs, a file id ingested with other bytes) is 422
    `clearing_file_invalid` and moves nothing.

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeClearingReport | ErrorBody
    """

    response = sync_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeClearingReport | ErrorBody]
) -> EnvelopeClearingReport | ErrorBody | None:
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
    body: File,
) -> Response[EnvelopeClearingReport | ErrorBody]:
    """Book a Mastercard IPM clearing file

     Book a clearing file (scope `network`; the file's bytes as
    `application/octet-stream`, at most 50 MiB): 201 with its report. The same file again
    answers 200 with its first report and moves nothing; a bad file (unreadable, no header
    or trailer, a trailer count that differs, a file id ingested with other bytes) is 422
    `clearing_file_invalid` and moves nothing.

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeClearingReport | ErrorBody]
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
    body: File,
) -> EnvelopeClearingReport: ...


@overload
async def asyncio(
    *,
    client: AuthenticatedClient[Literal[False]],
    body: File,
) -> EnvelopeClearingReport | ErrorBody | None: ...


async def asyncio(
    *,
    client: AuthenticatedClient[Any],
    body: File,
) -> EnvelopeClearingReport | ErrorBody | None:
    """Book a Mastercard IPM clearing file

     Book a clearing file (scope `network`; the file's bytes as
    `application/octet-stream`, at most 50 MiB): 201 with its report. The same file again
    answers 200 with its first report and moves nothing; a bad file (unreadable, no header
    or trailer, a trailer count that differs, a file id ingested with other bytes) is 422
    `clearing_file_invalid` and moves nothing.

    Args:
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeClearingReport | ErrorBody
    """

    response = await asyncio_detailed(
        client=client,
        body=body,
    )
    return _answer(client, response)
