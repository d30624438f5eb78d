"""Receipts on transactions and the team's receipt policy
(docs/teams.md#teams-budgets-requests-receipts): linking and its refusals, the reminder once, the
freeze once, the unfreeze only when missing receipts were the card's only reason, and the job run by
two processes at once."""

from __future__ import annotations

import asyncio
import base64
import io
import os
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from PIL import Image

from cardservice.models.base import utcnow
from cardservice.teams.receipts import enforce_receipts
from tests.factories import Caller, authorize
from tests.teams.team import Team, call, events_of, make_team, member_card, rows

POLICY = {"min_amount": 20, "currency": "USD", "remind_after_days": 3, "freeze_after_days": 7}


def _png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (20, 90, 200)).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode()


async def upload(client: httpx.AsyncClient, user: Caller, type_: str = "receipt") -> str:
    answer = await call(client, user, "POST", "/attachment", {"type": type_, "file": _png()})
    assert answer.status_code == 201, answer.text
    uuid_: str = answer.json()["data"]["uuid"]
    return uuid_


async def captured(client: httpx.AsyncClient, member: Caller, card: str, amount: str) -> str:
    purchase: str = (await authorize(client, member, card, amount)).json()["data"]["uuid"]
    settled = await call(client, member, "POST", f"/sandbox/transactions/{purchase}/settle")
    assert settled.status_code == 201, settled.text
    return purchase


async def policy_team(client: httpx.AsyncClient, app: FastAPI) -> tuple[Team, str]:
    team = await make_team(app)
    answer = await call(client, team.owner, "PUT", "/team/receipt-policy", POLICY)
    assert answer.status_code == 200, answer.text
    return team, await member_card(app, client, team.members[0])


async def card_of(client: httpx.AsyncClient, member: Caller, card: str) -> dict[str, Any]:
    found: dict[str, Any] = (await call(client, member, "GET", f"/card/{card}")).json()["data"]
    return found


async def link(client: httpx.AsyncClient, user: Caller, purchase: str, attachment: str) -> Any:
    path = f"/transaction/{purchase}/receipt"
    return await call(client, user, "PUT", path, {"attachment_uuid": attachment})


async def test_a_receipt_is_linked_and_unlinked_by_the_transactions_holder(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    purchase = await captured(client, member, card, "30")
    receipt = await upload(client, member, "invoice")
    linked = await link(client, member, purchase, receipt)
    assert linked.status_code == 200, linked.text
    assert linked.json()["data"]["receipt_attachment_uuid"] == receipt
    shown = (await call(client, member, "GET", f"/transaction/{purchase}")).json()["data"]
    assert shown["receipt_attachment_uuid"] == receipt
    unlinked = await call(client, member, "DELETE", f"/transaction/{purchase}/receipt")
    assert unlinked.json()["data"]["receipt_attachment_uuid"] is None
    assert await rows(
        app, "SELECT receipt_attachment_uuid FROM transactions WHERE type = 'card_purchase'"
    ) == [(None,)]


async def test_bad_receipts_are_refused_and_nothing_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    purchase = await captured(client, member, card, "30")
    others = await upload(client, team.owner)
    document = await upload(client, member, "document")
    assert (await link(client, member, purchase, others)).status_code == 404
    refused = await link(client, member, purchase, document)
    assert refused.status_code == 422 and "attachment_uuid" in refused.json()["errors"]
    own = await upload(client, member)
    assert (await link(client, team.owner, purchase, own)).status_code == 404  # not the holder
    bad = await call(
        client, member, "PUT", f"/transaction/{purchase}/receipt", {"attachment_uuid": "x"}
    )
    assert bad.status_code == 422
    assert await rows(
        app, "SELECT receipt_attachment_uuid FROM transactions WHERE type = 'card_purchase'"
    ) == [(None,)]


async def test_the_policy_reminds_once_then_freezes_and_the_receipt_unfreezes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, card = await policy_team(client, app)
    member = team.members[0]
    purchase = await captured(client, member, card, "25")
    await captured(client, member, card, "19.99")  # under min_amount: never chased
    now = utcnow()
    assert (await enforce_receipts(app.state.db, now + timedelta(days=2))).reminded == []
    first = await enforce_receipts(app.state.db, now + timedelta(days=3, minutes=1))
    assert ([str(u) for u in first.reminded], first.frozen) == ([purchase], [])
    again = await enforce_receipts(app.state.db, now + timedelta(days=4))
    assert (again.reminded, again.frozen) == ([], [])
    reminders = await events_of(client, team.owner, "transaction.receipt_missing")
    assert [e["data"]["uuid"] for e in reminders] == [purchase]
    froze = await enforce_receipts(app.state.db, now + timedelta(days=7, minutes=1))
    assert [str(c) for c in froze.frozen] == [card]
    frozen = await card_of(client, member, card)
    assert (frozen["status"], frozen["frozen_reason"]) == ("frozen", "receipt_missing")
    assert (await enforce_receipts(app.state.db, now + timedelta(days=8))).frozen == []
    refused = await call(client, member, "PATCH", f"/card/{card}", {"status": "active"})
    assert refused.status_code == 422 and refused.json()["code"] == "receipt_missing"
    missing = (await call(client, team.owner, "GET", "/team/missing-receipts")).json()["data"]
    assert [(m["transaction_uuid"], m["reminded"], m["card_frozen"]) for m in missing] == [
        (purchase, True, True)
    ]
    assert (await link(client, member, purchase, await upload(client, member))).status_code == 200
    unfrozen = await card_of(client, member, card)
    assert (unfrozen["status"], unfrozen["frozen_reason"]) == ("active", None)
    assert (await call(client, team.owner, "GET", "/team/missing-receipts")).json()["data"] == []


async def test_a_card_frozen_by_its_holder_too_stays_frozen_when_the_receipt_comes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, card = await policy_team(client, app)
    member = team.members[0]
    purchase = await captured(client, member, card, "25")
    later = utcnow() + timedelta(days=8)
    assert len((await enforce_receipts(app.state.db, later)).frozen) == 1
    held = await call(client, member, "PATCH", f"/card/{card}", {"status": "frozen"})
    assert held.status_code == 200 and held.json()["data"]["frozen_reason"] is None
    assert (await link(client, member, purchase, await upload(client, member))).status_code == 200
    assert (await card_of(client, member, card))["status"] == "frozen"


async def test_a_card_stays_frozen_while_another_of_its_receipts_is_overdue(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, card = await policy_team(client, app)
    member = team.members[0]
    first = await captured(client, member, card, "25")
    await captured(client, member, card, "40")
    assert len((await enforce_receipts(app.state.db, utcnow() + timedelta(days=8))).frozen) == 1
    assert (await link(client, member, first, await upload(client, member))).status_code == 200
    assert (await card_of(client, member, card))["frozen_reason"] == "receipt_missing"


async def test_bad_policies_are_refused_and_only_the_owner_sets_one(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    bad = [
        {**POLICY, "min_amount": -1},
        {**POLICY, "min_amount": 1.005},
        {**POLICY, "remind_after_days": 8},  # after the freeze
        {**POLICY, "freeze_after_days": 366},
        {**POLICY, "currency": "dollars"},
    ]
    for body in bad:
        answer = await call(client, team.owner, "PUT", "/team/receipt-policy", body)
        assert answer.status_code == 422, (body, answer.text)
    assert (await call(client, member, "PUT", "/team/receipt-policy", POLICY)).status_code == 404
    assert (await call(client, member, "GET", "/team/receipt-policy")).status_code == 404
    assert await rows(app, "SELECT team_uuid FROM team_receipt_policies") == []
    assert (
        await call(client, team.owner, "PUT", "/team/receipt-policy", POLICY)
    ).status_code == 200
    shown = (await call(client, member, "GET", "/team/receipt-policy")).json()["data"]
    assert (shown["min_amount"], shown["freeze_after_days"]) == (20, 7)


async def _enforce_cli(env: dict[str, str], at: datetime) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardservice", "team", "enforce-receipts",
        "--now", at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return out.decode().strip().splitlines()[-1]


async def test_two_processes_enforcing_at_once_remind_once_and_freeze_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, card = await policy_team(client, app)
    member = team.members[0]
    purchases = [await captured(client, member, card, "30") for _ in range(3)]
    settings = app.state.settings
    env = {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }
    at = datetime.now(UTC) + timedelta(days=8)
    summaries = await asyncio.gather(_enforce_cli(env, at), _enforce_cli(env, at))
    totals = [tuple(int(part.split()[1]) for part in s.split(", ")) for s in summaries]
    assert (sum(t[0] for t in totals), sum(t[1] for t in totals)) == (3, 1), summaries
    reminders = await events_of(client, member, "transaction.receipt_missing")
    assert sorted(e["data"]["uuid"] for e in reminders) == sorted(purchases)
    updates = await events_of(client, member, "card.updated")
    assert [e["data"]["frozen_reason"] for e in updates] == ["receipt_missing"]
    assert len(await rows(app, "SELECT transaction_uuid FROM receipt_reminders")) == 3
