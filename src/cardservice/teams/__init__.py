"""Teams that manage their spending (API.md §20): budgets, requests, receipts chased."""
