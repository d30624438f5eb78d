"""Our signatures are Standard Webhooks signatures: the `standardwebhooks` package verifies
them, and the verification snippet of docs/events.md accepts them and refuses forgeries."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from cardservice.infra.outbound import masked, new_secret, signature_header

DOC = Path(__file__).parents[2] / "docs" / "events.md"
BODY = b'{"uuid":"msg_1","type":"card.created","data":{}}'


def _snippet() -> Any:
    """`verify_webhook` as defined by the Python block of docs/events.md."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    (code,) = [b for b in blocks if "def verify_webhook" in b]
    namespace: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace["verify_webhook"]


def _headers(secrets: list[str], stamp: int) -> dict[str, str]:
    return {
        "webhook-id": "msg_1",
        "webhook-timestamp": str(stamp),
        "webhook-signature": signature_header(secrets, "msg_1", stamp, BODY),
    }


def test_the_package_verifies_our_signature_and_its_own_matches_ours() -> None:
    secret, stamp = new_secret(), int(time.time())
    headers = _headers([secret], stamp)
    assert Webhook(secret).verify(BODY, headers)["type"] == "card.created"
    theirs = Webhook(secret).sign("msg_1", datetime.fromtimestamp(stamp, UTC), BODY.decode())
    assert theirs == headers["webhook-signature"]


def test_each_live_secret_signs_and_a_stranger_secret_fails() -> None:
    old, new, stamp = new_secret(), new_secret(), int(time.time())
    headers = _headers([new, old], stamp)
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (old, new):
        Webhook(secret).verify(BODY, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(BODY, headers)


def test_the_documented_snippet_verifies_and_refuses() -> None:
    verify_webhook = _snippet()
    secret, stamp = new_secret(), int(time.time())
    assert verify_webhook(secret, _headers([secret], stamp), BODY)["type"] == "card.created"
    for signers, when, body in (
        ([new_secret()], stamp, BODY),  # another secret
        ([secret], stamp, BODY + b" "),  # a changed body
        ([secret], stamp - 3600, BODY),  # replayed an hour later
    ):
        with pytest.raises(ValueError):
            verify_webhook(secret, _headers(signers, when), body)


def test_secrets_are_24_random_bytes_and_masked_to_four_characters() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_") and len(secret) == 6 + 32 and secret != new_secret()
    assert masked(secret) == "whsec_****" + secret[-4:]
