"""What a file really is, from its first bytes (the client's claim is not trusted)."""

from __future__ import annotations

SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"%PDF-", "application/pdf"),
)


def sniff(data: bytes) -> str | None:
    """The MIME type of a JPEG, PNG, WebP or PDF file; None for anything else."""
    for magic, mime in SIGNATURES:
        if data.startswith(magic):
            return mime
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None
