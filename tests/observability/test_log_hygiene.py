"""No log line carries a token, an MFA code or a full card number.

The whole run is scanned too (conftest `log_capture`); this test makes sure a busy session,
with real card numbers and failed logins, is in that capture and is clean.
"""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from cardservice.models import Card
from tests.factories import around, bin_uuid, make_account, make_mfa_code, make_user
from tests.log_scan import secrets_in


async def test_a_busy_session_logs_no_secret(
    app: FastAPI, client: httpx.AsyncClient, log_capture: list[str]
) -> None:
    start = len(log_capture)
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    account = await make_account(app, user, funds="100")
    body = {"account_uuid": str(account), "bin_uuid": await bin_uuid(app), "cards_count": 2}
    await client.post("/card/buy", headers=user.headers, json=body)
    await client.get("/card", params={"_code": code})
    await client.get("/accounts", headers={"Authorization": "Bearer cs_" + "x" * 43})
    await client.get("/accounts", params={"_code": code + "X"})
    async with around(app) as session:
        cards = list(await session.scalars(select(Card)))
    numbers = [app.state.cipher.decrypt(card.pan_ciphertext) for card in cards]
    text = "\n".join(log_capture[start:])
    assert text.count('"msg":"request"') == 4  # every request was logged
    assert secrets_in(text) == []
    assert not any(number in text for number in numbers)
    assert secrets_in(f"leaked {numbers[0]} and {user.token}") == sorted([user.token, numbers[0]])
