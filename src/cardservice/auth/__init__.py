"""Bearer tokens, MFA codes and the dependencies that check them."""

from __future__ import annotations

from cardservice.auth.credentials import (
    Principal,
    TokenCache,
    digest,
    forget_cached_callers,
    issue_mfa_code,
    issue_token,
    principal_for_token,
    prune_credentials,
    revoke_mfa_codes,
    revoke_named_token,
    revoke_token,
    token_by_secret,
    token_issuer,
    use_step_up_code,
)
from cardservice.auth.visibility import readable_by

__all__ = [
    "Principal",
    "TokenCache",
    "digest",
    "forget_cached_callers",
    "issue_mfa_code",
    "issue_token",
    "principal_for_token",
    "prune_credentials",
    "readable_by",
    "revoke_mfa_codes",
    "revoke_named_token",
    "revoke_token",
    "token_by_secret",
    "token_issuer",
    "use_step_up_code",
]
