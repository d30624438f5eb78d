"""Each mail sent once across a SIGKILL of the delivery loop (docs/mail.md#delivery), with the
kill landing where the test chooses: a `cardservice worker` sends five mails to a real SMTP
server; the server holds one session at `RCPT` (its client never reached `DATA`) and one
message after its end (the server has it; its answer never comes). The worker is killed
there and the loop started again (in the test's process): the first is sent again and
arrives once; the second — which may have arrived, as it did here — is never sent again but
handed to the operator (`in_doubt`, the log), who settles it from the server's log. Every
Message-ID arrives exactly once."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta

import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.mail.courier import ORPHANED
from cardservice.mail.service import mails_in_doubt, request_sign_in, settle_in_doubt
from cardservice.models.base import utcnow
from cardservice.webhooks.worker import running_worker
from tests.conftest import TEST_CVK, TEST_KEY
from tests.factories import make_user
from tests.mail.conftest import MAIL_FROM, PUBLIC_URL
from tests.mail.inbox import Inbox
from tests.teams.team import rows


def _worker(settings: Settings, inbox: Inbox) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": TEST_KEY,
        "CARDSERVICE_CVK": TEST_CVK,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_SMTP_URL": inbox.url,
        "CARDSERVICE_MAIL_FROM": MAIL_FROM,
        "CARDSERVICE_PUBLIC_URL": PUBLIC_URL,
        "CARDSERVICE_WEBHOOK_LEASE_SECONDS": "60",  # no lease ends by itself in this test
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "cardservice", "worker"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def _mails(app: FastAPI) -> list[tuple[str, int, bool]]:
    """(status, attempts, leased) of each mail, in queueing order."""
    found = await rows(app, "SELECT status, attempts, lease_until FROM mails ORDER BY id")
    return [(status, int(attempts), lease is not None) for status, attempts, lease in found]


async def _until(app: FastAPI, wanted: list[tuple[str, int, bool]], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while await _mails(app) != wanted:
        assert time.monotonic() < deadline, await _mails(app)
        await asyncio.sleep(0.05)


async def test_a_killed_worker_sends_each_mail_once_and_hands_the_one_in_doubt_to_the_operator(
    app: FastAPI, settings: Settings, inbox: Inbox, caplog: pytest.LogCaptureFixture
) -> None:
    db = app.state.db
    users = [await make_user(app) for _ in range(5)]
    for user in users:
        assert await request_sign_in(db, user.email, utcnow())
    before_data, after_data = users[1].email, users[2].email
    inbox.hold(before_data, at="rcpt")
    inbox.hold(after_data)
    worker = _worker(settings, inbox)
    try:
        sent, held = ("sent", 1, False), ("pending", 1, True)
        await _until(app, [sent, held, ("in_doubt", 1, True), sent, sent])
        assert inbox.held_at_rcpt == [before_data]
        assert before_data not in [m["To"] for m in inbox.messages]  # never reached DATA
        os.kill(worker.pid, signal.SIGKILL)  # one session at RCPT, one message unanswered
        worker.wait(timeout=30)
    finally:
        worker.kill()
        worker.wait(timeout=30)
    inbox.release()

    async def leases_ended(tx: Tx) -> None:  # the killed worker's 60 s, passed
        await tx.execute("UPDATE mails SET lease_until = $1 WHERE lease_until IS NOT NULL",
                         utcnow() - timedelta(seconds=1))  # fmt: skip

    await db.transact(leases_ended)
    state = app.state  # the loop started again: in this process (one process start less)
    with caplog.at_level(logging.WARNING, logger="cardservice.mail"):
        async with running_worker(db, state.settings, state.cipher, state.outbound, ()):
            await _until(app, [sent, ("sent", 2, False), ("in_doubt", 1, False), sent, sent])

    mails = [
        uuid.UUID(str(row[0])) for row in await rows(app, "SELECT uuid FROM mails ORDER BY id")
    ]
    domain = MAIL_FROM.partition("@")[2]
    arrived = Counter(m["Message-ID"] for m in inbox.messages)
    assert [arrived[f"<{mail}@{domain}>"] for mail in mails] == [1] * 5  # each exactly once
    assert len(inbox.messages) == 5
    assert [m["To"] for m in inbox.messages].count(before_data) == 1

    # the operator sees it: listed, logged by the new worker, and settles it from the
    # server's log (the Message-ID is there): sent, never sent again
    [doubt] = await mails_in_doubt(db.reader)
    assert doubt["last_error"] == ORPHANED
    assert (doubt["uuid"], doubt["kind"], doubt["held"]) == (str(mails[2]), "sign_in", False)
    assert doubt["user_uuid"] == str(users[2].uuid)
    [logged] = [r for r in caplog.records if r.getMessage() == "mail in doubt"]
    assert (getattr(logged, "mail_uuid"), getattr(logged, "outcome")) == (str(mails[2]), "in_doubt")
    ours = [r for r in caplog.records if r.name.startswith("cardservice")]
    assert all(after_data not in str(r.__dict__) for r in ours)  # no address in our log
    await settle_in_doubt(db, mails[2], True, utcnow())
    assert [status for status, _, _ in await _mails(app)] == ["sent"] * 5
    assert await mails_in_doubt(db.reader) == []
