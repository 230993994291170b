"""The rankings API: a federation's ranking and a federation player's history (docs/rankings.md)."""
