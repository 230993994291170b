"""The organiser's console: the pages that run a club night or a tournament, set-up to settle-up.

Every write goes through the apps' services (the same checks, problems and audit as the API); a
page never writes a model. Only organisers of the club may open these pages.
"""
