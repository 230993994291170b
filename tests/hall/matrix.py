"""What the permission matrix (tests/test_permission_matrix.py) needs from the hall screen.

``HALL_BODIES`` are valid request bodies for the hall routes that take one. The matrix's world
has no hall link: ``/api/hall/{credential}/`` (given a table link's token, which opens no hall)
is a 404 for everyone; the screen by a real link is tested in tests/hall/test_api.py.
"""

from __future__ import annotations

HALL_BODIES = {
    ("hall:settings", "PATCH"): lambda world: {"hide_leaders": True},
    ("hall:clock", "POST"): lambda world: {"action": "start", "minutes": 20},
    ("hall:night-settings", "PATCH"): lambda world: {"hide_leaders": True},
    ("hall:night-clock", "POST"): lambda world: {"action": "start", "minutes": 20},
}
