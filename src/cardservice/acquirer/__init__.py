"""The acquirer's side of the ISO 8583 network (docs/network.md#the-network-interface-iso-8583): the
simulator that plays the merchants' acquirers and the wallets' token service against the
issuer's host (`network/`) — `client.py` the connection, `messages.py` the message builders,
`simulator.py` the runs of `cardservice network run`, `wallets.py` the token service,
`presentments.py` the run's clearing file, `representments.py` the answer to the issuer's
chargebacks, `repository.py` its own reads. It speaks the
host's wire format (`network.codec`, `network.fields`) and is never imported by it."""

from cardservice.acquirer.client import NetworkClient, transmitted_now
from cardservice.acquirer.repository import card_to_send, token_expiry_to_send
from cardservice.acquirer.wallets import draw_dpan, token_expiry

__all__ = [
    "NetworkClient",
    "card_to_send",
    "draw_dpan",
    "token_expiry",
    "token_expiry_to_send",
    "transmitted_now",
]
