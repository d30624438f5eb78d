"""Transactions: the authorization engine, state machine, reports and receipts."""
