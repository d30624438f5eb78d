"""The "Top up" pages: the form offers the seed's payment methods and currencies that can
reach the user's accounts, asking gives the reference, the fee and the conversion (the API's
`POST /topups`), the list shows every status, and refusals read as sentences."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.models.base import utcnow
from cardservice.topups.service import sweep_expired_topups
from tests.dashboard.session import post_form, sign_in
from tests.factories import make_account, make_user
from tests.operator.helpers import operator_key, send


async def _ask(client: httpx.AsyncClient, account: uuid.UUID, payment: str, amount: str) -> str:
    response = await post_form(
        client, "/app/topups", account_uuid=str(account), payment=payment, amount=amount
    )
    assert response.status_code == 303, response.text
    location: str = response.headers["location"]
    assert re.fullmatch(r"/app/topups/[0-9a-f-]{36}\?done=asked#notice", location), location
    return location.split("/")[-1].split("?")[0]


async def test_the_form_offers_the_seeds_methods_reachable_from_the_accounts(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await make_account(app, user, name="Household")
    await sign_in(client, user)
    page = await client.get("/app/topups")
    assert page.status_code == 200
    assert 'href="/app/topups"' in page.text and 'aria-current="page"' in page.text
    assert 'value="bank-transfer:EUR"' in page.text and 'value="card:USD"' in page.text
    assert "fee 2.50 %, 5.00 to 10,000.00" in page.text  # the card method in USD
    assert 'value="crypto:BTC"' not in page.text  # no rate from BTC to the account's USD
    assert "1.0850 USD" in page.text  # EUR paid into the USD account: the rate shown
    assert "No top-up yet." in page.text


async def test_asking_shows_the_reference_fee_and_conversion_and_the_list_every_status(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account = await make_account(app, user, name="Household")
    await sign_in(client, user)
    asked = await _ask(client, account, "bank-transfer:EUR", "100")
    page = await client.get(f"/app/topups/{asked}?done=asked")
    assert page.status_code == 200
    text = page.text
    assert "Your top-up is ready to be paid." in text and "Awaiting payment" in text
    reference = re.search(r'data-testid="reference">(TU-[A-Z0-9]{10})<', text)
    assert reference is not None
    assert "Pay <strong>100.00 EUR</strong> by Bank transfer" in text
    assert '"topup-fee">0.50 EUR<' in text  # 0.50 % of 100 EUR
    assert '"topup-rate">1 EUR = 1.0850 USD<' in text
    assert '"topup-credit">107.96 USD<' in text  # (100 − 0.50) × 1.085, half-up to the cent
    others = [await _ask(client, account, "card:USD", amount) for amount in ("20", "30", "40")]
    key = await operator_key(app, "funding")
    confirmed = await send(client, "POST", f"/operator/topups/{others[0]}/confirm", key,
                           {"received_amount": 20})  # fmt: skip
    assert confirmed.status_code == 200, confirmed.text
    cancelled = await send(client, "POST", f"/operator/topups/{others[1]}/cancel", key)
    assert cancelled.status_code == 200, cancelled.text
    later = utcnow() + timedelta(hours=73)
    assert await sweep_expired_topups(app.state.db, later) == 2  # the EUR one and the 40
    listing = (await client.get("/app/topups")).text
    assert "4 top-ups, newest first" in listing and reference.group(1) in listing
    for status in ("Completed", "Cancelled", "Expired"):
        assert f">{status}</span>" in listing, status
    done = (await client.get(f"/app/topups/{others[0]}")).text
    assert '"topup-status">Completed<' in done and "The deposit on the account" in done
    assert "How to pay" not in done


async def test_refusals_read_as_sentences_next_to_their_fields(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    account = await make_account(app, user)
    theirs = await make_account(app, stranger)
    await sign_in(client, user)
    cases = {
        ("card:USD", "2"): "Enter an amount from 5.00 to 10,000.00.",
        ("card:USD", "ten"): "Enter a number, such as 25 or 19.99.",
        ("card:USD", "10.001"): "Use at most 2 decimal places.",
        ("paypal:XYZ", "10"): "Choose a way to pay from the list.",
        ("crypto:BTC", "1"): "This currency cannot be converted to the account&#39;s.",
    }
    for (payment, amount), message in cases.items():
        page = await post_form(
            client, "/app/topups", account_uuid=str(account), payment=payment, amount=amount
        )
        assert page.status_code == 422, (payment, amount)
        assert "No top-up was made" in page.text
        assert message in page.text, (payment, amount, page.text)
        assert "must be within" not in page.text and "pattern" not in page.text
    refused = await post_form(
        client, "/app/topups", account_uuid=str(theirs), payment="card:USD", amount="10"
    )
    assert refused.status_code == 422
    assert "That account is not available to you." in refused.text
    await sign_in(client, stranger)
    asked = await _ask(client, theirs, "card:USD", "10")
    await sign_in(client, user)
    other = await client.get(f"/app/topups/{asked}")
    assert other.status_code == 404 and "<title>Page not found" in other.text
