"""HTTP routes of the attachments package."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["attachments"])
