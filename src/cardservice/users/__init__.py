"""Users: creation, the user summary and the 3DS codes waiting for them."""

from __future__ import annotations

from cardservice.users.records import user_record
from cardservice.users.repository import team_by_name
from cardservice.users.service import create_user, user_by_email
from cardservice.users.sessions import (
    LINK_BYTES,
    LINK_LIFETIME,
    SESSION_LIFETIME,
    create_sign_in_link,
    sign_in_link_for,
)

__all__ = [
    "LINK_BYTES",
    "LINK_LIFETIME",
    "SESSION_LIFETIME",
    "create_sign_in_link",
    "create_user",
    "sign_in_link_for",
    "team_by_name",
    "user_by_email",
    "user_record",
]
