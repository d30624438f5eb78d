"""cardservice: a self-hostable HTTP JSON service for payment cards and their ledger."""

__version__ = "0.1.0"
