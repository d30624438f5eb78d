"""The cardholder dashboard under `/app`: server-rendered pages that read everything through
the service's own JSON API with the signed-in user's credential."""
