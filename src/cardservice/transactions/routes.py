"""HTTP routes of the transactions package."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["transactions"])
