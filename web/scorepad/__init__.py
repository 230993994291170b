"""The scorekeeper's table app: hand entry on a tablet, by taps, offline-safe (issue 9)."""
