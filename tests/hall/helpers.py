"""Test helpers of the hall screen: a drive ready to draw, the screen's client, the clock."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.tournaments.play_helpers import Event


def drive(event: Event, *, rounds: int = 2, players=None) -> int:
    """A 25 drive of the event's players at tables of four (two sides), drawn privately."""
    players = players if players is not None else event.players
    tournament = event.create_tournament(
        name="Parish Drive",
        game="25",
        format="drive",
        table_size=4,
        sides_per_table=2,
        round_count=rounds,
        private_draws=True,
        lots_seed=7,
        entrants=[{"player": player.pk} for player in players],
    )
    return tournament["id"]


def make_hall_link(event: Event, tournament_id: int) -> dict:
    """The hall link made through the API: ``{"id", "url", "code", "qr_svg", "created_at"}``."""
    return event.ok("post", f"/api/tournaments/{tournament_id}/hall/link/", status=201)["link"]


def token_of(link: dict) -> str:
    return link["url"].rstrip("/").rsplit("/", 1)[-1]


def screen(credential: str, etag: str | None = None, client: APIClient | None = None):
    """The public screen's answer (anonymous, no login), conditional with ``etag``."""
    client = client or APIClient()
    headers = {"If-None-Match": etag} if etag else None
    return client.get(f"/api/hall/{credential}/", headers=headers)


def clock(event: Event, tournament_id: int, action: str, minutes=None, *, status=200):
    body = {"action": action}
    if minutes is not None:
        body["minutes"] = minutes
    return event.ok("post", f"/api/tournaments/{tournament_id}/hall/clock/", body, status=status)
