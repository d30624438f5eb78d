"""Mail to people through a real SMTP server (docs/mail.md): each kind arrives once, from the
background loop, after the change committed; a kind turned off sends nothing; the sign-in link
answers the same for any address, works once and expires; no mail carries a card number."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.teams.receipts import enforce_receipts
from cardservice.webhooks.worker import DeliveryWorker
from tests.cli.test_cli import Command
from tests.factories import Caller, authorize, bin_uuid, make_user
from tests.mail.conftest import MAIL_FROM, PUBLIC_URL
from tests.mail.inbox import Inbox
from tests.teams.team import call, make_team, member_account, member_card, rows

KNOWN_ANSWER = "If this address is a user's, a sign-in link is on its way; it works once."


@pytest.fixture
def cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    return Command(settings, monkeypatch, capsys)


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


async def pans(app: FastAPI) -> list[str]:
    found = await app.state.db.reader.rows("SELECT pan_ciphertext FROM cards")
    return [app.state.cipher.decrypt(row["pan_ciphertext"]) for row in found]


async def assert_no_card_number(app: FastAPI, inbox: Inbox) -> None:
    numbers = await pans(app)
    for message in inbox.messages:
        text = message.as_string()
        assert not any(pan in text or pan[:6] + "******" in text for pan in numbers)


async def sign_in(client: httpx.AsyncClient, email: str) -> httpx.Response:
    return await client.post(
        "/app/sign-in", json={"email": email}, headers={"Content-Type": "application/json"}
    )


async def test_each_kind_of_mail_arrives_once_with_last_four_digits_only(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    team = await make_team(app)
    member, owner = team.members[0], team.owner
    choose = {"large_purchase": True, "large_purchase_amount": 50}
    assert (await call(client, member, "PUT", "/user/notifications", choose)).status_code == 200
    card = await member_card(app, client, member, start="100")
    last4 = (await call(client, member, "GET", f"/card/{card}")).json()["data"]["last4"]
    assert (await authorize(client, member, card, "60")).json()["data"]["status"] == "pending"
    assert (await authorize(client, member, card, "10")).is_success  # under 50: no mail
    declined = await authorize(client, member, card, "5000")
    assert declined.json()["data"]["status"] == "declined"
    asked = await call(
        client, member, "POST", "/team/requests",
        {"kind": "card", "account_uuid": str(await member_account(app, member)),
         "bin_uuid": await bin_uuid(app),
         "start_balance": 20, "description": "Travel"},
    )  # fmt: skip
    assert asked.status_code == 201, asked.text
    decided = await call(
        client, owner, "POST", f"/team/requests/{asked.json()['data']['uuid']}/decline",
        {"reason": "not this month"},
    )  # fmt: skip
    assert decided.status_code == 200
    messages = await inbox.wait_for(4)
    by_subject = {m["Subject"]: m for m in messages}
    purchase = by_subject["Purchase: 60.00 USD at Netflix"]
    assert purchase["To"] == member.email and purchase["From"] == MAIL_FROM
    assert f"ending {last4}" in body(purchase) and "50.00 USD or more" in body(purchase)
    decline = by_subject["Declined: 5,000.00 USD at Netflix"]
    assert f"ending {last4}" in body(decline) and "Reason:" in body(decline)
    [to_decide] = inbox.to(owner.email)
    assert to_decide["Subject"] == "Test User asks for a card with 20.00 USD on it (Travel)"
    decided_mail = by_subject["Your request was declined"]
    assert decided_mail["To"] == member.email and "not this month" in body(decided_mail)
    assert all(f"{PUBLIC_URL}/app" in body(m) for m in messages)
    assert len({m["Message-ID"] for m in messages}) == len(messages) == 4
    await assert_no_card_number(app, inbox)


async def test_a_receipt_reminder_is_mailed(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    team = await make_team(app)
    member = team.members[0]
    policy = {"min_amount": 1, "currency": "USD", "remind_after_days": 1, "freeze_after_days": 5}
    assert (await call(client, team.owner, "PUT", "/team/receipt-policy", policy)).is_success
    card = await member_card(app, client, member)
    purchase = (await authorize(client, member, card, "30")).json()["data"]["uuid"]
    settled = await call(client, member, "POST", f"/sandbox/transactions/{purchase}/settle")
    assert settled.status_code == 201
    enforced = await enforce_receipts(app.state.db, utcnow() + timedelta(days=1, minutes=1))
    assert [str(p) for p in enforced.reminded] == [purchase]
    [reminder] = await inbox.wait_for(1)
    assert reminder["Subject"] == "Receipt missing: 30.00 USD at Netflix"
    assert reminder["To"] == member.email
    await assert_no_card_number(app, inbox)


async def test_a_kind_turned_off_sends_nothing(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    off = {"declined_payment": False}
    assert (await call(client, user, "PUT", "/user/notifications", off)).json()["data"][
        "declined_payment"
    ] is False
    card = await member_card(app, client, user, start="10")
    assert (await authorize(client, user, card, "500")).json()["data"]["status"] == "declined"
    on = {"large_purchase": True, "large_purchase_amount": 1}
    assert (await call(client, user, "PUT", "/user/notifications", on)).is_success
    await authorize(client, user, card, "5")  # the control: this one is mailed
    [only] = await inbox.wait_for(1)
    assert only["Subject"] == "Purchase: 5.00 USD at Netflix"
    kinds = await rows(app, "SELECT kind FROM mails")
    assert kinds == [("large_purchase",)]


async def _secret(message: EmailMessage) -> str:
    found = re.search(r"/app/login\?link=([A-Za-z0-9_\-]+)", body(message))
    assert found is not None
    return found.group(1)


async def _use_link(client: httpx.AsyncClient, secret: str) -> int:
    await client.get("/app/login", params={"link": secret})
    form = {"csrf_token": client.cookies["cs_csrf"], "link": secret}
    return (await client.post("/app/login/link", data=form)).status_code


async def test_a_sign_in_link_by_mail_works_once(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    nobody = f"nobody-{uuid.uuid4().hex[:8]}@example.com"
    unknown = await sign_in(client, nobody)
    known = await sign_in(client, user.email.upper())
    assert unknown.status_code == known.status_code == 202
    assert unknown.json() == known.json() == {"success": True, "data": {"message": KNOWN_ANSWER}}
    [mail] = await inbox.wait_for(1)
    assert mail["To"] == user.email and mail["Subject"] == "Your sign-in link"
    assert await rows(app, "SELECT kind FROM mails") == [("sign_in",)]  # none for `nobody`
    secret = await _secret(mail)
    assert f"{PUBLIC_URL}/app/login?link={secret}" in body(mail)
    assert secret not in str(await rows(app, "SELECT subject, body FROM mails"))  # not stored
    assert await _use_link(client, secret) == 303
    assert await _use_link(client, secret) == 401  # once


async def test_a_mailed_sign_in_link_expires(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    assert (await sign_in(client, user.email)).status_code == 202
    [mail] = await inbox.wait_for(1)

    async def expire(tx: Tx) -> None:
        past = utcnow() - timedelta(seconds=1)
        await tx.execute(
            "UPDATE sign_in_links SET expires_at = $1 WHERE user_uuid = $2", past, user.uuid
        )

    await app.state.db.transact(expire)
    assert await _use_link(client, await _secret(mail)) == 401


async def test_mails_are_counted_on_metrics(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    await sign_in(client, user.email)
    await inbox.wait_for(1)
    sent = await _metric(app, client)
    assert sent >= 1


async def _metric(app: FastAPI, client: httpx.AsyncClient) -> float:
    for _ in range(200):  # the outcome is recorded just after the server answered
        text = (await client.get("/metrics")).text
        found = re.search(r'cardservice_mails_total\{kind="sign_in",outcome="sent"\} (\S+)', text)
        if found:
            return float(found.group(1))
        await asyncio.sleep(0.05)
    raise AssertionError("no cardservice_mails_total series")


async def test_sign_in_refuses_a_body_that_is_not_an_email(client: httpx.AsyncClient) -> None:
    for bad in ({}, {"email": ""}, {"email": "a@b.c", "extra": 1}, {"email": 5}):
        answer = await client.post("/app/sign-in", json=bad)
        assert (answer.status_code, answer.json()["code"]) == (422, "validation_error"), bad


async def test_notification_preferences(app: FastAPI, client: httpx.AsyncClient) -> None:
    user: Caller = await make_user(app)
    defaults = (await call(client, user, "GET", "/user/notifications")).json()["data"]
    assert defaults == {
        "sign_in": True, "declined_payment": True, "large_purchase": False,
        "large_purchase_amount": None, "team_request_decided": True, "receipt_reminder": True,
        "request_to_decide": True,
    }  # fmt: skip
    changed = await call(
        client, user, "PUT", "/user/notifications",
        {"receipt_reminder": False, "large_purchase": True, "large_purchase_amount": 250.5},
    )  # fmt: skip
    assert changed.status_code == 200, changed.text
    expected = {**defaults, "receipt_reminder": False, "large_purchase": True,
                "large_purchase_amount": 250.5}  # fmt: skip
    assert changed.json()["data"] == expected
    for bad in (
        {"weekly_digest": True},  # no such kind
        {"sign_in": False},  # not optional
        {"declined_payment": None},
        {"declined_payment": "yes"},
        {"large_purchase_amount": None},  # large_purchase is on: it needs an amount
        {"large_purchase_amount": 1.234},
    ):
        refused = await call(client, user, "PUT", "/user/notifications", bad)
        assert (refused.status_code, refused.json()["code"]) == (422, "validation_error"), bad
    again = await call(client, user, "GET", "/user/notifications")
    assert again.json()["data"] == expected
    anonymous = await client.get("/user/notifications")
    assert anonymous.status_code == 401


async def test_sign_in_mails_are_limited_per_person(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    answers = [await sign_in(client, user.email) for _ in range(7)]
    assert {(a.status_code, a.text) for a in answers} == {(202, answers[0].text)}
    assert await rows(app, "SELECT count(*) FROM mails WHERE kind = 'sign_in'") == [(5,)]


async def _mail_row(app: FastAPI) -> tuple[object, ...]:
    [row] = await rows(app, "SELECT status, attempts, last_error FROM mails")
    return row


async def _until_row(
    app: FastAPI, done: Callable[[tuple[object, ...]], bool]
) -> tuple[object, ...]:
    """The mail's (status, attempts, last_error) once `done` holds (written by the loop)."""
    for _ in range(1200):
        row = await _mail_row(app)
        if done(row):
            return row
        await asyncio.sleep(0.05)
    raise AssertionError(await _mail_row(app))


async def test_a_mail_the_server_defers_is_sent_again_and_one_it_refuses_is_given_up(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    inbox.refusals.append("451 4.3.0 try again later")
    await sign_in(client, user.email)
    status, attempts, error = await _until_row(app, lambda row: row[2] is not None)
    assert (status, attempts) == ("pending", 1) and "451" in str(error)
    assert inbox.messages == []

    async def due_now(tx: Tx) -> None:  # the retry's 5 s, passed
        await tx.execute("UPDATE mails SET next_attempt_at = $1", utcnow())

    await app.state.db.transact(due_now)
    [mail] = await inbox.wait_for(1)
    assert mail["Subject"] == "Your sign-in link"
    assert (await _until_row(app, lambda row: row[0] == "sent"))[1] == 2

    async def forget(tx: Tx) -> None:
        await tx.execute("DELETE FROM mails")

    await app.state.db.transact(forget)
    inbox.refusals.append("550 5.1.1 no such mailbox")
    await sign_in(client, user.email)
    status, attempts, error = await _until_row(app, lambda row: row[2] is not None)
    assert (status, attempts) == ("failed", 1) and "550" in str(error)
    assert len(inbox.messages) == 1  # the refused one never arrived


async def test_a_mail_whose_answer_is_lost_after_data_is_never_sent_again_until_settled(
    app: FastAPI, client: httpx.AsyncClient, inbox: Inbox, worker: DeliveryWorker, cli: Command
) -> None:
    """The server reads the message's end and closes the connection unanswered (it kept
    nothing here, but the sender cannot know): `in_doubt`, counted, not retried by the loop
    (docs/mail.md#delivery); `cardservice mail in-doubt` lists it, and `settle --not-taken`
    (the server's log shows nothing) sends it once more."""
    user = await make_user(app)
    inbox.drop(user.email)
    in_doubt = ("cardservice_mails_total", {"kind": "sign_in", "outcome": "in_doubt"})
    before = REGISTRY.get_sample_value(in_doubt[0], in_doubt[1]) or 0
    await sign_in(client, user.email)
    status, attempts, error = await _until_row(app, lambda row: row[2] is not None)
    assert (status, attempts) == ("in_doubt", 1) and "Disconnected" in str(error)
    assert REGISTRY.get_sample_value(*in_doubt) == before + 1

    async def due_now(tx: Tx) -> None:  # any retry would be due: none comes
        await tx.execute("UPDATE mails SET next_attempt_at = $1", utcnow() - timedelta(hours=9))

    await app.state.db.transact(due_now)
    await asyncio.sleep(3 * app.state.settings.worker_poll_seconds + 0.3)
    assert await _mail_row(app) == ("in_doubt", 1, error) and inbox.messages == []
    [mail] = [u for (u,) in await rows(app, "SELECT uuid FROM mails")]
    code, out, _ = await cli("mail", "in-doubt")
    assert code == 0 and out.splitlines()[-1] == "1 in doubt"
    assert out.startswith(f"{uuid.UUID(str(mail))} sign_in {user.uuid} attempts=1 queued=")
    assert await cli.value("mail", "settle", str(uuid.UUID(str(mail))), "--not-taken") == (
        f"{uuid.UUID(str(mail))} pending"
    )
    [arrived] = await inbox.wait_for(1)
    assert arrived["Message-ID"] == f"<{uuid.UUID(str(mail))}@{MAIL_FROM.partition('@')[2]}>"
    assert (await _until_row(app, lambda row: row[0] == "sent"))[1] == 2
    refused = await cli.refused("mail", "settle", str(uuid.UUID(str(mail))), "--taken")
    assert "no mail in doubt with this uuid" in refused  # settled once
