"""Management commands of the clubs app (none today; see ``commands``)."""
