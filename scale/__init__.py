"""A federation's history at scale: the generator behind ``manage.py generate_history``.

What it does: fills PostgreSQL with the rows the services would have written over a season of a
federation's clubs (docs/operations.md, "A season of history: the generator"): ``pool`` plays a
pool of whole games once with the computer players through the engine, ``plan`` lays out clubs,
players, nights and the games sampled from the pool, ``rows`` turns them into the rows of each
table (the ledger, the settle-up, the season table and the ratings as the services compute them),
``events`` runs each club's tournaments through the tournaments' own services,
``copy`` bulk-loads them with ``COPY``, ``report`` counts them and their size on disk.

What it does not do: serve requests, or run next to a live site (it takes ids past each table's
current maximum and moves the sequences after).
"""
