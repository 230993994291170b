"""Rankings of a federation's players across its member clubs: rating, form, lifetime points.

See docs/rankings.md.
"""
