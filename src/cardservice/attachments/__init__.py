"""Attachments: uploads kept content-addressed in the blob store."""

from __future__ import annotations

from cardservice.attachments.service import AttachmentNotFound, own_attachment, upload_body_limit

__all__ = ["AttachmentNotFound", "own_attachment", "upload_body_limit"]
