"""The federations API under /api/federations/ (docs/federations.md)."""
