"""Process-wide machinery beside the database: the background loop's periodic jobs, the
one outbound HTTP client for users' URLs (webhooks, decision endpoints), and the end of a
server's processes with it."""
