"""Cards: purchase, numbers, listing, favorites and order."""
