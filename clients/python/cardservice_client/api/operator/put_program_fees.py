from http import HTTPStatus
from typing import Any, Literal, overload
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope_program_fees_record import EnvelopeProgramFeesRecord
from ...models.error_body import ErrorBody
from ...models.program_fees_request import ProgramFeesRequest
from ...types import Response, dumps_exact, loads_exact


def _get_kwargs(
    program_uuid: str | UUID,
    *,
    body: ProgramFeesRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/operator/programs/{program_uuid}/fees".format(
            program_uuid=quote(str(program_uuid), safe=""),
        ),
    }

    _kwargs["content"] = dumps_exact(body.to_dict())

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: Client[Any], response: httpx.Response) -> EnvelopeProgramFeesRecord | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnvelopeProgramFeesRecord.from_dict(loads_exact(response.content))

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
) -> Response[EnvelopeProgramFeesRecord | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ProgramFeesRequest,
) -> Response[EnvelopeProgramFeesRecord | ErrorBody]:
    """Set a program's fees over the fee schedule

     The fees the program's cardholders pay instead of the schedule's (scope `catalogue`),
    replaced as a whole: amounts as the schedule's (fixed in the card's or account's
    currency, percents as `1.25`). Their `/dictionary/fees` shows them; their next purchases
    and authorizations are charged them. A cardholder's own override still comes first.
    Audited.

    Args:
        program_uuid (str | UUID): The program's uuid
        body (ProgramFeesRequest): The program's fees, replaced as a whole: a field left out (or
            `null`) is not overridden,
            so its cardholders pay the schedule's; `{}` removes every override. Example:
            {'card_decline': 0.25, 'card_fx': 1.5, 'topup_percent': 1}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeProgramFeesRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        program_uuid=program_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


@overload
def sync(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord: ...


@overload
def sync(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord | ErrorBody | None: ...


def sync(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord | ErrorBody | None:
    """Set a program's fees over the fee schedule

     The fees the program's cardholders pay instead of the schedule's (scope `catalogue`),
    replaced as a whole: amounts as the schedule's (fixed in the card's or account's
    currency, percents as `1.25`). Their `/dictionary/fees` shows them; their next purchases
    and authorizations are charged them. A cardholder's own override still comes first.
    Audited.

    Args:
        program_uuid (str | UUID): The program's uuid
        body (ProgramFeesRequest): The program's fees, replaced as a whole: a field left out (or
            `null`) is not overridden,
            so its cardholders pay the schedule's; `{}` removes every override. Example:
            {'card_decline': 0.25, 'card_fx': 1.5, 'topup_percent': 1}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeProgramFeesRecord | ErrorBody
    """

    response = sync_detailed(
        program_uuid=program_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)


def _answer(
    client: Client[Any], response: Response[EnvelopeProgramFeesRecord | ErrorBody]
) -> EnvelopeProgramFeesRecord | ErrorBody | None:
    if not client.raise_on_error:
        return response.parsed
    if isinstance(response.parsed, ErrorBody):
        raise errors.ApiError(response.status_code, response.parsed)
    if response.parsed is None:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return response.parsed


async def asyncio_detailed(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ProgramFeesRequest,
) -> Response[EnvelopeProgramFeesRecord | ErrorBody]:
    """Set a program's fees over the fee schedule

     The fees the program's cardholders pay instead of the schedule's (scope `catalogue`),
    replaced as a whole: amounts as the schedule's (fixed in the card's or account's
    currency, percents as `1.25`). Their `/dictionary/fees` shows them; their next purchases
    and authorizations are charged them. A cardholder's own override still comes first.
    Audited.

    Args:
        program_uuid (str | UUID): The program's uuid
        body (ProgramFeesRequest): The program's fees, replaced as a whole: a field left out (or
            `null`) is not overridden,
            so its cardholders pay the schedule's; `{}` removes every override. Example:
            {'card_decline': 0.25, 'card_fx': 1.5, 'topup_percent': 1}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnvelopeProgramFeesRecord | ErrorBody]
    """

    kwargs = _get_kwargs(
        program_uuid=program_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


@overload
async def asyncio(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[True]],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord: ...


@overload
async def asyncio(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Literal[False]],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord | ErrorBody | None: ...


async def asyncio(
    program_uuid: str | UUID,
    *,
    client: AuthenticatedClient[Any],
    body: ProgramFeesRequest,
) -> EnvelopeProgramFeesRecord | ErrorBody | None:
    """Set a program's fees over the fee schedule

     The fees the program's cardholders pay instead of the schedule's (scope `catalogue`),
    replaced as a whole: amounts as the schedule's (fixed in the card's or account's
    currency, percents as `1.25`). Their `/dictionary/fees` shows them; their next purchases
    and authorizations are charged them. A cardholder's own override still comes first.
    Audited.

    Args:
        program_uuid (str | UUID): The program's uuid
        body (ProgramFeesRequest): The program's fees, replaced as a whole: a field left out (or
            `null`) is not overridden,
            so its cardholders pay the schedule's; `{}` removes every override. Example:
            {'card_decline': 0.25, 'card_fx': 1.5, 'topup_percent': 1}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnvelopeProgramFeesRecord | ErrorBody
    """

    response = await asyncio_detailed(
        program_uuid=program_uuid,
        client=client,
        body=body,
    )
    return _answer(client, response)
