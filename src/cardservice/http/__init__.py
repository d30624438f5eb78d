"""The HTTP edge: routing, request parameters, the OpenAPI document, middleware, rate
limits, list filters, health and malformed-HTTP answers. Domains never import it; their
`routes.py` modules (the edge of each domain) do."""
