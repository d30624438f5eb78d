"""'Show card details' in the dashboard (issue 29): a confirmation, then a CSRF-checked POST
that reveals through the API (step-up code minted and used at once); the details are in that
page only (not in a URL, no-store), with copy buttons and a 60-second limit."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.security.cvv import cvv_with_key
from tests.conftest import TEST_CVK
from tests.dashboard.session import post_form, sign_in
from tests.factories import ISSUED_SECRETS, make_card, make_user


async def test_details_after_a_confirmation_on_a_no_store_page(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await sign_in(client, user)
    page = (await client.get(f"/app/cards/{card}")).text
    # the card's header shows them in one click: its button posts the confirmation itself
    assert f'action="/app/cards/{card}/details"' in page
    confirm = await client.get(f"/app/cards/{card}/details")
    assert confirm.status_code == 200 and "Yes, show the card details" in confirm.text
    assert 'data-testid="pan"' not in confirm.text
    shown = await post_form(client, f"/app/cards/{card}/details")
    assert shown.status_code == 200, shown.text
    assert shown.headers["cache-control"] == "no-store"
    assert str(shown.url).endswith(f"/app/cards/{card}/details")  # nothing in the URL
    reveal_rows = await app.state.db.reader.rows(
        "SELECT action, request_id FROM audit_log WHERE actor_id = $1", str(user.uuid)
    )
    assert [row["action"] for row in reveal_rows] == ["card.reveal"]
    ciphertext = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE user_uuid = $1", user.uuid
    )
    pan = app.state.cipher.decrypt(bytes(ciphertext))
    ISSUED_SECRETS.append(pan)
    record = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    yymm = f"{record['expiry_year'] % 100:02d}{record['expiry_month']:02d}"
    assert f'data-copy-value="{pan}"' in shown.text
    assert " ".join(pan[i : i + 4] for i in range(0, 16, 4)) in shown.text
    assert f">{cvv_with_key(bytes.fromhex(TEST_CVK), pan, yymm)}<" in shown.text
    assert 'http-equiv="refresh" content="60;url=/app/cards/' in shown.text
    assert "/app/static/card_details.js" in shown.text
    script = await client.get("/app/static/card_details.js")
    assert script.status_code == 200 and "setInterval" in script.text


async def test_without_csrf_nothing_is_revealed(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await sign_in(client, user)
    forged = await client.post(f"/app/cards/{card}/details", data={"csrf_token": "forged"})
    assert forged.status_code == 403
    assert await app.state.db.reader.value("SELECT count(*) FROM audit_log") == 0
    signed_out = httpx.AsyncClient(transport=client._transport, base_url="http://testserver")
    async with signed_out:
        anonymous = await signed_out.post(f"/app/cards/{card}/details", data={})
        assert anonymous.status_code == 303 and anonymous.headers["location"] == "/app/login"


async def test_the_apis_refusals_are_shown(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    other = await make_user(app)
    _other_account, foreign = await make_card(app, client, other)
    await sign_in(client, user)
    assert (await post_form(client, f"/app/cards/{foreign}/details")).status_code == 404
    for _ in range(10):
        assert (await post_form(client, f"/app/cards/{card}/details")).status_code == 200
    limited = await post_form(client, f"/app/cards/{card}/details")
    assert limited.status_code == 429 and "slow down" in limited.text
    assert 'data-testid="pan"' not in limited.text
