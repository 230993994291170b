"""The federation's own pages: the list and a new federation, the organisers' page, the player's
public choices.

What it does: ``index`` lists the federations and, for a signed-in user, takes the new
federation form (its creator becomes its organiser); ``federation`` is the organisers' page — its
organisers (add an existing account by username or e-mail, remove one but never the last), the
member clubs and invitations (invite a club by its slug, withdraw), the federation players with
their links (new player, link a member club's player now or propose it to the club, unlink,
merge two players, undo a merge), the events (``web.federations.event_forms``: a new event,
its nominations and selected entrants, select, create the host club's tournament), the leagues
(``web.leagues.forms``: a new league, enter a member club's team, draw the fixtures) and the
audit; ``player_choices`` shows a federation player's
public choices to its player (who may change them) and to the organisers (who read them). Every
form posts an ``action`` and goes through ``federations.services``; a refusal is shown beside the
form (``ProblemShown``) with its status, nothing stored.

What it does not do: decide rules (``federations.services``) or who may
(``federations.permissions``).
"""

from __future__ import annotations

import re

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import CURRENCY_CHOICES, Player
from config.problems import Problem
from federations import levy, organisers, selectors, services
from federations.models import FederationAuditKind, NameShown
from federations.permissions import is_organiser, is_the_player
from web.console.access import ProblemShown
from web.federations import event_forms
from web.federations.access import federation_organiser_page
from web.leagues import forms as league_forms

SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def _int(request, name: str) -> int:
    try:
        return int(request.POST.get(name) or 0)
    except ValueError:
        return 0


@require_http_methods(["GET", "HEAD", "POST"])
def index(request):
    problem = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        post = request.POST
        try:
            currency = post.get("currency", "")
            name, slug = post.get("name", "").strip(), post.get("slug", "").strip()
            if not name or len(name) > 120:
                raise Problem(code="required", detail=_("Give a name."), pointer="/name")
            if not slug or len(slug) > 50 or not SLUG.fullmatch(slug):
                raise Problem(
                    code="invalid",
                    detail=_("Letters, digits and hyphens only, as in its web address."),
                    pointer="/slug",
                )
            if currency not in dict(CURRENCY_CHOICES):
                raise Problem(code="invalid", detail=_("Choose a currency."), pointer="/currency")
            federation = services.create_federation(
                user=request.user,
                name=name,
                slug=slug,
                currency=currency,
                levy_rate_minor=levy.parse_rate(post.get("levy_rate") or "0", currency),
            )
        except Problem as error:
            problem = ProblemShown(error)
        else:
            return redirect("federation_pages:federation", slug=federation.slug)
    return render(
        request,
        "federations/index.html",
        {
            "federations": selectors.list_federations(),
            "currencies": CURRENCY_CHOICES,
            "problem": problem,
            "posted": request.POST,
        },
        status=problem.status if problem else 200,
    )


def _act(request, federation, action: str):
    """One form of the organisers' page, through the services."""
    user, post = request.user, request.POST
    if action == "invite":
        club = selectors.find_club(slug=post.get("club", "").strip())
        if club is None:
            raise Problem(code="unknown_club", detail=_("No club has this slug."), pointer="/club")
        services.invite_club(federation=federation, user=user, club=club)
    elif action == "withdraw":
        club = selectors.get_club_of_federation(federation=federation, slug=post.get("club", ""))
        services.withdraw_invitation(federation=federation, user=user, club=club)
    elif action == "add_organiser":
        identifier = post.get("identifier", "").strip()
        organisers.add_organiser(federation=federation, user=user, identifier=identifier)
    elif action == "remove_organiser":
        role = selectors.get_organiser(federation=federation, user_id=_int(request, "organiser"))
        organisers.remove_organiser(federation=federation, user=user, role=role)
        if role.user_id == user.pk:  # they stepped down: the page is no longer theirs
            return redirect("federation_pages:index")
    elif action == "new_player":
        name = post.get("display_name", "").strip()
        if not name or len(name) > 80:
            raise Problem(code="required", detail=_("Give a name."), pointer="/display_name")
        services.create_player(federation=federation, user=user, display_name=name)
    elif action in ("link", "propose"):
        person = selectors.get_federation_player(
            federation=federation, player_id=_int(request, "federation_player")
        )
        player = selectors.get_club_player(federation=federation, player_id=_int(request, "player"))
        write = services.link_player if action == "link" else services.invite_link
        write(federation=federation, user=user, federation_player=person, player=player)
    elif action == "unlink":
        link = selectors.get_link(federation=federation, link_id=_int(request, "link"))
        services.unlink_player(link=link, user=user)
    elif action == "merge":
        source, target = (
            selectors.get_federation_player(federation=federation, player_id=_int(request, name))
            for name in ("source", "target")
        )
        services.merge_players(federation=federation, user=user, source=source, target=target)
    elif action == "unmerge":
        entry = selectors.get_merge(federation=federation, entry_id=_int(request, "merge"))
        services.unmerge(entry=entry, user=user)
    elif action in event_forms.EVENT_ACTIONS:
        event_forms.act(request, federation, action)
    elif action in league_forms.FEDERATION_ACTIONS:
        league_forms.federation_act(request, federation, action)
        return redirect(reverse("federation_pages:federation", args=[federation.slug]) + "#leagues")
    else:
        return HttpResponse(_("Unknown action."), status=400, content_type="text/plain")
    return redirect("federation_pages:federation", slug=federation.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@federation_organiser_page
def federation(request, federation):
    problem = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            return _act(request, federation, action)
        except Problem as error:
            problem = ProblemShown(error, league_forms.FIELDS.get(action))
    linked = selectors.list_links(federation=federation).values_list("player_id", flat=True)
    context = {
        "federation": federation,
        "memberships": [
            m for m in selectors.list_memberships(federation=federation) if m.state != "ended"
        ],
        "organisers": list(selectors.list_organisers(federation=federation)),
        "players": selectors.list_players(federation=federation),
        "unlinked": Player.objects.filter(
            club__in=selectors.list_member_clubs(federation=federation), is_active=True
        )
        .exclude(pk__in=list(linked))
        .select_related("club")
        .order_by("club__name", "display_name"),
        "merges": [
            entry
            for entry in selectors.list_audit(federation=federation)[:200]
            if entry.kind == FederationAuditKind.MERGED
        ],
        "audit": selectors.list_audit(federation=federation)[:30],
        "problem": problem,
        "posted": request.POST if problem else {},
        **event_forms.context(federation),
        **league_forms.federation_context(federation),
    }
    return render(
        request, "federations/federation.html", context, status=problem.status if problem else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
def player_choices(request, slug, player_id):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    federation = selectors.get_federation(slug=slug)
    person = selectors.get_federation_player(federation=federation, player_id=player_id)
    is_player = is_the_player(request.user, person)
    if not is_player and not is_organiser(request.user, federation):
        raise PermissionDenied("Only the player and the federation's organisers.")
    saved = False
    if request.method == "POST":
        if not is_player:
            raise PermissionDenied("Only the player sets their public choices.")
        name_shown = request.POST.get("name_shown")
        person = services.set_public_choices(
            federation_player=person,
            user=request.user,
            name_shown=name_shown if name_shown in NameShown.values else None,
            ranking_shown=request.POST.get("ranking_shown") == "on",
        )
        saved = True
    return render(
        request,
        "federations/player.html",
        {
            "federation": federation,
            "person": person,
            "may_change": is_player,
            "choices": NameShown.choices,
            "saved": saved,
        },
    )
