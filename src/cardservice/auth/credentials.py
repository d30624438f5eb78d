"""Issuing, revoking, checking and pruning credentials; only SHA-256 hashes are ever stored.

MFA codes (docs/api.md#hardening): at most `MAX_LIVE_MFA_CODES` live per user (issuing one more
revokes the oldest); a code minted with a bearer token dies with that token (revoked or expired);
expired and revoked tokens and codes are deleted `PRUNE_AFTER` later.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from cardservice.auth import repository
from cardservice.db.sql import Reader, Row, Tx, as_datetime, as_uuid, text_uuid
from cardservice.errors import NotFound
from cardservice.models.base import utcnow

TOKEN_PREFIX = "cs_"  # noqa: S105 - a public marker, not a secret
TOKEN_BYTES = 32
PREFIX_LENGTH = len(TOKEN_PREFIX) + 8
MFA_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
MFA_LENGTH = 10  # 31**10 ≈ 2**49.5
MAX_LIVE_MFA_CODES = 20
PRUNE_AFTER = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, with which scheme (`bearer` or `mfa`) and which credential."""

    user_uuid: uuid.UUID
    team_uuid: uuid.UUID | None
    role: str | None
    scheme: str
    credential_hash: str
    token_uuid: uuid.UUID | None  # the bearer token's id; None for an MFA code

    @property
    def is_team_owner(self) -> bool:
        return self.team_uuid is not None and self.role == "owner"

    @property
    def owned_team(self) -> uuid.UUID | None:
        """The team whose users' objects the caller reads (`visibility.readable_by`): theirs
        when they own it, else None."""
        return self.team_uuid if self.is_team_owner else None

    @property
    def limit_key(self) -> str:
        """The rate-limit bucket: each token its own, a user's MFA codes one together."""
        if self.scheme == "mfa":
            return f"mfa:{self.user_uuid}"
        return f"token:{self.credential_hash}"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def issue_token(
    tx: Tx,
    user_uuid: uuid.UUID,
    name: str,
    expires_in: timedelta | None,
    issued_by_key: uuid.UUID | None = None,
) -> tuple[uuid.UUID, str]:
    """Create a bearer token: its id and its plaintext, returned once and never stored.
    `issued_by_key`: the operator key that asked for it, remembered for the audit trail."""
    plaintext = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    token_uuid, now = uuid.uuid4(), utcnow()
    expires_at = now + expires_in if expires_in else None
    hashed, prefix = digest(plaintext), plaintext[:PREFIX_LENGTH]
    await repository.insert_token(
        tx, token_uuid, user_uuid, name, hashed, prefix, expires_at, now, issued_by_key
    )
    return token_uuid, plaintext


async def token_issuer(tx: Tx, token_uuid: uuid.UUID) -> dict[str, str] | None:
    """The operator key that issued a bearer token, as an audit row names it (`uuid`,
    `name`, `prefix`: never the key); None for a token no key issued."""
    row = await repository.issuer_of_token(tx, token_uuid)
    if row is None:
        return None
    return {"uuid": str(text_uuid(row["uuid"])), "name": row["name"], "prefix": row["prefix"]}


async def revoke_token(tx: Tx, prefix_or_id: str) -> int:
    """Revoke the live tokens whose id or visible prefix matches, and the MFA codes they
    minted; returns how many tokens."""
    try:
        token_id: uuid.UUID | None = uuid.UUID(prefix_or_id)
    except ValueError:
        if len(prefix_or_id) < PREFIX_LENGTH:
            raise NotFound("Give the token's id or at least its first 11 characters.") from None
        token_id = None
    now = utcnow()
    forget_cached_callers()
    revoked = await repository.revoke_tokens(tx, now, prefix_or_id[:PREFIX_LENGTH], token_id)
    if not revoked:
        raise NotFound("No active token matches.")
    for token in revoked:
        await repository.revoke_codes_of_token(tx, now, token)
    return len(revoked)


async def revoke_named_token(tx: Tx, secret: str, name: str) -> None:
    """Revoke the live token `secret` if it carries `name` (a session's own token: a pasted
    API token is never touched)."""
    forget_cached_callers()
    await repository.revoke_named_token(tx, utcnow(), digest(secret), name)


async def token_by_secret(tx: Tx, secret: str) -> Row | None:
    """The token whose plaintext is `secret` (uuid, user_uuid, expires_at, revoked_at), live
    or not."""
    return await repository.token_by_hash(tx, digest(secret))


async def issue_mfa_code(
    tx: Tx, user_uuid: uuid.UUID, ttl: timedelta, token_uuid: uuid.UUID | None = None
) -> tuple[str, datetime]:
    """Create a short-lived MFA code (dying with `token_uuid` when given); the plaintext is
    returned once. The user's oldest live codes beyond `MAX_LIVE_MFA_CODES` are revoked."""
    code = "".join(secrets.choice(MFA_ALPHABET) for _ in range(MFA_LENGTH))
    now = utcnow()
    await repository.insert_code(tx, user_uuid, digest(code), token_uuid, now + ttl, now)
    for oldest in (await repository.live_codes(tx, user_uuid, now))[MAX_LIVE_MFA_CODES:]:
        await repository.revoke_code(tx, now, oldest)
    await prune_credentials(tx, now, user_uuid)
    return code, now + ttl


async def use_step_up_code(tx: Tx, user_uuid: uuid.UUID, code: str, now: datetime) -> bool:
    """Use up a live MFA code of this user as a step-up
    (docs/security.md#card-details-cvv2-and-issuer-keys): True when it was one, and it is revoked at
    once (one statement: two concurrent uses cannot both win). A wrong, expired, revoked, used or
    another user's code is False."""
    return await repository.use_step_up(tx, digest(code.strip().upper()), user_uuid, now)


async def revoke_mfa_codes(tx: Tx, user_uuid: uuid.UUID) -> int:
    """Revoke every live MFA code of the user; returns how many."""
    return await repository.revoke_codes_of_user(tx, utcnow(), user_uuid)


async def prune_credentials(tx: Tx, now: datetime, user_uuid: uuid.UUID | None = None) -> int:
    """Delete the codes and tokens that expired or were revoked more than `PRUNE_AFTER`
    before `now` (only that user's codes, when given); returns how many rows went. A token
    goes with every code it minted (a code may outlive its token's expiry on paper)."""
    return await repository.prune(tx, now - PRUNE_AFTER, user_uuid)


_revocations = 0  # bumped by every revocation in this process: all cached callers go


def forget_cached_callers() -> None:
    """A token was revoked here: no cache of this process answers for any token any more."""
    global _revocations
    _revocations += 1


class TokenCache:
    """Bearer callers remembered for `seconds` (docs/security.md, "The token cache"), so a
    request does not pay a database round trip to learn who is calling. A token revoked by
    this process stops at once (`forget_cached_callers`); one revoked by another instance or
    by the CLI works at most `seconds` longer. A token's own expiry is checked on every use.
    Unknown tokens are never cached: every failure reaches the database and the limits."""

    def __init__(self, seconds: float, size: int = 10_000) -> None:
        self.seconds, self.size = seconds, size
        self._entries: OrderedDict[str, tuple[Principal, datetime | None, float, int]] = (
            OrderedDict()
        )

    def get(self, hashed: str) -> Principal | None:
        entry = self._entries.get(hashed)
        if entry is None:
            return None
        principal, expires_at, until, generation = entry
        if generation != _revocations or until <= time.monotonic():
            del self._entries[hashed]
            return None
        if expires_at is not None and expires_at <= utcnow():
            return None
        return principal

    def put(self, hashed: str, principal: Principal, expires_at: datetime | None) -> None:
        if self.seconds <= 0:
            return
        self._entries[hashed] = (
            principal,
            expires_at,
            time.monotonic() + self.seconds,
            _revocations,
        )
        self._entries.move_to_end(hashed)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


async def principal_for_token(
    reader: Reader, token: str, cache: TokenCache | None = None
) -> Principal | None:
    """The caller of a bearer token that exists, is not revoked and has not expired."""
    hashed = digest(token)
    if cache is not None and (known := cache.get(hashed)) is not None:
        return known
    row = await repository.bearer_caller(reader, hashed)
    if row is None:
        return None
    expires_at = as_datetime(row["expires_at"])
    if expires_at is not None and expires_at <= utcnow():
        return None
    principal = _principal(row, "bearer", hashed, as_uuid(row["token_uuid"]))
    if cache is not None:
        cache.put(hashed, principal, expires_at)
    return principal


async def principal_for_mfa_code(reader: Reader, code: str) -> Principal | None:
    """The caller of a live MFA code: not revoked, not expired, and its token alive."""
    hashed = digest(code.strip().upper())
    row = await repository.mfa_caller(reader, hashed, utcnow())
    return None if row is None else _principal(row, "mfa", hashed, None)


def _principal(row: Row, scheme: str, hashed: str, token_uuid: uuid.UUID | None) -> Principal:
    return Principal(
        as_uuid(row["uuid"]),  # type: ignore[arg-type]
        as_uuid(row["team_uuid"]),
        row["role"],
        scheme,
        hashed,
        token_uuid,
    )
