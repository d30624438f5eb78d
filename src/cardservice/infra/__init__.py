"""Process-wide machinery beside the database: the background loop's periodic jobs and the
one outbound HTTP client for users' URLs (webhooks, decision endpoints)."""
