"""The console's event pages: a new event, its entrants and check-in, the draw and release, the
printable table cards.

What it does: ``event_new`` creates a tournament or club night from one form
(``tournaments.services.create_tournament``); ``event`` lists the entrants (add from the club's
players or pairs, "add all", quick-add a newcomer, seed, withdraw), the check-in list, and each
round drawn as table cards (swap two entrants between tables and release the round while it is
private) and make every table's link in one step (``table_links.services.create_event_table_links``:
table *N* of the event, every round); ``event_print`` is the print view of a round's cards and
blank score sheets, one table a page or four to a page, each with its table's link, short code
and QR code; ``event_table_sheet`` one sheet of every table's QR code and short code for table
tents, where one link can be revoked (no other changes). The page loads the hall box by
itself (``hall_views``: the hall link, the round clock, the leaders switch). Every change is one
service call
(``tournaments.services``, ``tournaments.evening``, ``table_links.services``, ``clubs.services``); a
refusal is shown beside its field.

What it does not do: check domain rules or write a model itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from clubs import roster
from clubs import selectors as club_selectors
from clubs import services as club_services
from config.problems import Problem
from settlements import services as settlement_services
from table_links import services as table_services
from tournaments import evening as tournament_evening
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import EntrantKind, TournamentStatus
from web.console import fees, forms
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.club_views import _integer, _status
from web.console.table_links import event_table_links, round_tables, table_sheet

CANDIDATE_LIMIT = 200


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def event_new(request, club):
    problem = None
    form = forms.EventForm(
        request.POST if request.method == "POST" else None, initial={"name": gettext("Club night")}
    )
    if request.method == "POST" and form.is_valid():
        try:
            if form.cleaned_data["kind"] == "night":
                night = settlement_services.open_night(
                    club=club,
                    user=request.user,
                    name=form.cleaned_data["name"],
                    entry_fee_minor=forms.to_minor(
                        form.cleaned_data["entry_fee"], club.minor_unit_exponent, "entry_fee"
                    ),
                    prize_split=form.prize_percentages() or None,
                )
                messages.success(
                    request,
                    gettext("%(name)s is open: its games count from now.") % {"name": night.name},
                )
                return redirect("console:night", club.slug, night.pk)
            with transaction.atomic():
                tournament = tournament_services.create_tournament(
                    club=club, user=request.user, values=form.values(club.minor_unit_exponent)
                )
                if form.prize_percentages():
                    settlement_services.set_prize_split(
                        percentages=form.prize_percentages(),
                        user=request.user,
                        tournament_id=tournament.pk,
                    )
            messages.success(
                request,
                gettext("%(name)s created: now add the entrants.") % {"name": tournament.name},
            )
            return redirect("console:event", club.slug, tournament.pk)
        except Problem as error:
            problem = ProblemShown(error, {"stake_minor": "stake", "entry_fee_minor": "entry_fee"})
    context = {
        "club": club,
        "form": form,
        "problem": problem,
        "format_options": form.format_options(),
        "night_fields": form.NIGHT_FIELDS,
    }
    return render(request, "console/event_new.html", context, status=_status(problem, form))


def _candidates(club, tournament, query: str):
    """The club's active players (or pairs) not yet entered, matching ``query``."""
    entered = tournament.entrants.values_list(
        "team_id" if tournament.entrant_kind == EntrantKind.TEAM else "player_id", flat=True
    )
    if tournament.entrant_kind == EntrantKind.TEAM:
        rows = club_selectors.list_teams(club=club).filter(is_active=True).exclude(pk__in=entered)
        if query:
            rows = rows.filter(name__icontains=query)
    else:
        rows = club_selectors.list_players(club=club).filter(is_active=True).exclude(pk__in=entered)
        if query:
            rows = rows.filter(Q(display_name__icontains=query))
    return list(rows[:CANDIDATE_LIMIT])


def _item(tournament, identifier: int) -> dict:
    key = "team" if tournament.entrant_kind == EntrantKind.TEAM else "player"
    return {key: identifier}


def _event_action(request, club, tournament) -> str:
    """Do the posted action through one service; returns the message of its success."""
    post = request.POST
    action = post.get("action")
    user = request.user
    if action == "add":
        chosen = [_integer(value) for value in post.getlist("candidate")]
        if not chosen:
            raise Problem(
                code="nothing_chosen",
                pointer="/candidate",
                detail=gettext("Tick at least one to add."),
            )
        added = tournament_services.register_entrants(
            tournament_id=tournament.pk,
            user=user,
            entrants=[_item(tournament, identifier) for identifier in chosen],
        )
        return gettext("%(count)s added.") % {"count": len(added)}
    if action == "add_all":
        everyone = _candidates(club, tournament, "")
        added = tournament_services.register_entrants(
            tournament_id=tournament.pk,
            user=user,
            entrants=[_item(tournament, row.pk) for row in everyone],
        )
        return gettext("%(count)s added.") % {"count": len(added)}
    if action == "quick_add":
        return _quick_add(post, club, tournament, user)
    if action == "seed":
        seed_text = post.get("seed", "").strip()
        tournament_services.update_entrant(
            tournament_id=tournament.pk,
            entrant_id=_integer(post.get("entrant")),
            user=user,
            seed=_integer(seed_text) if seed_text else None,
        )
        return gettext("Seed saved.")
    if action == "withdraw":
        tournament_services.remove_entrant(
            tournament_id=tournament.pk, entrant_id=_integer(post.get("entrant")), user=user
        )
        return gettext("Withdrawn.")
    if action == "check_in":
        present = [_integer(value) for value in post.getlist("present")]
        tournament_evening.mark_present(tournament_id=tournament.pk, user=user, present_ids=present)
        return gettext("%(count)s checked in.") % {"count": len(present)}
    if action == "fee":
        return fees.mark_fee(request, tournament_id=tournament.pk)
    if action == "draw":
        round_ = tournament_services.draw_next_round(tournament_id=tournament.pk, user=user)
        return gettext("Round %(number)s drawn.") % {"number": round_.number}
    if action == "swap":
        tournament_evening.swap_entrants(
            tournament_id=tournament.pk,
            round_number=_integer(post.get("round")),
            first_entrant_id=_integer(post.get("first")),
            second_entrant_id=_integer(post.get("second")),
            user=user,
        )
        return gettext("Swapped.")
    if action == "table_links":
        made = table_services.create_event_table_links(tournament=tournament, user=user)
        if not made:
            return gettext("Every table already has its link.")
        return ngettext(
            "%(count)s table link made: print the cards or the QR sheet.",
            "%(count)s table links made: print the cards or the QR sheet.",
            len(made),
        ) % {"count": len(made)}
    if action == "release":
        round_ = tournament_evening.release_round(
            tournament_id=tournament.pk, round_number=_integer(post.get("round")), user=user
        )
        return gettext("Round %(number)s released: the players see it now.") % {
            "number": round_.number
        }
    raise Problem(code="invalid", detail=gettext("Unknown action."))


def _quick_add(post, club, tournament, user) -> str:
    """A newcomer by name (a team event: two names, made a pair), entered at once."""
    names = [post.get("name", "").strip(), post.get("partner", "").strip()]
    if not names[0]:
        raise Problem(code="required", pointer="/name", detail=gettext("Give a name."))
    with transaction.atomic():
        if tournament.entrant_kind == EntrantKind.TEAM:
            if not names[1]:
                raise Problem(
                    code="required",
                    pointer="/partner",
                    detail=gettext("A pair needs a partner's name too."),
                )
            players = roster.add_players_from_list(club=club, names=names)
            (team,) = roster.make_pairs(club=club, player_ids=[player.pk for player in players])
            item, label = {"team": team.pk}, team.name
        else:
            player = club_services.add_player(club=club, display_name=names[0])
            item, label = {"player": player.pk}, player.display_name
        tournament_services.register_entrants(
            tournament_id=tournament.pk, user=user, entrants=[item]
        )
    return gettext("%(name)s added and entered.") % {"name": label}


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def event(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    problem = None
    if request.method == "POST":
        try:
            messages.success(request, _event_action(request, club, tournament))
            return redirect("console:event", club.slug, tournament.pk)
        except Problem as error:
            problem = ProblemShown(error, {"names": "name", "display_name": "name"})
            problem.action = request.POST.get("action")
        tournament = event_of(club, tournament_id)
    query = request.GET.get("q", "").strip()
    entrants = list(tournament_selectors.list_entrants(tournament=tournament))
    rounds = list(tournament_selectors.list_rounds(tournament=tournament, with_unreleased=True))
    shown_rounds = [
        {"round": round_, "tables": round_tables(club, round_)} for round_ in reversed(rounds)
    ]
    late_entry = tournament_services.accepts_late_entrants(tournament)
    device_links = table_services.count_live_event_links(tournament)
    context = {
        "device_links": device_links,
        # The tables drawn so far (no query: the rounds are loaded), else the entrants'.
        "table_count": max(
            (table["number"] for shown in shown_rounds for table in shown["tables"]),
            default=-(
                -sum(entrant.is_present for entrant in entrants)
                // max(tournament.table_size or 1, 1)
            ),
        ),
        "club": club,
        "tournament": tournament,
        "entrants": entrants,
        "present_count": sum(entrant.is_present for entrant in entrants),
        "fees": fees.fee_rows(club, tournament=tournament),
        "candidates": (
            _candidates(club, tournament, query)
            if tournament.status == TournamentStatus.REGISTRATION or late_entry
            else []
        ),
        "query": query,
        "rounds": shown_rounds,
        "is_team_event": tournament.entrant_kind == EntrantKind.TEAM,
        "registration": tournament.status == TournamentStatus.REGISTRATION,
        "late_entry": late_entry,
        "closed": tournament.status == TournamentStatus.CLOSED,
        "problem": problem,
    }
    return render(request, "console/event.html", context, status=_status(problem))


@require_safe
@organiser_page
def event_print(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    rounds = list(tournament_selectors.list_rounds(tournament=tournament, with_unreleased=True))
    wanted = request.GET.get("round")
    chosen = next((round_ for round_ in rounds if str(round_.number) == wanted), None)
    if chosen is None and rounds:
        chosen = rounds[-1]
    layout = "four-a-page" if request.GET.get("layout") == "four" else "one-a-page"
    base_url = request.build_absolute_uri("/").rstrip("/")
    links = event_table_links(tournament, base_url=base_url, with_qr=True)
    tables = (
        round_tables(club, chosen, with_qr=True, base_url=base_url, links=links) if chosen else []
    )
    context = {
        "missing_links": any(
            table["code"] is None for table in tables if not table["match"].is_bye
        ),
        "club": club,
        "tournament": tournament,
        "round": chosen,
        "rounds": rounds,
        "tables": [table for table in tables if not table["match"].is_bye],
        "layout": layout,
        "sheet_rows": range(6 if layout == "four-a-page" else 12),
    }
    return render(request, "console/print.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def event_table_sheet(request, club, tournament_id: int):
    """Every table's QR code and short code on one sheet (table tents); Revoke ends one link."""
    tournament = event_of(club, tournament_id)
    return table_sheet(
        request,
        club,
        tournament,
        sheet="console:table-sheet",
        closed=tournament.status == TournamentStatus.CLOSED,
        context={"tournament": tournament},
    )
