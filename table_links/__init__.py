"""Table links: an opaque, expiring, revocable credential for one table's games (see models)."""
