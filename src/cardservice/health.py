"""Liveness (`/health`, no I/O), readiness (`/ready`, the database answers), `/metrics`."""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import BaseModel

from cardservice import metrics
from cardservice.db import Db
from cardservice.openapi import PUBLIC, Envelope
from cardservice.web import JSONResponse, ok

router = APIRouter(tags=["health"])


class HealthRecord(BaseModel):
    status: str


@router.get("/health", response_model=Envelope[HealthRecord], openapi_extra=PUBLIC)
async def get_health() -> JSONResponse:
    """The process is up (no database round trip: the read ceiling of this stack)."""
    return ok({"status": "ok"})


@router.get("/ready", response_model=Envelope[HealthRecord], openapi_extra=PUBLIC)
async def get_readiness(db: Db) -> JSONResponse:
    """The database answers; 503 while it does not."""
    try:
        await db.reader.value("SELECT 1")
    except Exception:
        return JSONResponse(
            {"success": False, "message": "The database is unavailable.", "code": "not_ready"},
            status_code=503,
        )
    return ok({"status": "ready"})


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics() -> Response:
    """Prometheus text of every worker (unauthenticated: expose it to the scraper only)."""
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)
