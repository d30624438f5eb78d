"""The program operator's API (docs/operations.md#running-a-program): keys with scopes, users,
funding, top-ups, programs and the ACS's 3DS codes."""
