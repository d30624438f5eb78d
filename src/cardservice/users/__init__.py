"""Users: creation, the user summary and the 3DS codes waiting for them."""

from __future__ import annotations

from cardservice.users.service import create_user, user_by_email
from cardservice.users.sessions import create_sign_in_link

__all__ = ["create_sign_in_link", "create_user", "user_by_email"]
