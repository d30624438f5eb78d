"""How long the service waits on Redis (the shared rate limits, the replicas' lag), one place
for every Redis client of the process.

The waits are bounded for a hung Redis, generous enough that a loaded host does not fall
back (1 s did, measured on the fleet); after one failure Redis is skipped for the retry
delay, so a hung Redis costs one slow request per `REDIS_RETRY_SECONDS`, not every request.
"""

REDIS_CONNECT_TIMEOUT_SECONDS = 2.0
REDIS_TIMEOUT_SECONDS = 5.0
REDIS_RETRY_SECONDS = 5.0
WARNING_INTERVAL_SECONDS = 60.0  # at most one warning a minute while Redis is away
