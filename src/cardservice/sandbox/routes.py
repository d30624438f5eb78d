"""HTTP routes of the sandbox package."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["sandbox"])
