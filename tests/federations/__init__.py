"""Tests of federations (docs/federations.md)."""
