"""The tournaments admin: every model's pages answer a superuser, with search and filters."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.play_helpers import build_event, win_match
from tournaments.models import AuditEntry, Entrant, Match, MatchEntrant, Round, Tournament

pytestmark = pytest.mark.django_db

MODELS = {
    "tournament": Tournament,
    "entrant": Entrant,
    "round": Round,
    "match": Match,
    "matchentrant": MatchEntrant,
    "auditentry": AuditEntry,
}


@pytest.fixture
def played():
    event = build_event(players=2)
    tournament = event.create_tournament(
        name="Admin cup",
        game="25",
        format="knockout",
        entrants=[{"player": player.pk} for player in event.players],
    )
    (match,) = event.draw(tournament["id"])["matches"]
    win_match(event, tournament["id"], match["id"], 0)
    event.ok("post", f"/api/tournaments/{tournament['id']}/close/")
    return tournament["id"]


@pytest.mark.parametrize("model", sorted(MODELS))
def test_changelist_search_filters_and_change_page(staff, played, model):
    changelist = reverse(f"admin:tournaments_{model}_changelist")
    assert staff.get(changelist).status_code == 200
    response = staff.get(changelist, {"q": "admin cup"})
    assert response.status_code == 200
    assert len(response.context["cl"].result_list) == MODELS[model].objects.count() > 0
    assert staff.get(changelist, {"q": "no such thing"}).context["cl"].result_list.count() == 0
    obj = MODELS[model].objects.order_by("pk").first()
    assert staff.get(reverse(f"admin:tournaments_{model}_change", args=[obj.pk])).status_code == 200


def test_filters_and_history(staff, played):
    response = staff.get(
        reverse("admin:tournaments_tournament_changelist"), {"status__exact": "closed"}
    )
    assert [tournament.pk for tournament in response.context["cl"].result_list] == [played]
    response = staff.get(
        reverse("admin:tournaments_tournament_changelist"), {"status__exact": "registration"}
    )
    assert list(response.context["cl"].result_list) == []
    match = Match.objects.get()
    history = reverse("admin:tournaments_match_history", args=[match.pk])
    assert staff.get(history).status_code == 200
    # The audit trail is read-only.
    assert staff.get(reverse("admin:tournaments_auditentry_add")).status_code == 403
