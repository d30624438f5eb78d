"""The program operator's API (API.md §15): keys with scopes, users, funding, top-ups,
programs and the ACS's 3DS codes."""
