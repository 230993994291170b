"""The first night's checklist on the console's overview: what is done, read from the club's data.

What it does: ``first_night_steps(club, events, nights)`` lists the six steps of a first night
— players, house rules, an event, print the tables, score, close — each with where to do it and
whether it is done. Nothing is stored: each tick is computed (one query for the facts the
overview has not loaded already):

- *players*: the club has a player;
- *house rules*: the club plays a rule of its own, or has held an event (its rules are then
  settled: an event freezes them);
- *event*: the club has a tournament or a club night;
- *print*: a round of a tournament has been drawn (its tables can be printed);
- *score*: a hand has been recorded in one of the club's games;
- *close*: a tournament or a club night has been closed.

What it does not do: decide any of it (the services do) or hide the steps (the overview shows
the list until every step is done).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.translation import gettext_lazy

from clubs.models import Club, Player
from games.models import Hand
from settlements.models import NightStatus
from tournaments.models import Round, TournamentStatus

STEPS = (
    ("players", gettext_lazy("Add your players (paste a list)")),
    ("house_rules", gettext_lazy("Set the house rules (a preset, then adjust)")),
    ("event", gettext_lazy("Create the event: a drive, a tournament or a club night")),
    ("print", gettext_lazy("Draw the first round and print the tables")),
    ("score", gettext_lazy("Score the hands at the tables")),
    ("close", gettext_lazy("Close the event and settle up")),
)


def _facts(club: Club) -> dict:
    return (
        Club.objects.filter(pk=club.pk)
        .annotate(
            has_players=Exists(Player.objects.filter(club=OuterRef("pk"))),
            has_rounds=Exists(Round.objects.filter(tournament__club=OuterRef("pk"))),
            has_hands=Exists(Hand.objects.filter(game__club=OuterRef("pk"))),
        )
        .values("has_players", "has_rounds", "has_hands")
        .get()
    )


def first_night_steps(club: Club, events: list, nights: list) -> list[dict]:
    """The six steps, in order: ``{"key", "text", "url", "done"}`` (see the module's doc)."""
    facts = _facts(club)
    latest = events[0] if events else None
    has_event = bool(events or nights)
    done = {
        "players": facts["has_players"],
        "house_rules": bool(club.default_house_rules) or has_event,
        "event": has_event,
        "print": facts["has_rounds"],
        "score": facts["has_hands"],
        "close": any(event.status == TournamentStatus.CLOSED for event in events)
        or any(night.status == NightStatus.CLOSED for night in nights),
    }
    slug = club.slug
    new_event = reverse("console:event-new", args=[slug])
    if latest is not None:
        event_url = reverse("console:event", args=[slug, latest.pk])
        print_url = (
            reverse("console:print", args=[slug, latest.pk]) if facts["has_rounds"] else event_url
        )
        score_url = reverse("console:board", args=[slug, latest.pk])
        close_url = reverse("console:results", args=[slug, latest.pk])
    elif nights:
        event_url = print_url = score_url = close_url = reverse(
            "console:night", args=[slug, nights[0].pk]
        )
    else:
        event_url = print_url = score_url = close_url = new_event
    urls = {
        "players": reverse("console:players", args=[slug]),
        "house_rules": reverse("console:house-rules", args=[slug]),
        "event": event_url,
        "print": print_url,
        "score": score_url,
        "close": close_url,
    }
    return [
        {"key": key, "text": text, "url": urls[key], "done": bool(done[key])} for key, text in STEPS
    ]
