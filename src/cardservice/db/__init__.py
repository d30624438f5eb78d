"""The database: pools, PRAGMAs, the unit of work and its retries, the dialects' SQL text,
paging, read replicas and which failures mean "unreachable". It imports no domain."""
