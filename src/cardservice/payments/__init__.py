"""Payment methods and the currencies each accepts."""
