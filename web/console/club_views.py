"""The console's club pages: the overview (with the first night's checklist), members and roles,
players and pairs, house rules (with its presets).

What it does: shows each list and takes each change through ``clubs.services`` (invite, change
a role, remove; add a player, paste a list, mark inactive, merge two records, make pairs, import
players from CSV; the club's default game and house rules). A refusal is shown beside the field
it points to, the page answering with the problem's status; a success redirects back (so a
reload never repeats it).

What it does not do: decide who may come in (``access.organiser_page``) or check domain rules.
"""

from __future__ import annotations

import csv
import io

from django.contrib import messages
from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from clubs import roster
from clubs import selectors as club_selectors
from clubs import services as club_services
from config.problems import Problem
from config.words import rule_in_words, rule_value
from rules_engine.house_rule_definitions import definitions_for
from rules_engine.house_rules import GAMES
from rules_engine.presets import PRESETS
from settlements import selectors as settlement_selectors
from tournaments import selectors as tournament_selectors
from web.console import forms
from web.console.access import ProblemShown, organiser_page
from web.console.checklist import first_night_steps
from web.pages import labels as page_labels

PLAYER_PAGE = 200


@require_safe
@organiser_page
def home(request, club):
    events = list(tournament_selectors.list_tournaments(club=club, user=request.user)[:50])
    nights = list(settlement_selectors.list_nights(club=club)[:20])
    steps = first_night_steps(club, events, nights)
    return render(
        request,
        "console/home.html",
        {
            "club": club,
            "events": events,
            "nights": nights,
            "steps": steps,
            "steps_left": sum(not step["done"] for step in steps),
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def members(request, club):
    problem = None
    invite = forms.InviteForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "invite":
                invite = forms.InviteForm(request.POST)
                if invite.is_valid():
                    roster.invite_member(club=club, **invite.cleaned_data)
                    messages.success(request, gettext("Added to the club."))
                    return redirect("console:members", club.slug)
            elif action in ("role", "remove"):
                membership = club_selectors.get_membership(
                    club=club, membership_id=_integer(request.POST.get("membership"))
                )
                if action == "role":
                    club_services.change_membership_role(
                        membership=membership, role=_choice(request.POST.get("role"))
                    )
                    messages.success(
                        request,
                        gettext("%(user)s is now %(role)s.")
                        % {
                            "user": membership.user,
                            "role": str(page_labels.ROLES[membership.role]).lower(),
                        },
                    )
                else:
                    club_services.remove_membership(membership=membership)
                    messages.success(
                        request,
                        gettext("%(user)s no longer has a role here.") % {"user": membership.user},
                    )
                return redirect("console:members", club.slug)
            else:
                raise Problem(code="invalid", detail=gettext("Unknown action."))
        except Problem as error:
            problem = ProblemShown(error)
    context = {
        "club": club,
        "memberships": list(club_selectors.list_memberships(club=club)),
        "invite": invite,
        "roles": forms.RoleForm.base_fields["role"].choices,
        "problem": problem,
    }
    return render(request, "console/members.html", context, status=_status(problem, invite))


def _integer(text) -> int:
    try:
        return int(text)
    except (TypeError, ValueError) as error:
        raise Problem(code="invalid", detail=gettext("Pick one from the list.")) from error


def _choice(role) -> str:
    if role not in dict(forms.RoleForm.base_fields["role"].choices):
        raise Problem(code="invalid", detail=gettext("Pick a role."), pointer="/role")
    return role


def _status(problem, *bound_forms) -> int:
    if problem is not None:
        return problem.status
    if any(form.is_bound and not form.is_valid() for form in bound_forms):
        return 400
    return 200


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def players(request, club):
    problem = None
    add = forms.AddPlayerForm()
    paste = forms.PastePlayersForm()
    upload = forms.ImportPlayersForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            done = _player_action(request, club, action)
            if done is not None:
                messages.success(request, done)
                return redirect("console:players", club.slug)
            add = forms.AddPlayerForm(request.POST) if action == "add" else add
            paste = forms.PastePlayersForm(request.POST) if action == "paste" else paste
            if action == "import":
                upload = forms.ImportPlayersForm(request.POST, request.FILES)
        except Problem as error:
            problem = ProblemShown(error, {"display_name": "name"})
            if action == "add":
                add = forms.AddPlayerForm(request.POST)
            if action == "paste":
                paste = forms.PastePlayersForm(request.POST)
    query = request.GET.get("q", "").strip()
    listed = club_selectors.list_players(club=club)
    if query:
        listed = listed.filter(Q(display_name__icontains=query) | Q(user__username__iexact=query))
    context = {
        "club": club,
        "players": list(listed[:PLAYER_PAGE]),
        "teams": list(club_selectors.list_teams(club=club)),
        "query": query,
        "add": add,
        "paste": paste,
        "upload": upload,
        "problem": problem,
    }
    return render(request, "console/players.html", context, status=_status(problem, add, paste))


def _player_action(request, club, action) -> str | None:
    """Do one change; a message on success, None when the form itself is invalid."""
    post = request.POST
    if action == "add":
        form = forms.AddPlayerForm(post)
        if form.is_valid():
            player = club_services.add_player(club=club, display_name=form.cleaned_data["name"])
            return gettext("%(name)s added.") % {"name": player.display_name}
    elif action == "paste":
        form = forms.PastePlayersForm(post)
        if form.is_valid():
            added = roster.add_players_from_list(club=club, names=form.lines())
            return ngettext("%(count)s player added.", "%(count)s players added.", len(added)) % {
                "count": len(added)
            }
    elif action == "import":
        form = forms.ImportPlayersForm(post, request.FILES)
        if form.is_valid():
            names = _names_from_csv(form.cleaned_data["file"])
            added = roster.add_players_from_list(club=club, names=names)
            return ngettext(
                "%(count)s player imported.", "%(count)s players imported.", len(added)
            ) % {"count": len(added)}
    elif action in ("deactivate", "activate"):
        player = club_selectors.get_player(club=club, player_id=_integer(post.get("player")))
        club_services.update_player(player=player, is_active=action == "activate")
        if player.is_active:
            return gettext("%(name)s is active.") % {"name": player.display_name}
        return gettext("%(name)s is inactive.") % {"name": player.display_name}
    elif action == "merge":
        keep = club_selectors.get_player(club=club, player_id=_integer(post.get("keep")))
        merged = club_selectors.get_player(club=club, player_id=_integer(post.get("merged")))
        name = merged.display_name
        roster.merge_players(club=club, keep=keep, merged=merged)
        return gettext("%(name)s merged into %(kept)s.") % {"name": name, "kept": keep.display_name}
    elif action == "pairs":
        chosen = [_integer(value) for value in post.getlist("player")]
        teams = roster.make_pairs(club=club, player_ids=chosen)
        return ngettext("%(count)s pair made.", "%(count)s pairs made.", len(teams)) % {
            "count": len(teams)
        }
    else:
        raise Problem(code="invalid", detail=gettext("Unknown action."))
    return None


def _names_from_csv(upload) -> list[str]:
    """The ``name`` column (or the first column when there is no header called so)."""
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Problem(
            code="invalid_file",
            pointer="/file",
            detail=gettext("The file is not UTF-8 text (save it as CSV UTF-8)."),
        ) from error
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    header = [cell.strip().lower() for cell in rows[0]]
    column = header.index("name") if "name" in header else 0
    body = rows[1:] if "name" in header else rows
    return [row[column] for row in body if len(row) > column]


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def house_rules(request, club):
    """The club's game and house rules; ``?preset=<name>`` fills the form with a preset's rules
    (one tap), to adjust before saving."""
    chosen = PRESETS.get(request.GET.get("preset", ""))
    game = request.GET.get("game") or request.POST.get("game") or club.default_game
    if chosen is not None:
        game = chosen.game
    if game not in GAMES:
        game = club.default_game
    if chosen is not None:
        rules = chosen.rules()
        current = {d.key: getattr(rules, d.key) for d in definitions_for(game)}
    elif game == club.default_game:
        current = club.effective_house_rules()
    else:
        current = {d.key: d.default for d in definitions_for(game)}
    problem = None
    form = forms.HouseRulesForm(
        request.POST if request.method == "POST" else None, game=game, current=current
    )
    if request.method == "POST" and form.is_valid():
        try:
            club_services.update_club(
                club=club, default_game=game, default_house_rules=form.overrides()
            )
            messages.success(request, gettext("House rules saved."))
            return redirect(f"{request.path}?game={game}")
        except Problem as error:
            problem = ProblemShown(_rules_refusal(error, form))
    context = {
        "club": club,
        "form": form,
        "game": game,
        "games": forms.EventForm.base_fields["game"].choices,
        "presets": [_preset_shown(preset) for preset in PRESETS.values()],
        "chosen": None if chosen is None else _preset_shown(chosen),
        "problem": problem,
    }
    return render(request, "console/house_rules.html", context, status=_status(problem, form))


def _rules_refusal(error: Problem, form) -> Problem:
    """The engine's refusal of a house rule (pointer "/default_house_rules/<key>") beside that
    rule's field, in words: the value as the form shows it, never the setting's key."""
    prefix = "/default_house_rules/"
    errors = []
    for entry in error.errors:
        pointer = entry.get("pointer") or ""
        key = pointer[len(prefix) :].split("/")[0] if pointer.startswith(prefix) else ""
        if key in form.fields:
            value = form.cleaned_data.get(key)
            errors.append(
                {
                    "code": entry["code"],
                    "pointer": f"/{key}",
                    "detail": gettext("%(value)s is not allowed for this rule in this game.")
                    % {"value": rule_value(value, key)},
                }
            )
        else:
            errors.append(entry)
    return Problem(code=error.code, detail=str(error.detail), errors=errors)


def _preset_shown(preset) -> dict:
    """A preset as the house-rules page lists it: its name, game, words, and each rule it sets
    that differs from the game's defaults, by the rule's own label."""
    rules = preset.rules()
    changed = [
        rule_in_words(preset.game, definition.key, getattr(rules, definition.key))
        for definition in definitions_for(preset.game)
        if definition.applies and getattr(rules, definition.key) != definition.default
    ]
    return {
        "name": preset.name,
        "title": gettext(preset.title),
        "game": page_labels.game_name(preset.game),
        "description": gettext(preset.description),
        "changed": changed,
    }
