"""Liveness, readiness and the metrics page (`/health`, `/ready`, `/metrics`)."""
