"""Webhook endpoints and the delivery worker (Standard Webhooks, at least once)."""

from cardservice.webhooks.queue import replay
from cardservice.webhooks.records import endpoint_record
from cardservice.webhooks.schemas import (
    AttemptRecord,
    EndpointCreate,
    EndpointRecord,
    ProgramEndpointCreate,
    ProgramEndpointRecord,
    ProgramEndpointUpdate,
    ReplayRequest,
)
from cardservice.webhooks.worker import DeliveryWorker, running_worker

__all__ = [
    "AttemptRecord",
    "DeliveryWorker",
    "EndpointCreate",
    "EndpointRecord",
    "ProgramEndpointCreate",
    "ProgramEndpointRecord",
    "ProgramEndpointUpdate",
    "ReplayRequest",
    "endpoint_record",
    "replay",
    "running_worker",
]
