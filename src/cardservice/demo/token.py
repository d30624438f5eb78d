"""The demo owner's bearer token, kept in `<var_dir>/demo-token` and reused while it is valid.

`cardservice demo` (and so every `make run`) prints the kept token again while it is the demo
owner's, not revoked, and valid for at least `RENEW_BEFORE` more; otherwise it revokes the
kept token (if still live) and issues a new one. So repeated runs leave one live demo token,
not one more each time.
"""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from cardservice.auth import issue_token, revoke_token, token_by_secret
from cardservice.db.sql import Tx, as_datetime, as_uuid

TOKEN_FILE = "demo-token"  # noqa: S105 - a file name
LIFETIME = timedelta(days=30)
RENEW_BEFORE = timedelta(days=1)


def token_path(var_dir: Path) -> Path:
    return var_dir / TOKEN_FILE


def read_kept(path: Path) -> str | None:
    """The token kept at `path`, if any."""
    try:
        kept = path.read_text().strip()
    except OSError:
        return None
    return kept or None


def keep(path: Path, token: str) -> None:
    """Write `token` to `path`, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_suffix(".new")
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(token + "\n")
    fresh.replace(path)


async def demo_token(tx: Tx, owner: uuid.UUID, kept: str | None, now: datetime) -> str:
    """`kept` while it is `owner`'s, live and valid past `now + RENEW_BEFORE`; else the kept
    token is revoked (when still live) and a new one issued."""
    row = await token_by_secret(tx, kept) if kept else None
    if row is not None and as_uuid(row["user_uuid"]) == owner and row["revoked_at"] is None:
        expires_at = as_datetime(row["expires_at"])
        if expires_at is None or expires_at > now + RENEW_BEFORE:
            assert kept is not None
            return kept
        await revoke_token(tx, str(as_uuid(row["uuid"])))
    _token_uuid, plaintext = await issue_token(tx, owner, "demo", LIFETIME)
    return plaintext
