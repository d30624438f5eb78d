"""Webhook endpoints and the delivery worker (Standard Webhooks, at least once)."""
