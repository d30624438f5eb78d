"""The dashboard's dispute button and form: server-rendered, CSRF-checked, and acting only
through the API as the signed-in user."""

from __future__ import annotations

from datetime import timedelta
from io import BytesIO

import httpx
from fastapi import FastAPI
from PIL import Image

from cardservice.models.base import utcnow
from tests.factories import Caller, authorize, make_card, make_user
from tests.operator.helpers import operator_key, send


async def _sign_in(client: httpx.AsyncClient, user: Caller) -> None:
    await client.get("/app/login")
    form = {"csrf_token": client.cookies["cs_csrf"], "token": user.token}
    assert (await client.post("/app/login", data=form)).status_code == 303


async def _settled(client: httpx.AsyncClient, user: Caller, card: str) -> str:
    purchase = (await authorize(client, user, card, "12")).json()["data"]["uuid"]
    await client.post(f"/sandbox/transactions/{purchase}/settle", headers=user.headers)
    return str(purchase)


async def test_a_completed_purchase_is_disputed_from_the_transactions_page(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    purchase = await _settled(client, user, card)
    pending = (await authorize(client, user, card, "3")).json()["data"]["uuid"]
    await _sign_in(client, user)
    page = (await client.get("/app/transactions")).text
    assert f'href="/app/disputes/new?transaction={purchase}"' in page
    assert f"/app/disputes/new?transaction={pending}" not in page  # pending: nothing to dispute
    form = await client.get("/app/disputes/new", params={"transaction": purchase})
    assert form.status_code == 200 and 'name="csrf_token"' in form.text
    assert f'value="{purchase}"' in form.text and "not as described" in form.text
    fields = {"transaction_uuid": purchase, "reason": "not_received", "explanation": "lost"}
    forged = await client.post("/app/disputes", data={**fields, "csrf_token": "forged"})
    assert forged.status_code == 403
    assert (await client.get("/disputes", headers=user.headers)).json()["data"] == []
    sent = await client.post(
        "/app/disputes", data={**fields, "csrf_token": client.cookies["cs_csrf"]}
    )
    assert sent.status_code == 303 and sent.headers["location"] == "/app/disputes"
    opened = (await client.get("/disputes", headers=user.headers)).json()["data"]
    assert [(d["transaction_uuid"], d["reason"], d["explanation"]) for d in opened] == [
        (purchase, "not_received", "lost")
    ]
    listing = (await client.get("/app/disputes")).text
    assert opened[0]["uuid"] in listing and "12.00 USD" in listing and "open" in listing
    again = await client.post(
        "/app/disputes", data={**fields, "csrf_token": client.cookies["cs_csrf"]}
    )
    assert again.status_code == 422 and "already has an open dispute" in again.text


async def test_another_users_purchase_cannot_be_disputed_from_the_dashboard(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    _other_account, other_card = await make_card(app, client, other)
    others = await _settled(client, other, other_card)
    assert (await client.get("/app/disputes")).status_code == 303  # signed out: to sign in
    await _sign_in(client, user)
    form = await client.get("/app/disputes/new", params={"transaction": others})
    assert form.status_code == 404 and "Transaction not found" in form.text
    fields = {"transaction_uuid": others, "reason": "other"}
    sent = await client.post(
        "/app/disputes", data={**fields, "csrf_token": client.cookies["cs_csrf"]}
    )
    assert sent.status_code == 404
    assert (await client.get("/disputes", headers=other.headers)).json()["data"] == []
    assert "No dispute yet." in (await client.get("/app/disputes")).text


async def test_the_transaction_page_shows_the_disputes_steps_and_deadline(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    purchase = await _settled(client, user, card)
    body = {"transaction_uuid": purchase, "reason": "duplicate"}
    opened = await client.post("/disputes", headers=user.headers, json=body)
    assert opened.status_code == 201, opened.text
    key = await operator_key(app, "network")
    today = utcnow().date()
    sent = await send(client, "POST", "/operator/clearing-outgoing", key, {"date": str(today)})
    assert sent.status_code == 200, sent.text
    await _sign_in(client, user)
    page = (await client.get(f"/app/transactions/{purchase}")).text
    assert "chargeback sent; next step due by" in page
    assert str(today + timedelta(days=45)) in page
    steps = page.split('data-testid="dispute-steps"')[1].split("</ol>")[0]
    assert steps.count("<li>") == 2 and "open:" in steps and "chargeback sent:" in steps


def _png() -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (8, 8), (200, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


async def test_a_dispute_carries_the_evidence_file_chosen_on_the_form(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The file is uploaded through `POST /attachment` (type document) and sent as the
    dispute's evidence; a file the API refuses is shown by the field and nothing is opened; a
    refused dispute keeps its uploaded file for the next try (no second upload)."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    purchase = await _settled(client, user, card)
    await _sign_in(client, user)
    form = await client.get("/app/disputes/new", params={"transaction": purchase})
    assert 'enctype="multipart/form-data"' in form.text and 'name="evidence"' in form.text
    fields = {"transaction_uuid": purchase, "reason": "not_as_described"}
    csrf = {"csrf_token": client.cookies["cs_csrf"]}
    bad_file = {"evidence": ("notes.txt", b"just words", "text/plain")}
    refused = await client.post("/app/disputes", data={**fields, **csrf}, files=bad_file)
    assert refused.status_code == 422 and 'id="evidence-error"' in refused.text
    assert (await client.get("/disputes", headers=user.headers)).json()["data"] == []
    photo = {"evidence": ("box.png", _png(), "image/png")}
    too_much = {**fields, **csrf, "amount": "500"}
    kept = await client.post("/app/disputes", data=too_much, files=photo)
    assert kept.status_code == 422 and 'data-testid="evidence-kept"' in kept.text
    uploaded = (await client.get("/attachments", headers=user.headers)).json()["data"]
    assert [a["type"] for a in uploaded] == ["document"]
    evidence = str(uploaded[0]["uuid"])
    assert f'name="evidence_uuid" value="{evidence}"' in kept.text
    no_file = {"evidence": ("", b"", "application/octet-stream")}
    retry = {**fields, **csrf, "evidence_uuid": evidence}
    sent = await client.post("/app/disputes", data=retry, files=no_file)
    assert sent.status_code == 303, sent.text
    [opened] = (await client.get("/disputes", headers=user.headers)).json()["data"]
    assert opened["evidence_attachment_uuids"] == [evidence]
    assert len((await client.get("/attachments", headers=user.headers)).json()["data"]) == 1
