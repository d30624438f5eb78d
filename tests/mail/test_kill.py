"""A `cardservice worker` killed (SIGKILL) while the SMTP server holds its answer to two
messages it has already been handed — the moment between sending and marking sent — and a new
worker started: every mail arrives, those two twice with the same Message-ID (SMTP cannot
tell a sender that lost its connection whether the message arrived: at least once,
docs/mail.md#delivery), the mail marked sent before the kill and the one queued while no
worker ran exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter

import httpx
from fastapi import FastAPI

from cardservice.config import Settings
from tests.conftest import TEST_CVK, TEST_KEY
from tests.factories import authorize, make_user
from tests.mail.conftest import MAIL_FROM, PUBLIC_URL
from tests.mail.inbox import Inbox
from tests.teams.team import member_card, rows


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
        "CARDSERVICE_WEBHOOK_LEASE_SECONDS": "1",  # a killed worker's mails are taken again soon
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "cardservice", "worker"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def _statuses(app: FastAPI) -> list[str]:
    return [row[0] for row in await rows(app, "SELECT status FROM mails ORDER BY id")]


async def _until(app: FastAPI, wanted: list[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while await _statuses(app) != wanted:
        assert time.monotonic() < deadline, await _statuses(app)
        await asyncio.sleep(0.05)


async def _decline(client: httpx.AsyncClient, user: object, card: str) -> None:
    declined = await authorize(client, user, card, "5000")  # type: ignore[arg-type]
    assert declined.json()["data"]["status"] == "declined"


async def test_a_worker_killed_between_sending_and_marking_sends_again_with_the_same_message_id(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings, inbox: Inbox
) -> None:
    user = await make_user(app)
    card = await member_card(app, client, user, start="10")
    worker = _worker(settings, inbox)
    try:
        await _decline(client, user, card)
        await inbox.wait_for(1)
        await _until(app, ["sent"])
        inbox.hold()  # the server keeps the next messages but does not answer
        await _decline(client, user, card)
        await _decline(client, user, card)
        await inbox.wait_for(3)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        worker.kill()
        worker.wait(timeout=30)
    inbox.release()
    assert await _statuses(app) == ["sent", "pending", "pending"]  # never marked
    await _decline(client, user, card)  # queued while no worker runs
    worker = _worker(settings, inbox)
    try:
        await _until(app, ["sent"] * 4)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    arrived = Counter(m["Message-ID"] for m in inbox.messages)
    domain = MAIL_FROM.partition("@")[2]
    mails = [
        uuid.UUID(str(row[0])) for row in await rows(app, "SELECT uuid FROM mails ORDER BY id")
    ]
    # each mail's Message-ID: the one sent before the kill once, the two held twice, the last once
    assert [arrived[f"<{mail}@{domain}>"] for mail in mails] == [1, 2, 2, 1]
    assert sum(arrived.values()) == len(inbox.messages) == 6
    assert await rows(app, "SELECT DISTINCT attempts FROM mails WHERE attempts > 1") == [(2,)]
