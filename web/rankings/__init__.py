"""The public ranking pages of a federation (docs/rankings.md)."""
