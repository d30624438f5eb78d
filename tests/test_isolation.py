"""Every route that takes an id answers another user's id with 404 and changes nothing."""

from __future__ import annotations

import base64

import httpx
from fastapi import FastAPI

from tests.factories import authorize, bin_uuid, make_card, make_user

PDF = base64.b64encode(b"%PDF-1.4\n%%EOF\n").decode()


async def _fingerprint(app: FastAPI) -> tuple[object, ...]:
    reader = app.state.db.reader
    tables = ("transactions", "journal_entries", "postings", "three_ds_codes", "attachments")
    counts = [await reader.value(f"SELECT count(*) FROM {table}") for table in (*tables, "cards")]
    balances = await reader.row(
        "SELECT sum(a.balance), sum(c.balance) FROM accounts a"
        " LEFT JOIN cards c ON c.account_uuid = a.uuid"
    )
    assert balances is not None
    cards = await reader.rows("SELECT uuid, is_favorite, sort_order FROM cards ORDER BY uuid")
    return (*counts, tuple(balances), tuple(map(tuple, cards)))


async def test_foreign_ids_are_404_everywhere(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner, intruder = await make_user(app), await make_user(app)
    account, card = await make_card(app, client, owner)
    _own_account, own_card = await make_card(app, client, intruder)
    txn = (await authorize(client, owner, card, "5")).json()["data"]["uuid"]
    attachment = (
        await client.post(
            "/attachment", headers=owner.headers, json={"type": "invoice", "file": PDF}
        )
    ).json()["data"]["uuid"]
    reads = [
        f"/card/{card}",
        f"/account/{account}",
        f"/transaction/{txn}",
        f"/transaction/jpg/{txn}",
        f"/attachment/{attachment}",
    ]
    writes: list[tuple[str, dict[str, object] | None]] = [
        ("/card/buy", {"account_uuid": str(account), "bin_uuid": await bin_uuid(app)}),
        ("/card/favorite", {"card_uuids": [card], "is_favorite": True}),
        ("/card/favorite", {"card_uuids": [own_card, card], "is_favorite": True}),
        ("/card/sort", {"card_uuids": [card]}),
        ("/card/sort", {"card_uuids": [own_card, card]}),
        ("/sandbox/deposits", {"account_uuid": str(account), "amount": 10}),
        (
            "/sandbox/authorizations",
            {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "X"},
        ),
        ("/sandbox/3ds", {"card_uuid": card, "merchant_name": "X", "amount": 1, "currency": "USD"}),
        (f"/sandbox/transactions/{txn}/settle", None),
        (f"/sandbox/transactions/{txn}/reverse", None),
        (f"/sandbox/transactions/{txn}/refund", {"amount": 1}),
    ]
    before = await _fingerprint(app)
    for path in reads:
        response = await client.get(path, headers=intruder.headers)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    for path, body in writes:
        response = await client.post(path, headers=intruder.headers, json=body)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert await _fingerprint(app) == before
    lists = ["/card", "/accounts", "/transaction/report", "/user/3ds-unassigned"]
    for path in lists:
        body = (await client.get(path, headers=intruder.headers)).json()["data"]
        assert card not in str(body) and str(account) not in str(body) and txn not in str(body), (
            path
        )
