"""GET /payment/currencies/{slug}."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.catalogue.loader import load_catalogue
from tests.factories import make_user


async def test_every_payment_method_lists_its_currencies(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    for method in load_catalogue()["payment_methods"]:
        response = await client.get(f"/payment/currencies/{method['slug']}", headers=user.headers)
        assert response.status_code == 200, method["slug"]
        data = response.json()["data"]
        assert [(c["code"], c["network"]) for c in data] == [
            (c["code"], c["network"]) for c in method["currencies"]
        ]
        for record in data:
            assert set(record) == {
                "code",
                "name",
                "network",
                "decimals",
                "min_amount",
                "max_amount",
                "fee_percent",
            }
            assert (
                isinstance(record["min_amount"], int | float)
                and record["min_amount"] < record["max_amount"]
            )


async def test_crypto_carries_networks_and_exact_amounts(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    response = await client.get("/payment/currencies/crypto", headers=user.headers)
    assert {(c["code"], c["network"]) for c in response.json()["data"]} >= {
        ("USDT", "trc20"),
        ("BTC", "bitcoin"),
    }
    assert b'"min_amount":0.00050000' in response.content  # written from the decimal, not a float


async def test_unknown_and_malformed_slugs_are_404(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for slug in ["gold-bars", "UPPER", "a--b", "x" * 65]:
        response = await client.get(f"/payment/currencies/{slug}", headers=user.headers)
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert (await client.get("/payment/currencies/crypto")).status_code == 401
