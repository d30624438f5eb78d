"""Creating users and teams, and finding them for the CLI."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.errors import NotFound, ValidationFailed
from cardservice.models import Team, User

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
ROLES = ("owner", "member")


async def create_user(
    session: AsyncSession, email: str, name: str, team: str | None = None, role: str | None = None
) -> User:
    """A new user, joining (or founding) `team` with `role` when given."""
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
    if errors:
        raise ValidationFailed(errors=errors)
    if await session.scalar(select(User.uuid).where(User.email == email)) is not None:
        raise ValidationFailed(errors={"email": ["a user with this email exists"]})
    team_row = await _team(session, team) if team else None
    user = User(
        email=email, name=name.strip(), team_uuid=team_row.uuid if team_row else None, role=role
    )
    session.add(user)
    await session.flush()
    return user


async def _team(session: AsyncSession, name: str) -> Team:
    team = await session.scalar(select(Team).where(Team.name == name))
    if team is None:
        team = Team(name=name)
        session.add(team)
        await session.flush()
    return team


async def user_by_email(session: AsyncSession, email: str) -> User:
    user = await session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise NotFound(f"No user with email {email}.")
    return user
