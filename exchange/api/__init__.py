"""HTTP endpoints of the exchange format (``exchange.api.views``)."""
