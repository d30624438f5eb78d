"""Clearing files for the tests: real IPM files written by cardutil (`clearing.ipm.write`),
sent to the operator API."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable
from typing import Any

import httpx
from cardutil import mciipm

from cardservice.clearing import ipm
from cardservice.clearing.ipm import Presentment, write

NUMBERS = itertools.count(2)  # message numbers: the header is 1


def presentment(
    pan: str,
    amount: int,
    *,
    approval_code: str | None = None,
    arn: str | None = None,
    refund: bool = False,
    atm: bool = False,
    currency: str = "840",
    merchant: str = "Netflix",
) -> Presentment:
    """A first presentment of a purchase (a refund, cash at an ATM) on the card `pan`."""
    return Presentment(
        message_number=next(NUMBERS),
        pan=pan,
        processing_code="200000" if refund else "010000" if atm else "000000",
        amount=amount,
        currency=currency,
        approval_code=approval_code,
        arn=arn,
        merchant_id="MERCHANT0000001",
        merchant_name=merchant,
        merchant_city="Los Gatos",
        merchant_country="USA",
        mcc="6011" if atm else "5815",
    )


def ipm_file(file_id: str, presentments: Iterable[Presentment]) -> bytes:
    """The bytes of an IPM file: header, the presentments, trailer."""
    out = io.BytesIO()
    write(out, file_id, presentments)
    return out.getvalue()


def with_second_header(body: bytes) -> bytes:
    """The file `body` with a copy of its header after its first presentment, the trailer's
    count (PDS 0306) one more: written again by cardutil."""
    read = list(ipm.messages(io.BytesIO(body)))
    header, *middle, trailer = read
    trailer[ipm.MESSAGE_COUNT] = f"{len(read) + 1:08d}"
    out = io.BytesIO()
    writer = mciipm.IpmWriter(out, encoding=ipm.ENCODING, iso_config=ipm.BIT_CONFIG, blocked=True)
    for message in [header, middle[0], dict(header), *middle[1:], trailer]:
        writer.write(message)
    writer.close()
    return out.getvalue()


async def post_file(
    client: httpx.AsyncClient, key: str, body: bytes, content_type: str = "application/octet-stream"
) -> httpx.Response:
    return await client.post(
        "/operator/clearing-files",
        content=body,
        headers={"Authorization": f"Bearer {key}", "Content-Type": content_type},
    )


def report_of(response: httpx.Response, status: int = 201) -> dict[str, Any]:
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()["data"]
    return data
