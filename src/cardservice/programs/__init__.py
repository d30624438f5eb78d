"""Card programs (docs/operations.md#running-a-program): the BINs a program's users buy from,
spending controls on top of each card's, and the validity of its new cards."""
