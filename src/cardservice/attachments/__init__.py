"""Attachments: uploads kept content-addressed in the blob store."""
