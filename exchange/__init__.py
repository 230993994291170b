"""The exchange format: one night's or one event's results as a versioned JSON document
(docs/exchange.md, docs/exchange.schema.json), exported from one Jink and imported into another."""
