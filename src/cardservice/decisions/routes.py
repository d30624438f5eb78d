"""PUT/GET/DELETE /authorization-endpoint (docs/controls.md#the-decision-endpoint)."""

from __future__ import annotations

from fastapi import Request

from cardservice.auth.dependencies import CallerA
from cardservice.decisions import endpoints
from cardservice.decisions.schemas import AuthorizationEndpointRecord, AuthorizationEndpointRequest
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Done, Envelope
from cardservice.http.router import JSONResponse, Router, body_schema, done, ok, read_json
from cardservice.infra.outbound import check_url, new_secret

router = Router(tags=["authorization endpoint"])
PATH = "/authorization-endpoint"


@router.put(
    PATH,
    response_model=Envelope[AuthorizationEndpointRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(AuthorizationEndpointRequest)},
    summary="Set the endpoint that decides the caller's authorizations (returns its secret)",
)
async def set_authorization_endpoint(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Ask this URL to approve or decline each of the caller's authorizations that passes every
    rule. The request is signed as webhooks are (Standard Webhooks, type
    `authorization.request`) with the secret returned here; the endpoint answers `{"approved":
    true|false, "reason"?}` within `timeout_ms`, else `on_timeout` applies. Replaces any
    endpoint set before."""
    body = await read_json(request, AuthorizationEndpointRequest)
    await check_url(body.url, request.app.state.settings.private_urls_allowed)
    cipher, secret = request.app.state.cipher, new_secret()
    return ok(
        await db.transact(
            lambda tx: endpoints.put_endpoint(tx, cipher, caller.user_uuid, body, secret)
        )
    )


@router.get(
    PATH,
    response_model=Envelope[AuthorizationEndpointRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="The caller's decision endpoint, its stand-in and recent failures",
)
async def get_authorization_endpoint(caller: CallerA, db: Db) -> JSONResponse:
    """The caller's decision endpoint (URL, timeout, `on_timeout`), whether it is in stand-in
    (`stand_in_until`: skipped after 5 consecutive failures, for 60 s) and its recent failures.
    404 when none is set."""
    return ok(await endpoints.get_endpoint(db.reader, caller.user_uuid))


@router.delete(
    PATH,
    response_model=Done,
    openapi_extra=BEARER_OR_MFA,
    summary="Stop asking an endpoint: the rules alone decide",
)
async def delete_authorization_endpoint(caller: CallerA, db: Db) -> JSONResponse:
    """Stop asking the decision endpoint: from now on the rules alone decide the caller's
    authorizations."""
    await db.transact(lambda tx: endpoints.delete_endpoint(tx, caller.user_uuid))
    return done()
