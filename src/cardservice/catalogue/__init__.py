"""Shipped reference data (tags, fees, BINs, payment currencies) and its loader."""
