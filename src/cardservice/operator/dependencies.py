"""Who may call `/operator/*` and `/network/*` (docs/operations.md#running-a-program): a live
operator key with the route's scope.

Order, as for the cardholder's credentials (auth/dependencies.py): no credentials → 401;
an operator key that is unknown or revoked counts as a failed attempt of the address (401,
429 once the address spent its limit); a valid cardholder token or MFA code → 403 (valid
credentials of a scheme these routes do not accept); a key without the scope → 403; then
the key's own rate limit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request

from cardservice.auth.dependencies import (
    MAX_CREDENTIAL_LENGTH,
    count_failed_attempt,
    lookup_cardholder,
)
from cardservice.errors import Forbidden, RateLimited, Unauthenticated
from cardservice.observability import metrics
from cardservice.operator.acting import Acting, KeyHolder, acting_key
from cardservice.operator.api_keys import KEY_PREFIX, Operator, operator_for_key


def _credentials(request: Request) -> tuple[str | None, str | None]:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    token = value.strip() if scheme.lower() == "bearer" and value.strip() else None
    return token, request.query_params.get("_code")


async def _refuse_invalid(request: Request) -> Unauthenticated | RateLimited:
    allowance = await count_failed_attempt(request)
    if not allowance.allowed:
        metrics.count_rate_limited("auth_failures")
        return RateLimited(allowance.retry_after)
    return Unauthenticated("The credentials are missing, invalid or revoked.")


async def _operator(request: Request) -> Operator:
    token, code = _credentials(request)
    if token is None and code is None:
        raise Unauthenticated()
    if token is not None and token.startswith(KEY_PREFIX) and len(token) <= MAX_CREDENTIAL_LENGTH:
        operator = await operator_for_key(request.app.state.db.reader, token)
        if operator is not None:
            return operator
    elif await lookup_cardholder(request, token, code) is not None:
        raise Forbidden("These routes accept an operator key only, not a cardholder's credentials.")
    raise await _refuse_invalid(request)


def operator_with(scope: str, *others: str) -> Callable[[Request], Awaitable[Operator]]:
    """The dependency of a route that needs `scope` (or any one of `others`)."""
    scopes = (scope, *others)

    async def dependency(request: Request) -> Operator:
        operator = await _operator(request)
        if not any(one in operator.scopes for one in scopes):
            named = " or ".join(f"`{one}`" for one in scopes)
            raise Forbidden(f"This operator key lacks the {named} scope.")
        settings = request.app.state.settings
        allowance = await request.app.state.rate_limiter.hit(
            f"operator:{operator.key_hash}", settings.rate_limit_per_minute
        )
        if not allowance.allowed:
            metrics.count_rate_limited("credential")
            raise RateLimited(allowance.retry_after)
        request.state.operator_key = str(operator.key_uuid)
        return operator

    return dependency


OPERATOR_KEY: dict[str, Any] = {"security": [{"operatorKey": []}]}


def acting(request: Request, operator: KeyHolder) -> Acting:
    """The operator key of this request, and its request id."""
    return acting_key(operator, getattr(request.state, "request_id", None))
