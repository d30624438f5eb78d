"""Webhook endpoints and the delivery worker (Standard Webhooks, at least once)."""

from cardservice.webhooks.records import endpoint_record
from cardservice.webhooks.schemas import AttemptRecord, EndpointCreate, EndpointRecord
from cardservice.webhooks.worker import DeliveryWorker, running_worker

__all__ = [
    "AttemptRecord",
    "DeliveryWorker",
    "EndpointCreate",
    "EndpointRecord",
    "endpoint_record",
    "running_worker",
]
