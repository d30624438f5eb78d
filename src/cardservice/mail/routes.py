"""The mail endpoints (docs/mail.md): the caller's notification preferences, and the sign-in
link by mail."""

from __future__ import annotations

from fastapi import BackgroundTasks, Request

from cardservice.auth.dependencies import CallerA
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, PUBLIC, Envelope
from cardservice.http.router import JSONResponse, Router, body_schema, ok, read_json
from cardservice.mail import service
from cardservice.mail.schemas import (
    NotificationsRecord,
    NotificationsRequest,
    SignInAccepted,
    SignInRequest,
)
from cardservice.models.base import utcnow

router = Router(tags=["users"])
SIGN_IN_ANSWER = "If this address is a user's, a sign-in link is on its way; it works once."


@router.get(
    "/user/notifications",
    response_model=Envelope[NotificationsRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Which mails the caller gets",
)
async def get_notifications(caller: CallerA, db: Db) -> JSONResponse:
    """Each kind of mail on or off, and the amount from which a purchase is mailed."""
    return ok(await service.get_preferences(db.reader, caller.user_uuid))


@router.put(
    "/user/notifications",
    response_model=Envelope[NotificationsRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(NotificationsRequest)},
    summary="Turn kinds of mail on or off",
)
async def put_notifications(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """`{kind: true|false}` for any of `declined_payment`, `large_purchase` (with
    `large_purchase_amount`), `team_request_decided`, `receipt_reminder`, `request_to_decide`;
    kinds left out stay. `sign_in` is not optional (`false` → 422); an unknown kind → 422."""
    body = await read_json(request, NotificationsRequest)
    user, now = caller.user_uuid, utcnow()
    return ok(await db.transact(lambda tx: service.put_preferences(tx, user, body, now)))


@router.post(
    "/app/sign-in",
    status_code=202,
    response_model=Envelope[SignInAccepted],
    openapi_extra={**PUBLIC, **body_schema(SignInRequest)},
    summary="Mail a one-time dashboard sign-in link",
)
async def request_sign_in(request: Request, db: Db) -> JSONResponse:
    """Answers 202 and the same body whether the address is a user's or not; the link is
    queued after the answer is sent, mailed when mail is configured (`CARDSERVICE_SMTP_URL`),
    works once, for 15 minutes. At most 5 links a person per 15 minutes."""
    body = await read_json(request, SignInRequest)
    response = ok({"message": SIGN_IN_ANSWER}, status_code=202)
    if request.app.state.settings.smtp_url:  # after the answer: its time tells nothing
        after = BackgroundTasks()
        after.add_task(service.request_sign_in, db, body.email, utcnow())
        response.background = after
    return response
