"""FastAPI dependencies for the seed's authorization codes: A (bearer or MFA), B (bearer).

Order (docs/api.md#errors and docs/api.md#hardening):
1. no credentials at all → 401, whatever the address (nothing was attempted);
2. credentials are looked up; valid ones are never refused by the address's failure limit;
3. invalid credentials are counted against the client address
   (`AUTH_FAILURES_PER_MINUTE`): 401 within the limit, 429 once it is spent;
4. valid credentials of a scheme the endpoint refuses → 403;
5. the credential's own limit (`RATE_LIMIT_PER_MINUTE`) → 429. A user's MFA codes share
   one bucket, so minting codes buys no extra requests.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cardservice.auth.address import address_key, client_address
from cardservice.auth.credentials import Principal, principal_for_mfa_code, principal_for_token
from cardservice.errors import Forbidden, RateLimited, Unauthenticated
from cardservice.http.ratelimit import Allowance
from cardservice.observability import metrics

MAX_CREDENTIAL_LENGTH = 256


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _refused(limit: str, retry_after: int) -> RateLimited:
    """The 429 for `limit` (counted in the metrics by the limit's name)."""
    metrics.count_rate_limited(limit)
    return RateLimited(retry_after)


async def _resolve(request: Request, *, bearer_only: bool) -> Principal:
    settings = request.app.state.settings
    limiter = request.app.state.rate_limiter
    token = _bearer(request)
    principal = await lookup_cardholder(request, token, None)
    if principal is None:  # the query string is parsed only when the token did not answer
        code = request.query_params.get("_code")
        if token is None and code is None:
            raise Unauthenticated()
        principal = await lookup_cardholder(request, None, code)
    if principal is None:
        allowance = await count_failed_attempt(request)
        if not allowance.allowed:
            raise _refused("auth_failures", allowance.retry_after)
        raise Unauthenticated("The credentials are missing, invalid, expired or revoked.")
    if bearer_only and principal.scheme != "bearer":
        raise Forbidden("This endpoint accepts a bearer token only, not an MFA code.")
    allowance = await limiter.hit(principal.limit_key, settings.rate_limit_per_minute)
    if not allowance.allowed:
        raise _refused("credential", allowance.retry_after)
    request.state.user_uuid = principal.user_uuid  # its text made where it is read (logs)
    return principal


async def lookup_cardholder(
    request: Request, token: str | None, code: str | None
) -> Principal | None:
    """The caller of the bearer token, else of the MFA code; None when neither is valid."""
    reader = request.app.state.db.reader
    principal: Principal | None = None
    if token is not None and len(token) <= MAX_CREDENTIAL_LENGTH:
        principal = await principal_for_token(reader, token, request.app.state.tokens)
    if principal is None and code is not None and len(code) <= MAX_CREDENTIAL_LENGTH:
        principal = await principal_for_mfa_code(reader, code)
    return principal


async def count_failed_attempt(request: Request) -> Allowance:
    """One more invalid credential from the request's client address (docs/api.md#hardening):
    refused once the address spent `AUTH_FAILURES_PER_MINUTE`. Valid credentials never count."""
    settings = request.app.state.settings
    address = address_key(client_address(request, settings.trusted_proxy_networks))
    allowance: Allowance = await request.app.state.rate_limiter.hit(
        f"authfail:{address}", settings.auth_failures_per_minute
    )
    return allowance


async def bearer_or_mfa(request: Request) -> Principal:
    """Authorization code A: a bearer token or an MFA code."""
    return await _resolve(request, bearer_only=False)


async def bearer_only(request: Request) -> Principal:
    """Authorization code B: a bearer token only (a valid MFA code gets 403)."""
    return await _resolve(request, bearer_only=True)


CallerA = Annotated[Principal, Depends(bearer_or_mfa)]
CallerB = Annotated[Principal, Depends(bearer_only)]
