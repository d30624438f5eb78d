"""What must never appear in a log line: tokens, MFA codes, full card numbers, wallet device
PANs (DPANs: the simulated token service's range, and every DPAN a test made)."""

from __future__ import annotations

import re

from cardservice.acquirer.messages import TOKEN_BIN
from cardservice.cards.numbers import luhn_valid
from cardservice.catalogue.loader import load_catalogue
from tests.factories import ISSUED_SECRETS

CANDIDATE_PAN = re.compile(r"(?<!\d)\d{13,19}(?!\d)")
TOKEN = re.compile(r"cs_[A-Za-z0-9_-]{20,}")


def secrets_in(text: str) -> list[str]:
    """Every issued credential, token-shaped string or BIN-prefixed Luhn number in `text`."""
    prefixes = [entry["bin"] for entry in load_catalogue()["bins"]] + [TOKEN_BIN]
    found = [secret for secret in ISSUED_SECRETS if secret in text]
    found += TOKEN.findall(text)
    found += [
        number
        for number in CANDIDATE_PAN.findall(text)
        if luhn_valid(number) and any(number.startswith(prefix) for prefix in prefixes)
    ]
    return sorted(set(found))
