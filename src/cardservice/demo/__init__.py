"""The demo data of `make run`, made through the services as any client would."""
