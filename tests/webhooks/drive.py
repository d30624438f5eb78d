"""Every kind of change, driven through the API (a card's holder by SQL until PATCH /card
exists), for the event and webhook tests."""

from __future__ import annotations

import base64
import uuid

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.http.router import dumps
from tests.factories import Caller, authorize, make_card

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
EVERY_TYPE = {
    "card.created",
    "card.updated",
    "transaction.created",
    "transaction.updated",
    "three_ds.code_created",
    "attachment.created",
    "dispute.created",
    "dispute.updated",
}


async def post(client: httpx.AsyncClient, user: Caller, path: str, body: object) -> httpx.Response:
    return await client.post(
        path, content=dumps(body), headers={**user.headers, "Content-Type": "application/json"}
    )


async def hold_card(app: FastAPI, card: str, holder: str) -> None:
    """A change of the card's holder name, as PATCH /card will make it."""

    async def work(tx: Tx) -> None:
        await tx.execute(
            "UPDATE cards SET holder_name = $2 WHERE uuid = $1", uuid.UUID(card), holder
        )

    await app.state.db.transact(work)


async def every_change(app: FastAPI, client: httpx.AsyncClient, user: Caller) -> str:
    """A card bought, authorized, settled, refunded, a 3DS code, an attachment, a dispute
    opened and lost, the card's holder changed and its balance moved; returns the card's
    uuid."""
    _account, card = await make_card(app, client, user)
    purchase = await authorize(client, user, card, "10")
    assert purchase.status_code == 201, purchase.text
    purchase_uuid = purchase.json()["data"]["uuid"]
    settled = await client.post(
        f"/sandbox/transactions/{purchase_uuid}/settle", headers=user.headers
    )
    assert settled.status_code in (200, 201), settled.text
    refunded = await post(
        client, user, f"/sandbox/transactions/{purchase_uuid}/refund", {"amount": 4}
    )
    assert refunded.status_code in (200, 201), refunded.text
    code = await post(
        client, user, "/sandbox/3ds",
        {"card_uuid": card, "merchant_name": "Shop", "amount": 5, "currency": "USD"},
    )  # fmt: skip
    assert code.status_code == 201, code.text
    upload = await post(
        client, user, "/attachment", {"type": "receipt", "file": base64.b64encode(PDF).decode()}
    )
    assert upload.status_code == 201, upload.text
    dispute = await post(
        client, user, "/disputes",
        {"transaction_uuid": purchase_uuid, "reason": "other",
         "evidence_attachment_uuids": [upload.json()["data"]["uuid"]]},
    )  # fmt: skip
    assert dispute.status_code == 201, dispute.text
    lost = await post(
        client, user, f"/sandbox/disputes/{dispute.json()['data']['uuid']}/resolve",
        {"outcome": "lost"},
    )  # fmt: skip
    assert lost.status_code == 201, lost.text
    await hold_card(app, card, "Ada Lovelace")
    return card
