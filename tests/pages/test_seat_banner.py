"""The seat banner's line (``web.pages.tonight.seat_banner``): names for people, the seat as
printed on the table, in the reader's language; no database."""

from __future__ import annotations

import pytest
from django.utils import translation

from web.pages.tonight import seat_banner


def panel(**values) -> dict:
    return {"round_name": "Round 2", "round_number": 2, "table": 4, "seat": 2} | values


@pytest.mark.parametrize(
    ("values", "text", "key"),
    [
        ({"partners": ["Mary Byrne"]}, "Round 2: table 4, seat 2, with Mary Byrne", "2-4-2"),
        ({"partners": []}, "Round 2: table 4, seat 2", "2-4-2"),
        ({"seat": None, "partners": ["Ann", "Bill"]}, "Round 2: table 4, with Ann & Bill", "2-4-0"),
        ({"seat": None, "partners": []}, "Round 2: table 4", "2-4-0"),
    ],
)
def test_the_banner_says_where_to_sit_in_one_line(values, text, key):
    assert seat_banner(panel(**values)) == {"text": text, "key": key}


def test_the_banner_in_french():
    with translation.override("fr"):
        banner = seat_banner(panel(round_name="Tour 2", partners=["Mary Byrne"]))
    assert banner["text"] == "Tour 2 : table 4, place 2, avec Mary Byrne"
