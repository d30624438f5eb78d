"""Set PIN in a real browser, then pay with that PIN over ISO 8583 (docs/cards.md#the-pin,
docs/cards.md#pin-in-iso-8583): the holder activates the physical card and types a PIN on its
dashboard page; the page's script encrypts it with WebCrypto (RSA-OAEP, SHA-256) under the
key the page carries, and only the envelope is posted. A chip payment with a PIN block built
here by `psec` under the ZPK is then approved (`00`), and a wrong PIN is `55`.

One server, in this process (the test's own app under uvicorn, the ISO 8583 listener beside
it), and one Chromium per database, started here: the shared demo server of tests/browser
has no listener and no PIN keys on PostgreSQL, and its demo data is read by the other
browser tests."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import AsyncIterator
from urllib.parse import parse_qs

import httpx
import pytest
from fastapi import FastAPI
from playwright.async_api import Browser, async_playwright

from cardservice.acquirer import messages
from cardservice.config import Settings
from tests.browser.conftest import CHROMIUM
from tests.browser.watch import Watched
from tests.cards.test_physical import physical_card, step
from tests.cards.test_pin import TEST_ZPK, pin_block
from tests.decisions.conftest import serve
from tests.factories import ISSUED_SECRETS, make_user
from tests.network.conftest import Network, iso_settings, network  # noqa: F401 - fixtures

PIN = "602817"
WRONG = "917305"  # its first four digits differ: the PVV reads those


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The zone PIN key the network shares with the issuer (the PIN keys: the tests' own)."""
    return settings.model_copy(update={"iso8583_zpk": TEST_ZPK})


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    if shutil.which(CHROMIUM) is None:
        pytest.fail("Chromium is missing: `make browser` installs Debian's package")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        await launched.close()


async def test_a_pin_set_in_the_browser_pays_at_a_terminal(
    app: FastAPI,
    client: httpx.AsyncClient,
    network: Network,  # noqa: F811 - the fixture imported above
    chromium: Browser,
    log_capture: list[str],
) -> None:
    start = len(log_capture)
    user = await make_user(app)
    record = await physical_card(app, client, user)
    card = record["uuid"]
    await step(client, user, card, "printed")
    await step(client, user, card, "shipped")
    async for base in serve(app):
        context = await chromium.new_context()
        watched = Watched(await context.new_page())
        page = watched.page
        await page.goto(f"{base}/app/login")
        await page.get_by_label("Bearer token").fill(user.token)
        await page.get_by_role("button", name="Sign in").click()
        await page.wait_for_url(f"{base}/app")
        await page.goto(f"{base}/app/cards/{card}")
        await page.get_by_label("Last four digits of the card's number").fill(record["last4"])
        await page.get_by_role("button", name="Activate").click()
        await page.wait_for_url("**?done=activated*")
        await page.get_by_label("PIN (4 to 6 digits)").fill(PIN)
        async with page.expect_request(f"{base}/app/cards/{card}/pin") as posted:
            await page.get_by_role("button", name="Set PIN").click()
        await page.wait_for_url("**?done=pin*")
        form = parse_qs((await posted.value).post_data or "")
        assert sorted(form) == ["csrf_token", "encrypted_pin", "key_id"]  # the PIN is not sent
        assert PIN not in str(form)
        await context.close()
        assert watched.problems == []
    shown = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert (shown["status"], shown["pin_set"], shown["pin_blocked"]) == ("active", True, False)

    row = await app.state.db.reader.row(
        "SELECT pan_ciphertext, expiry_year, expiry_month FROM cards WHERE uuid = $1",
        uuid.UUID(card),
    )
    pan = app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    ISSUED_SECRETS.append(pan)
    for pin, answer in ((PIN, "00"), (WRONG, "55")):
        block = pin_block(pin, pan)
        ISSUED_SECRETS.append(block)
        fields = messages.authorization(
            pan, expiry, 1_00, *network.key(), entry_mode="chip", pin_block=block
        )
        assert (await network.client.request("0100", fields)).fields[39] == answer, pin
    lines = "\n".join(log_capture[start:])
    assert PIN not in lines and WRONG not in lines
