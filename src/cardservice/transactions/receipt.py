"""The receipt picture of a transaction (JPEG, drawn with Pillow's bundled font)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 480
MARGIN = 28
INK = (30, 30, 36)
MUTED = (110, 110, 120)
DECLINED = (190, 30, 45)
FreeFont = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True, slots=True)
class ReceiptView:
    """What a receipt shows; amounts are already formatted strings (exact, never float)."""

    transaction_uuid: str
    type: str
    status: str
    merchant_name: str | None
    amount: str
    fee: str
    currency: str
    direction: str
    card_mask: str | None
    created_at: datetime
    error: str | None


@lru_cache(maxsize=4)
def _font(size: int) -> FreeFont:
    return ImageFont.load_default(size=size)


def _rows(view: ReceiptView) -> list[tuple[str, str, tuple[int, int, int]]]:
    sign = "-" if view.direction == "debit" else "+"
    status_colour = DECLINED if view.status == "declined" else INK
    status = view.status + (f" ({view.error})" if view.error else "")
    return [
        ("Merchant", view.merchant_name or "-", INK),
        ("Type", view.type.replace("_", " "), INK),
        ("Amount", f"{sign}{view.amount} {view.currency}", INK),
        ("Fee", f"{view.fee} {view.currency}", INK),
        ("Date", view.created_at.strftime("%Y-%m-%d %H:%M UTC"), INK),
        ("Card", view.card_mask or "-", INK),
        ("Status", status, status_colour),
    ]


def render_receipt(view: ReceiptView) -> bytes:
    """Render the receipt as a JPEG, 480 px wide, byte-identical for the same view."""
    rows = _rows(view)
    height = 150 + 40 * len(rows)
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 24), "Card receipt", font=_font(30), fill=INK)
    draw.line((MARGIN, 70, WIDTH - MARGIN, 70), fill=MUTED, width=1)
    y = 86
    for label, value, colour in rows:
        draw.text((MARGIN, y), label, font=_font(18), fill=MUTED)
        draw.text((MARGIN + 120, y), value[:34], font=_font(18), fill=colour)
        y += 40
    draw.line((MARGIN, y + 4, WIDTH - MARGIN, y + 4), fill=MUTED, width=1)
    draw.text((MARGIN, y + 16), view.transaction_uuid, font=_font(14), fill=MUTED)
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85, optimize=True)
    return buffer.getvalue()
