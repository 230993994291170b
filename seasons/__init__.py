"""A club's season: its season table and its players' ratings, stored as snapshots by jobs."""
