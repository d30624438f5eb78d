"""Liveness (`/health`, no I/O), readiness (`/ready`, the database answers), `/metrics`."""

from __future__ import annotations

import secrets

from fastapi import Request, Response
from pydantic import BaseModel

from cardservice.auth.dependencies import count_failed_attempt
from cardservice.db.sql import ping
from cardservice.errors import RateLimited, Unauthenticated
from cardservice.http.database import Db
from cardservice.http.openapi import PUBLIC, Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.ledger.sealer import seal_lag
from cardservice.observability import metrics

router = Router(tags=["health"])


class HealthRecord(BaseModel):
    status: str


class ReadyRecord(BaseModel):
    status: str
    redis: str  # "ok" | "degraded" (Redis unreachable: limits in process) | "off" (no Redis set)


@router.get("/health", response_model=Envelope[HealthRecord], openapi_extra=PUBLIC)
async def get_health() -> JSONResponse:
    """The process is up (no database round trip: the read ceiling of this stack)."""
    return ok({"status": "ok"})


@router.get("/ready", response_model=Envelope[ReadyRecord], openapi_extra=PUBLIC)
async def get_readiness(request: Request, db: Db) -> JSONResponse:
    """The database answers (503 while it does not). Redis only degrades: the service keeps
    serving on in-process limits, so `/ready` stays 200 and says `"redis": "degraded"`
    (`"ok"` when it answers, `"off"` when no Redis is configured)."""
    try:
        await ping(db.reader)
    except Exception:
        return JSONResponse(
            {"success": False, "message": "The database is unavailable.", "code": "not_ready"},
            status_code=503,
        )
    redis = await request.app.state.rate_limiter.redis_status()
    return ok(ReadyRecord(status="ready", redis=redis or "off").model_dump())


async def _check_scraper(request: Request) -> None:
    """With `CARDSERVICE_METRICS_TOKEN` set, the scrape must send it as a bearer token
    (401 otherwise; a wrong one counts as a failed authentication of the address)."""
    expected = request.app.state.settings.metrics_token
    if not expected:
        return
    scheme, _, sent = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and secrets.compare_digest(
        sent.strip().encode(), expected.encode()
    ):
        return
    if sent:
        allowance = await count_failed_attempt(request)
        if not allowance.allowed:
            metrics.count_rate_limited("auth_failures")
            raise RateLimited(allowance.retry_after)
    raise Unauthenticated("The metrics token is required.")


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request, db: Db) -> Response:
    """Prometheus text of every worker; open unless `CARDSERVICE_METRICS_TOKEN` is set. The
    ledger's seal lag is read from the database as the scrape is served (-1 when it does
    not answer: the scrape still serves the rest)."""
    await _check_scraper(request)
    try:
        lag = await seal_lag(db.reader)
    except Exception:
        lag = -1.0
    metrics.set_seal_lag(lag)
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)
