"""The receipt renderer on its own."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import UTC, datetime

from PIL import Image

from cardservice.transactions.receipt import ReceiptView, render_receipt

VIEW = ReceiptView(
    transaction_uuid="9f84cdee-0a56-4ed8-b356-5bd80772627d",
    type="card_purchase",
    status="completed",
    merchant_name="Netflix",
    amount="12.50",
    fee="0.10",
    currency="USD",
    direction="debit",
    card_mask="424242******4242",
    created_at=datetime(2026, 3, 19, 10, 15, tzinfo=UTC),
    error=None,
)


def test_renders_a_deterministic_jpeg() -> None:
    data = render_receipt(VIEW)
    assert data[:3] == b"\xff\xd8\xff"
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG" and image.width == 480 and image.height > 300
    assert render_receipt(VIEW) == data


def test_declined_and_sparse_views_render_and_differ() -> None:
    declined = replace(VIEW, status="declined", error="insufficient_funds")
    sparse = replace(VIEW, type="deposit", merchant_name=None, card_mask=None, direction="credit")
    assert Image.open(io.BytesIO(render_receipt(sparse))).format == "JPEG"
    assert render_receipt(declined) != render_receipt(VIEW)
    assert render_receipt(replace(VIEW, amount="12.51")) != render_receipt(VIEW)
