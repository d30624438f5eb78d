"""Creating users and teams, and finding them for the CLI."""

from __future__ import annotations

import re
import uuid

from cardservice.db.sql import Tx
from cardservice.errors import NotFound, ServiceError, ValidationFailed
from cardservice.models.base import utcnow
from cardservice.users import repository

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
ROLES = ("owner", "member")


class EmailTaken(ServiceError):
    status_code, code, message = 409, "email_taken", "A user with this email exists."


async def create_user(
    tx: Tx,
    email: str,
    name: str,
    team: str | None = None,
    role: str | None = None,
    program_uuid: uuid.UUID | None = None,
) -> uuid.UUID:
    """A new user, joining (or founding) `team` with `role` when given, in `program_uuid`
    when given (it must exist); its uuid. An email in use → 409 `email_taken`."""
    email = email.strip().lower()
    errors: dict[str, list[str]] = {}
    if not EMAIL_PATTERN.match(email) or len(email) > 254:
        errors["email"] = ["must be an email address"]
    if not name.strip() or len(name) > 120:
        errors["name"] = ["must be 1..120 characters"]
    if (team is None) != (role is None):
        errors["role"] = ["team and role come together"]
    if role is not None and role not in ROLES:
        errors["role"] = ["must be owner or member"]
    if program_uuid is not None and not await repository.program_exists(tx, program_uuid):
        errors["program_uuid"] = ["no such program"]
    if errors:
        raise ValidationFailed(errors=errors)
    if await repository.user_by_email(tx, email) is not None:
        raise EmailTaken()
    team_uuid = await _team(tx, team) if team else None
    user_uuid = uuid.uuid4()
    await repository.insert_user(
        tx, user_uuid, email, name.strip(), (team_uuid, role), program_uuid, utcnow()
    )
    return user_uuid


async def _team(tx: Tx, name: str) -> uuid.UUID:
    found = await repository.team_by_name(tx, name)
    if found is not None:
        return found
    team_uuid = uuid.uuid4()
    await repository.insert_team(tx, team_uuid, name, utcnow())
    return team_uuid


async def user_by_email(tx: Tx, email: str) -> uuid.UUID:
    """The uuid of the user with this email; 404 when there is none."""
    found = await repository.user_by_email(tx, email.strip().lower())
    if found is None:
        raise NotFound(f"No user with email {email}.")
    return found
