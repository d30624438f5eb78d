"""HTTP routes of the payments package."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["payments"])
