"""The dashboard's third round for people (docs/operations.md#dashboard): one way to write
money and instants, amounts typed as the pages print them, menus by role, the owner's team
page (people, the receipt policy form), budgets over their amount, the buy form's price, and
the overview's spend by merchant with links to the purchases behind each bar."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.dashboard.web import amount_input, money, when
from tests.dashboard.session import post_form, sign_in
from tests.factories import authorize, make_account, make_card, make_user


def test_money_and_instants_are_written_one_way() -> None:
    assert money("-0.001", "USD") == "0.00 USD"  # never −0.00
    assert money("12.5", "USD", "debit") == "−12.50 USD"
    assert money("12.5", "USD", "credit") == "+12.50 USD"
    assert money(-3, "EUR") == "−3.00 EUR"
    assert money("1234567.5", "EUR") == "1,234,567.50 EUR"
    assert money(0, "USD", "debit") == "0.00 USD"
    shown = str(when("2026-11-27T13:15:56Z"))
    assert shown == (
        '<time datetime="2026-11-27T13:15:56Z" title="2026-11-27 13:15 UTC" data-local>'
        "2026-11-27 13:15 UTC</time>"
    )
    assert str(when(None)) == "—"


def test_amounts_are_read_as_the_pages_print_them() -> None:
    for typed, read in (
        ("1,000.50", Decimal("1000.50")),
        ("1 000.50", Decimal("1000.50")),
        ("−12.50", Decimal("-12.50")),
        ("12.50 USD", Decimal("12.50")),
        ("1,234,567", Decimal("1234567")),
        ("42", Decimal(42)),
    ):
        assert amount_input(typed) == read, typed
    for left_for_the_api in ("12,5", "1,00", "abc", ""):
        assert amount_input(left_for_the_api) == left_for_the_api


async def test_a_limit_typed_with_thousands_is_saved(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await sign_in(client, user)
    saved = await post_form(client, f"/app/cards/{card}/controls", monthly="1,000.50")
    assert saved.status_code == 303, saved.text
    controls = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert controls["spending_controls"]["monthly"] == 1000.5


async def test_a_members_menu_and_pages_follow_their_role(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = f"Roles {uuid.uuid4().hex[:6]}"
    owner = await make_user(app, team=team, role="owner")
    member = await make_user(app, team=team, role="member")
    _account, card = await make_card(app, client, member, funds="500", start_balance="200")
    await authorize(client, member, card, "42.50", merchant_name="Hotel Lux")
    budget = {"amount": 30, "currency": "USD"}
    put = await client.put(
        f"/team/members/{member.uuid}/budget", headers=owner.headers, json=budget
    )
    assert put.status_code == 200, put.text

    await sign_in(client, member)
    overview = (await client.get("/app")).text
    menu = overview[overview.index('<nav aria-label="Main">') : overview.index("</nav>")]
    assert 'href="/app/topups"' not in menu and 'href="/app/webhooks"' not in menu
    assert 'href="/app/cards"' in menu
    assert re.search(
        r"42\.50 USD spent of 30\.00 USD ·\s*<span[^>]*>Over by 12\.50 USD</span>", overview
    )
    team_page = (await client.get("/app/team")).text
    assert "Over by 12.50 USD" in team_page and "Ask for more budget" in team_page
    cards = (await client.get("/app/cards")).text
    assert 'data-testid="buy-cards"' in cards and 'data-testid="ask-card"' in cards

    client.cookies.clear()
    await sign_in(client, owner)
    menu_page = (await client.get("/app")).text
    assert 'href="/app/topups"' in menu_page and 'href="/app/webhooks"' in menu_page
    by_person = menu_page[menu_page.index('data-testid="spend-by-member"') :]
    assert "42.50 USD" in by_person.split("</ul>")[0]
    team_page = (await client.get("/app/team")).text
    assert 'data-testid="people"' in team_page and "No receipt policy yet" in team_page
    sent = await post_form(
        client,
        "/app/team/receipt-policy",
        min_amount="1,000",
        currency="USD",
        remind="2",
        freeze="1",
    )
    assert sent.status_code == 422 and "remind_after_days" in sent.text  # freeze before remind
    assert (await client.get("/team/receipt-policy", headers=owner.headers)).status_code == 404
    sent = await post_form(
        client,
        "/app/team/receipt-policy",
        min_amount="1,000",
        currency="USD",
        remind="2",
        freeze="5",
    )
    assert sent.status_code == 303 and sent.headers["location"] == "/app/team?done=policy#notice"
    policy = (await client.get("/team/receipt-policy", headers=owner.headers)).json()["data"]
    assert (policy["min_amount"], policy["remind_after_days"], policy["freeze_after_days"]) == (
        1000,
        2,
        5,
    )
    saved = (await client.get("/app/team?done=policy")).text
    assert "The receipt policy is saved." in saved and "1,000.00 USD or more" in saved


async def test_the_buy_form_offers_the_accounts_currency_and_its_price(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account = await make_account(app, user, currency="USD", funds="100")
    await sign_in(client, user)
    page = (await client.get("/app/cards/new", params={})).text
    offered = re.findall(r'<option value="[^"]+" data-currency="(\w+)"( hidden disabled)?', page)
    ranges = [(currency, bool(hidden)) for currency, hidden in offered]
    assert ("USD", False) in ranges and all(hidden for cur, hidden in ranges if cur != "USD")
    fees = {
        f["slug"]: f
        for f in (await client.get("/dictionary/fees", headers=user.headers)).json()["data"]
    }
    each = Decimal(str(fees["card_issue"]["amount"]))  # start balance 0: the issue fee alone
    total = re.search(r'data-testid="price-total" id="price-total">([^<]+)<', page)
    assert total is not None and total.group(1) == money(each, "USD"), total
    assert str(account) in page
