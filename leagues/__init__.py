"""Inter-club leagues of a federation: teams, a double round robin, results, the table.

See docs/leagues.md.
"""
