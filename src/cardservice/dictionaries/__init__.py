"""Reference dictionaries, BINs and fee schedules, served from the shipped catalogue."""
