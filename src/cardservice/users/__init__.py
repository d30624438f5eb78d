"""Users: creation, the user summary and the 3DS codes waiting for them."""
