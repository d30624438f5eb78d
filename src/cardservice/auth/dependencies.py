"""FastAPI dependencies for the seed's authorization codes: A (bearer or MFA), B (bearer).

Order (API.md §1.1): a client address over its failure limit is refused (429) before any
credential is looked at; then credentials (401/403); then the per-credential rate limit (429).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cardservice import metrics
from cardservice.auth.credentials import Principal, principal_for_mfa_code, principal_for_token
from cardservice.errors import Forbidden, RateLimited, Unauthenticated

MAX_CREDENTIAL_LENGTH = 256


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _refused(limit: str, retry_after: int) -> RateLimited:
    """The 429 for `limit` (counted in the metrics by the limit's name)."""
    metrics.count_rate_limited(limit)
    return RateLimited(retry_after)


async def _resolve(request: Request, *, bearer_only: bool) -> Principal:
    settings = request.app.state.settings
    limiter = request.app.state.rate_limiter
    token, code = _bearer(request), request.query_params.get("_code")
    if token is None and code is None:
        raise Unauthenticated()
    address_key = f"authfail:{_client_address(request)}"
    blocked = await limiter.exceeded(address_key, settings.auth_failures_per_minute)
    if not blocked.allowed:
        raise _refused("auth_failures", blocked.retry_after)
    principal: Principal | None = None
    reader = request.app.state.db.reader
    if token is not None and len(token) <= MAX_CREDENTIAL_LENGTH:
        principal = await principal_for_token(reader, token)
    if principal is None and code is not None and len(code) <= MAX_CREDENTIAL_LENGTH:
        principal = await principal_for_mfa_code(reader, code)
    if principal is None:
        verdict = await limiter.hit(address_key, settings.auth_failures_per_minute)
        if not verdict.allowed:
            raise _refused("auth_failures", verdict.retry_after)
        raise Unauthenticated("The credentials are missing, invalid, expired or revoked.")
    if bearer_only and principal.scheme != "bearer":
        raise Forbidden("This endpoint accepts a bearer token only, not an MFA code.")
    verdict = await limiter.hit(f"cred:{principal.credential_hash}", settings.rate_limit_per_minute)
    if not verdict.allowed:
        raise _refused("credential", verdict.retry_after)
    request.state.user_uuid = str(principal.user_uuid)
    return principal


async def bearer_or_mfa(request: Request) -> Principal:
    """Authorization code A: a bearer token or an MFA code."""
    return await _resolve(request, bearer_only=False)


async def bearer_only(request: Request) -> Principal:
    """Authorization code B: a bearer token only (a valid MFA code gets 403)."""
    return await _resolve(request, bearer_only=True)


CallerA = Annotated[Principal, Depends(bearer_or_mfa)]
CallerB = Annotated[Principal, Depends(bearer_only)]
