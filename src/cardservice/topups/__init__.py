"""Top-ups (API.md §15): a cardholder funds an account by one of the seed's payment methods;
the operator confirms what arrived, or cancels; unpaid ones expire."""
