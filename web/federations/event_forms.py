"""The Events section of a federation's organisers' page, and the nominations of the club console's
federation box.

What it does: ``act`` runs one event form of the organisers' page (``new_event``: an event at a
member club, its tournament settings the table size, games per match and rounds;
``select_event``: select the entrants; ``event_tournament``: create the host club's
tournament), each through ``federations.events``; ``context`` gives the page its events with
their nominations and selected entrants, the member clubs to host, and the choices;
``club_act`` runs the console box's nomination forms (``nominate``, ``withdraw_nomination``) for
the club's own players. A form field that is not a number is refused like the API refuses it
(``invalid``, its pointer), nothing stored.

What it does not do: decide rules (``federations.events``) or who may (the views' wrappers).
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

from clubs.models import GAME_CHOICES, Club
from config.problems import Problem
from federations import events, selectors
from federations.models import Federation, SelectionRule
from tournaments.models import Format
from web.pages import labels

EVENT_ACTIONS = ("new_event", "select_event", "event_tournament")
CLUB_EVENT_ACTIONS = ("nominate", "withdraw_nomination")


def _number(post, name: str, *, required: bool = True) -> int | None:
    text = (post.get(name) or "").strip()
    if not text and not required:
        return None
    try:
        return int(text)
    except ValueError:
        raise Problem(
            code="invalid", detail=_("Give a whole number."), pointer=f"/{name}"
        ) from None


def _event(federation: Federation, post):
    return selectors.get_event(federation=federation, event_id=_number(post, "event") or 0)


def _new_event(federation: Federation, user, post) -> None:
    name = post.get("name", "").strip()
    if not name or len(name) > 120:
        raise Problem(code="required", detail=_("Give a name."), pointer="/name")
    host = selectors.find_club(slug=post.get("host_club", "").strip())
    if host is None:
        raise Problem(code="unknown_club", detail=_("No club has this slug."), pointer="/host_club")
    game, tournament_format, rule = post.get("game"), post.get("format"), post.get("rule")
    for value, choices, pointer in (
        (game, GAME_CHOICES, "/game"),
        (tournament_format, Format.choices, "/format"),
        (rule, SelectionRule.choices, "/rule"),
    ):
        if value not in dict(choices):
            raise Problem(code="invalid", detail=_("Choose one."), pointer=pointer)
    try:
        day = datetime.date.fromisoformat(post.get("date", ""))
    except ValueError:
        raise Problem(code="invalid_date", detail=_("Not a valid date."), pointer="/date") from None
    quota = _number(post, "quota")
    if quota < 1 or quota > 64:
        raise Problem(code="invalid", detail=_("From 1 to 64."), pointer="/quota")
    settings = {"table_size": _number(post, "table_size")}
    settings["match_games"] = _number(post, "match_games")
    round_count = _number(post, "round_count", required=False)
    if round_count is not None:
        settings["round_count"] = round_count
    events.create_event(
        federation=federation,
        user=user,
        name=name,
        host_club=host,
        game=game,
        format=tournament_format,
        date=day,
        rule=rule,
        quota=quota,
        season_year=_number(post, "season_year", required=False),
        settings=settings,
    )


def act(request, federation: Federation, action: str) -> None:
    """One event form of the organisers' page (``EVENT_ACTIONS``)."""
    user, post = request.user, request.POST
    if action == "new_event":
        _new_event(federation, user, post)
    elif action == "select_event":
        events.select_entrants(event=_event(federation, post), user=user)
    else:
        events.create_event_tournament(event=_event(federation, post), user=user)


def context(federation: Federation) -> dict:
    return {
        "events": list(selectors.list_events(federation=federation)),
        "host_clubs": selectors.list_member_clubs(federation=federation),
        "games": [(code, labels.game_name(code)) for code, _label in GAME_CHOICES],
        "formats": [(code, labels.label(labels.FORMATS, code)) for code, _label in Format.choices],
        "rules": SelectionRule.choices,
    }


def club_act(request, club: Club, action: str) -> None:
    """One nomination form of the console's federation box (``CLUB_EVENT_ACTIONS``)."""
    post = request.POST
    federation = selectors.get_federation(slug=post.get("federation", ""))
    event = _event(federation, post)
    if action == "nominate":
        player = club.players.filter(pk=_number(post, "player") or 0).first()
        if player is None:
            raise Problem(
                code="unknown_player", detail=_("No such player in this club."), pointer="/player"
            )
        events.nominate(event=event, user=request.user, club=club, player=player)
    else:
        nomination = selectors.get_nomination(
            event=event, club=club, nomination_id=_number(post, "nomination") or 0
        )
        events.withdraw_nomination(nomination=nomination, user=request.user)
