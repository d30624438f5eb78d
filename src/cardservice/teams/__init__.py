"""Teams that manage their spending (docs/teams.md#teams-budgets-requests-receipts): budgets,
requests, receipts chased."""
