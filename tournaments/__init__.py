"""Tournaments: knockout, round robin, swiss and drive events played as matches of Jink games."""
