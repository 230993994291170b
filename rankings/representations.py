"""The shapes both the ranking pages and the API show (pages import no ``api`` module).

What it does: ``ranking_row(rating, position)`` — one ranked player: position, id, the name as
the player chose it shown (``public_name``), ordinal (one decimal), mu, sigma, rated games, form
(None: no game in the window) and the games in its window, lifetime points and events;
``history_step(change)`` — one ranked game of a player; ``placing_row(placing)`` — one event.

What it does not do: query anything (the selectors hand it rows with what it reads).
"""

from __future__ import annotations

from rankings.models import FederationRating, Placing, RankingChange


def ranking_row(rating: FederationRating, position: int) -> dict:
    player = rating.federation_player
    return {
        "position": position,
        "player": {"id": player.pk, "name": player.public_name},
        "ordinal": round(rating.ordinal, 1),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "form": rating.form,
        "form_games": rating.form_games,
        "points": rating.points,
        "events": rating.events,
    }


def history_step(change: RankingChange) -> dict:
    return {
        "game": change.game_id,
        "club": {"slug": change.club.slug, "name": change.club.name},
        "game_type": change.variant,
        "finished_at": change.finished_at,
        "won": change.won,
        "chance": round(change.chance, 4),
        "ordinal": round(change.ordinal, 1),
        "form": change.form,
    }


def placing_row(placing: Placing) -> dict:
    return {
        "event": placing.event_name,
        "club": {"slug": placing.club.slug, "name": placing.club.name},
        "kind": "tournament" if placing.settlement.tournament_id else "night",
        "held_at": placing.held_at,
        "place": placing.place,
        "field": placing.field,
        "points": placing.points,
    }
