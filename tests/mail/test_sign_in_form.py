"""The login page's email form (docs/mail.md#the-sign-in-link-by-mail): the same neutral answer
(202) for a user's address and for any other, the link mailed through a real SMTP server for
the user only, and that link signs in; an address too short to be one is shown by its field.
Without mail configured the page offers no email form."""

from __future__ import annotations

import html
import uuid

import httpx
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import make_user
from tests.mail.inbox import Inbox
from tests.mail.test_mail import KNOWN_ANSWER, _secret, _use_link
from tests.teams.team import rows


async def _ask(client: httpx.AsyncClient, email: str) -> httpx.Response:
    await client.get("/app/login")
    form = {"csrf_token": client.cookies["cs_csrf"], "email": email}
    return await client.post("/app/login/email", data=form)


def _notice(page: httpx.Response) -> str:
    start = page.text.index('data-testid="mailed">') + len('data-testid="mailed">')
    return html.unescape(page.text[start : page.text.index("</p>", start)])


async def test_the_login_page_mails_a_link_and_answers_every_address_alike(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    login = await client.get("/app/login")
    assert 'action="/app/login/email"' in login.text and 'type="email"' in login.text
    unknown = await _ask(client, f"nobody-{uuid.uuid4().hex[:8]}@example.com")
    known = await _ask(client, user.email)
    assert unknown.status_code == known.status_code == 202
    assert _notice(unknown) == _notice(known) and _notice(known).startswith(KNOWN_ANSWER)
    [mail] = await inbox.wait_for(1)
    assert mail["To"] == user.email
    assert await rows(app, "SELECT kind FROM mails") == [("sign_in",)]  # none for nobody
    assert await _use_link(client, await _secret(mail)) == 303


async def test_an_address_too_short_is_shown_by_its_field(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    refused = await _ask(client, "a@")
    assert refused.status_code == 422
    assert 'id="email-error"' in refused.text and 'aria-invalid="true"' in refused.text
    assert 'value="a@"' in refused.text
    assert await rows(app, "SELECT 1 FROM mails") == []


async def test_without_mail_the_login_page_has_no_email_form(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    app.state.settings = settings.model_copy(update={"smtp_url": ""})
    page = await client.get("/app/login")
    assert page.status_code == 200 and "/app/login/email" not in page.text
