"""The leagues API: a federation's leagues, fixtures, results and penalties (docs/leagues.md)."""
