"""Webhooks: a club's HTTPS endpoints hear of results, signed, retried, logged."""
