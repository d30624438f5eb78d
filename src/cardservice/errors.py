"""One error base with an HTTP status and a machine code; rendered as the docs/api.md#errors
body."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class ServiceError(Exception):
    """A refusal the client should see: `{"success": false, "message", "code"}`."""

    status_code = 400
    code = "bad_request"
    message = "The request was refused."

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        errors: Mapping[str, Sequence[str]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.message = message or type(self).message
        self.code = code or type(self).code
        self.errors = {field: list(msgs) for field, msgs in (errors or {}).items()}
        self.headers = dict(headers or {})
        super().__init__(self.message)

    def body(self) -> dict[str, object]:
        body: dict[str, object] = {"success": False, "message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


class BadRequest(ServiceError):
    status_code, code, message = 400, "bad_request", "The body is not a valid JSON object."


class Unauthenticated(ServiceError):
    status_code, code, message = 401, "unauthenticated", "Valid credentials are required."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message, headers={"WWW-Authenticate": "Bearer"})


class Forbidden(ServiceError):
    status_code, code, message = 403, "forbidden", "These credentials are not accepted here."


class NotFound(ServiceError):
    status_code, code, message = 404, "not_found", "Not found."


class MethodNotAllowed(ServiceError):
    status_code, code, message = 405, "method_not_allowed", "Method not allowed."


class IdempotencyConflict(ServiceError):
    status_code, code = 409, "idempotency_conflict"
    message = "This external_id was already used with a different request body."


class PayloadTooLarge(ServiceError):
    status_code, code, message = 413, "payload_too_large", "The request body is too large."


class UnsupportedMediaType(ServiceError):
    status_code, code = 415, "unsupported_media_type"
    message = "Send the body as application/json."


class ValidationFailed(ServiceError):
    status_code, code, message = 422, "validation_error", "The request has invalid fields."


class RuleViolation(ServiceError):
    """A business rule refused the operation; `code` is the rule's slug."""

    status_code, code, message = 422, "rule_violation", "The operation was refused."


class RateLimited(ServiceError):
    status_code, code, message = 429, "rate_limited", "Too many requests; slow down."

    def __init__(self, retry_after: int) -> None:
        super().__init__(headers={"Retry-After": str(max(1, retry_after))})


class DatabaseUnavailable(ServiceError):
    """The database cannot be reached (restarting, failing over): try again shortly."""

    status_code, code = 503, "database_unavailable"
    message = "The database is unavailable; retry shortly."
    RETRY_AFTER_SECONDS = 2

    def __init__(self) -> None:
        super().__init__(headers={"Retry-After": str(self.RETRY_AFTER_SECONDS)})


# The answers shared by the domains (accounts, cards, transactions), kept below all of them.


class AccountNotFound(NotFound):
    message = "Account not found."


class CardNotFound(NotFound):
    message = "Card not found."


class TransactionNotFound(NotFound):
    message = "Transaction not found"


class DisputeNotFound(NotFound):
    message = "Dispute not found."


class AccountInactive(RuleViolation):
    code, message = "account_inactive", "The account is not active."
