"""A physical card's page (docs/cards.md): its fulfilment steps, "Activate" with the last four
digits and "Set PIN", whose form posts only the envelope the page's script encrypts
(RSA-OAEP SHA-256 under `GET /card/pin-key`'s key, embedded in the form) — never the PIN. Here
the envelope is made by `cryptography` from the key the page carries, as the browser would."""

from __future__ import annotations

import base64
import html
import json
import re
import secrets

import httpx
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from fastapi import FastAPI

from tests.cards.test_physical import physical_card, step
from tests.dashboard.session import post_form, sign_in
from tests.factories import make_card, make_user

OAEP = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
PIN = "583920"


def _attribute(page: str, name: str) -> str:
    found = re.search(rf'{name}="([^"]*)"', page)
    assert found, name
    return html.unescape(found.group(1))


async def test_activate_and_set_pin_from_the_card_page(
    app: FastAPI, client: httpx.AsyncClient, log_capture: list[str]
) -> None:
    start = len(log_capture)
    user = await make_user(app)
    record = await physical_card(app, client, user)
    card, last4 = record["uuid"], record["last4"]
    await sign_in(client, user)
    page = (await client.get(f"/app/cards/{card}")).text
    assert 'data-testid="fulfilment"' in page and 'aria-current="step">Ordered' in page
    assert 'data-testid="activate-form"' not in page  # not shipped yet
    await step(client, user, card, "printed")
    await step(client, user, card, "shipped")
    page = (await client.get(f"/app/cards/{card}")).text
    assert 'aria-current="step">Shipped' in page and 'data-testid="activate-form"' in page
    assert "/app/static/pin.js" in page
    wrong = f"{(int(last4) + 1) % 10000:04d}"
    refused = await post_form(client, f"/app/cards/{card}/activate", last4=wrong)
    assert refused.status_code == 422 and "do not match" in refused.text
    activated = await post_form(client, f"/app/cards/{card}/activate", last4=last4)
    assert activated.status_code == 303
    assert activated.headers["location"].endswith("?done=activated#notice")
    record = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert record["status"] == "active" and record["pin_set"] is False

    page = (await client.get(f"/app/cards/{card}")).text
    form = page[page.index('data-testid="pin-form"') :]
    assert 'name="pin"' not in form[: form.index("</form>")]  # the PIN field is never posted
    public = serialization.load_pem_public_key(_attribute(form, "data-public-key").encode())
    assert isinstance(public, rsa.RSAPublicKey)
    key_id = _attribute(form[form.index('name="key_id"') :], "value")
    body = json.dumps({"pin": PIN, "nonce": secrets.token_hex(12)}).encode()
    envelope = base64.b64encode(public.encrypt(body, OAEP)).decode()
    done = await post_form(client, f"/app/cards/{card}/pin", key_id=key_id, encrypted_pin=envelope)
    assert done.status_code == 303 and done.headers["location"].endswith("?done=pin#notice")
    record = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert record["pin_set"] is True and record["pin_blocked"] is False
    replayed = await post_form(
        client, f"/app/cards/{card}/pin", key_id=key_id, encrypted_pin=envelope
    )
    assert replayed.status_code == 422  # the nonce is used once: the API's refusal shown
    script = await client.get("/app/static/pin.js")
    assert script.status_code == 200 and 'name: "RSA-OAEP", hash: "SHA-256"' in script.text
    lines = "\n".join(log_capture[start:])
    assert PIN not in lines and envelope not in lines


async def test_a_virtual_card_page_has_no_physical_section(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await sign_in(client, user)
    page = (await client.get(f"/app/cards/{card}")).text
    assert 'data-testid="physical"' not in page and "/app/static/pin.js" not in page
