"""HTTP routes of the users package."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["users"])
