"""Liveness (`/health`, no I/O) and readiness (`/ready`, the database answers)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from cardservice.db import Db
from cardservice.openapi import PUBLIC, Envelope
from cardservice.web import JSONResponse, ok

router = APIRouter(tags=["health"])


class HealthRecord(BaseModel):
    status: str


@router.get("/health", response_model=Envelope[HealthRecord], openapi_extra=PUBLIC)
async def health() -> JSONResponse:
    """The process is up (no database round trip: the read ceiling of this stack)."""
    return ok({"status": "ok"})


@router.get("/ready", response_model=Envelope[HealthRecord], openapi_extra=PUBLIC)
async def ready(db: Db) -> JSONResponse:
    """The database answers; 503 while it does not."""
    try:
        await db.reader.value("SELECT 1")
    except Exception:
        return JSONResponse(
            {"success": False, "message": "The database is unavailable.", "code": "not_ready"},
            status_code=503,
        )
    return ok({"status": "ready"})
