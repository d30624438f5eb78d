"""Value types every layer shares: money amounts, id and slug patterns, the strict request
base of every Pydantic request model."""
