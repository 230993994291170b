"""Tests of the clubs app: models, permissions, services, API, admin, demo data."""
