"""Logs, metrics and traces: what the service tells its operator about itself."""
