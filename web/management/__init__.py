"""Management commands that span the apps (``load_demo``)."""
