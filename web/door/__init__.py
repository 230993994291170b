"""The players' own check-in at the door: the page a door code's QR code opens (docs/door.md)."""
