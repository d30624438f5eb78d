"""0800 network management (docs/network.md#the-network-interface-iso-8583): sign-on, sign-off,
echo, all answered `00`."""

from __future__ import annotations

from cardservice.network.codec import Message
from cardservice.network.fields import ECHO, SIGN_OFF, SIGN_ON
from cardservice.network.host import Answer, Host, Malformed, require
from cardservice.network.responses import APPROVED


async def network_management(_host: Host, message: Message) -> Answer:
    """0800 → 0810."""
    require(message, 7, 11, 70)
    if message.fields[70] not in (SIGN_ON, SIGN_OFF, ECHO):
        raise Malformed("network management code")
    return {"39": APPROVED}
