"""The public pages of a federation's leagues: the table and fixtures, and the calendar feeds."""
