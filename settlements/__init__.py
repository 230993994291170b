"""Club nights and settle-ups: the money side of an evening's play (see settlements.models)."""
