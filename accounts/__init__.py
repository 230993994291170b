"""Accounts: registration, device tokens, session login and lockouts (see accounts.models)."""
