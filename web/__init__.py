"""The people's pages: the top floor, above every app (as ``config/`` stands beside them).

Every HTML page of the site lives here — the player pages, the scorekeeper's table app, the
organiser's console, the practice table — and the demo loader. A page reads through the apps'
selectors and writes through their services (the same checks, problems and audit as the API);
no app imports this package (an import-linter contract in pyproject.toml says so).
"""
