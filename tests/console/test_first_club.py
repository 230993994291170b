"""The first club from the pages, with Django's test client: sign up, create a club, its settings,
the first night's checklist, and the house-rule presets.

What it proves: each refusal is the API's own (the same serializers and services), shown beside
the field its pointer names — exactly those fields — with the problem's status, and nothing is
stored; a club is created with every setting the API takes; the checklist ticks from the club's
data; a preset fills the house-rules form with its exact values, which save as the exact
overrides.
"""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from rest_framework.throttling import ScopedRateThrottle

from clubs.models import Club, Membership, Role
from rules_engine.house_rules import HouseRules
from rules_engine.presets import PRESETS
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.helpers import logged_in_client

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a long walk to Tipperary"


def _by_field(response) -> dict:
    problem = response.context["problem"]
    return problem.by_field if problem is not None else {}


def _signed_up(client: Client, username: str = "maura") -> None:
    response = client.post("/signup/", {"username": username, "password": GOOD_PASSWORD})
    assert response.status_code == 302, response.content[:500]


def _club_form(**changes) -> dict:
    form = {
        "name": "Callan Card Club",
        "slug": "callan",
        "currency": "EUR",
        "time_zone": "Europe/Dublin",
        "default_game": "45",
    }
    form.update(changes)
    return {key: value for key, value in form.items() if value is not None}


# Sign up -------------------------------------------------------------------------------------


def test_a_visitor_signs_up_without_an_email_and_is_logged_in():
    client = Client()
    assert client.get("/signup/").status_code == 200
    response = client.post("/signup/", {"username": "maura", "password": GOOD_PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/new-club/")
    user = get_user_model().objects.get(username="maura")
    assert user.email == "" and user.check_password(GOOD_PASSWORD)
    assert client.get("/new-club/").status_code == 200  # logged in: no login page


def test_sign_up_refusals_are_the_apis_beside_their_fields():
    make_user("maura")
    client = Client()
    taken = client.post(
        "/signup/", {"username": "Maura", "password": GOOD_PASSWORD, "email": "maura@example.com"}
    )
    assert taken.status_code == 400
    assert _by_field(taken) == {"username": ["That username is taken."]}
    weak = client.post(
        "/signup/", {"username": "nora", "password": "12345678", "email": "not an address"}
    )
    assert weak.status_code == 400
    assert _by_field(weak) == {
        "email": ["Enter a valid email address."],
    }  # the input check refuses first, as the API does: nothing else is looked at
    weak = client.post("/signup/", {"username": "nora", "password": "12345678"})
    assert _by_field(weak) == {
        "password": ["This password is too common.", "This password is entirely numeric."]
    }
    page = weak.content.decode()
    assert 'value="nora"' in page  # what was typed stays
    assert not get_user_model().objects.filter(username="nora").exists()


def test_sign_ups_share_the_apis_limit(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"register": "2/hour"})
    client = Client()
    api = client.post(
        "/api/auth/register/",
        {"username": "one", "password": GOOD_PASSWORD},
        content_type="application/json",
    )
    assert api.status_code == 201
    assert client.post("/signup/", {"username": "two", "password": "x"}).status_code == 400
    third = client.post("/signup/", {"username": "three", "password": GOOD_PASSWORD})
    assert third.status_code == 429
    assert third.context["problem"].general == [
        "Too many sign-ups from here. Try again in 60 minutes."
    ]
    assert not get_user_model().objects.filter(username="three").exists()


# A new club ----------------------------------------------------------------------------------


def test_a_new_club_takes_every_setting_and_opens_the_checklist():
    client = Client()
    _signed_up(client)
    response = client.post(
        "/new-club/",
        _club_form(
            public_standings="on", confirm_hands="on", time_zone="America/Halifax", currency="CAD"
        ),
    )
    assert (response.status_code, response["Location"]) == (302, "/clubs/callan/console/")
    club = Club.objects.get(slug="callan")
    assert (
        club.name,
        club.currency,
        club.time_zone,
        club.default_game,
        club.public_standings,
        club.confirm_hands,
        club.default_house_rules,
    ) == ("Callan Card Club", "CAD", "America/Halifax", "45", True, True, {})
    assert Membership.objects.get(club=club).role == Role.ORGANISER
    page = client.get("/clubs/callan/console/")
    steps = page.context["steps"]
    assert [(step["key"], step["done"]) for step in steps] == [
        ("players", False),
        ("house_rules", False),
        ("event", False),
        ("print", False),
        ("score", False),
        ("close", False),
    ]
    assert 'id="first-night"' in page.content.decode()


def test_the_slug_is_suggested_from_the_name_when_left_empty():
    client = Client()
    _signed_up(client)
    response = client.post("/new-club/", _club_form(name="Séan's Thursday Drive", slug=""))
    assert response["Location"] == "/clubs/seans-thursday-drive/console/"
    club = Club.objects.get(slug="seans-thursday-drive")
    assert (club.public_standings, club.confirm_hands) == (False, False)


def test_new_club_refusals_beside_their_fields_and_nothing_stored():
    make_club("callan")
    client = Client()
    _signed_up(client)
    taken = client.post("/new-club/", _club_form())
    assert taken.status_code == 400
    assert _by_field(taken) == {"slug": ["A club with the slug 'callan' already exists."]}
    bad = client.post(
        "/new-club/", _club_form(slug="kells", currency="XYZ", time_zone="Mars/Olympus")
    )
    assert bad.status_code == 400
    assert _by_field(bad) == {
        "currency": ['"XYZ" is not a valid choice.'],
        "time_zone": ["'Mars/Olympus' is not an IANA time zone name (e.g. 'Europe/Dublin')."],
    }
    page = bad.content.decode()
    assert 'value="kells"' in page and 'value="Callan Card Club"' in page
    assert Club.objects.count() == 1


def test_new_club_refusals_in_french():
    make_club("callan")
    client = Client()
    _signed_up(client)
    taken = client.post("/new-club/", _club_form(), HTTP_ACCEPT_LANGUAGE="fr")
    assert _by_field(taken) == {"slug": ["Un club utilise déjà l'identifiant 'callan'."]}
    zone = client.post(
        "/new-club/", _club_form(slug="kells", time_zone="Mars/Olympus"), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert _by_field(zone) == {
        "time_zone": [
            "'Mars/Olympus' n'est pas un nom de fuseau horaire IANA (par exemple 'Europe/Dublin')."
        ]
    }


def test_a_visitor_must_log_in_to_create_a_club():
    response = Client().get("/new-club/")
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/new-club/")


# Club settings -------------------------------------------------------------------------------


def _organiser_of(club) -> Client:
    user = make_user(f"{club.slug}-organiser")
    make_membership(club, user, Role.ORGANISER)
    client = logged_in_client(user)
    return client


def test_the_organiser_changes_the_clubs_settings():
    club = make_club("callan", confirm_hands=True)
    client = _organiser_of(club)
    page = client.get("/clubs/callan/console/settings/").content.decode()
    assert 'name="confirm_hands" checked' in page
    response = client.post(
        "/clubs/callan/console/settings/",
        {
            "name": "Callan CC",
            "slug": "callan-cc",
            "currency": "GBP",
            "time_zone": "Europe/London",
            "public_standings": "on",
        },
    )  # confirm_hands unticked
    assert (response.status_code, response["Location"]) == (
        302,
        "/clubs/callan-cc/console/settings/",
    )
    club.refresh_from_db()
    assert (
        club.name,
        club.slug,
        club.currency,
        club.time_zone,
        club.public_standings,
        club.confirm_hands,
    ) == ("Callan CC", "callan-cc", "GBP", "Europe/London", True, False)


def test_settings_refusals_beside_their_fields():
    make_club("kells")
    club = make_club("callan")
    client = _organiser_of(club)
    refused = client.post(
        "/clubs/callan/console/settings/",
        {"name": "", "slug": "kells", "currency": "EUR", "time_zone": "Europe/Dublin"},
    )
    assert refused.status_code == 400
    assert _by_field(refused) == {"name": ["This field may not be blank."]}
    refused = client.post(
        "/clubs/callan/console/settings/",
        {"name": "Callan", "slug": "kells", "currency": "EUR", "time_zone": "Europe/Dublin"},
    )
    assert _by_field(refused) == {"slug": ["A club with the slug 'kells' already exists."]}
    assert 'href="/clubs/callan/console/"' in refused.content.decode()  # the stored slug
    club.refresh_from_db()
    assert (club.slug, club.name) == ("callan", "Callan")


# The first night's checklist -----------------------------------------------------------------


def test_the_checklist_ticks_from_the_clubs_data():
    club = make_club("callan", default_game="45")
    client = _organiser_of(club)

    def done():
        steps = client.get("/clubs/callan/console/").context["steps"]
        return [step["key"] for step in steps if step["done"]]

    assert done() == []
    make_player(club, "Ann")
    assert done() == ["players"]
    client.post("/clubs/callan/console/house-rules/?preset=classic_45", _preset_form("classic_45"))
    assert done() == ["players", "house_rules"]


# House-rule presets --------------------------------------------------------------------------


def _preset_form(name: str) -> dict:
    """The house-rules form as a preset fills it (every rule that applies, at its value)."""
    preset = PRESETS[name]
    rules = preset.rules()
    form = {"game": preset.game}
    for key, value in rules.to_dict().items():
        if key == "game" or value is None:
            continue
        if isinstance(value, bool):
            if value:
                form[key] = "on"
        elif isinstance(value, list) and key == "bids":
            form[key] = ", ".join(str(number) for number in value)
        else:
            form[key] = value
    for key in ("ace_of_hearts_lead", "rob_discard"):
        if getattr(rules, key) is not None:
            form[key] = getattr(rules, key)
    return form


def test_the_presets_are_one_shared_definition_with_exact_rules():
    assert list(PRESETS) == ["classic_45", "irish_25", "nova_scotia_45", "auction_45"]
    assert PRESETS["irish_25"].rules() == HouseRules.for_game("25")
    assert PRESETS["nova_scotia_45"].rules() == HouseRules.for_game("45")
    assert PRESETS["auction_45"].rules() == HouseRules.for_game("auction45")
    classic = PRESETS["classic_45"].rules()
    assert (
        classic.target,
        classic.best_trump_bonus,
        classic.ace_of_hearts_lead,
        classic.rob_discard,
        classic.dealer_robs_ace,
    ) == (45, 5, "trump_then_hearts", "not_the_ace", "must")
    auction = PRESETS["auction_45"].rules()
    assert (
        auction.target,
        auction.bids,
        auction.kitty,
        auction.made_thirty_scores,
        auction.min_bid_at_100,
        auction.first_lead,
        auction.all_pass,
    ) == (120, (15, 20, 25, 30), 3, 60, 20, "left_of_bidder", "dealer_stuck")


def test_one_tap_fills_the_form_with_a_preset_then_it_saves_as_adjusted():
    club = make_club("callan", default_game="25")
    client = _organiser_of(club)
    page = client.get("/clubs/callan/console/house-rules/?preset=classic_45")
    assert page.context["game"] == "45"
    form = page.context["form"]
    assert {
        key: form[key].initial
        for key in ("target", "ace_of_hearts_lead", "rob_discard", "dealer_robs_ace")
    } == {
        "target": 45,
        "ace_of_hearts_lead": "trump_then_hearts",
        "rob_discard": "not_the_ace",
        "dealer_robs_ace": "must",
    }
    text = page.content.decode()
    assert "The classic Forty-Five app: loaded below, not yet saved." in text
    # Each rule by its own label, the preset's changes in words, no setting key shown.
    assert (
        "When the ace of hearts is led and hearts are not trumps: a trump lead, or a trump "
        "then a heart must be played: trump then hearts"
    ) in text
    assert "<code>" not in text
    posted = _preset_form("classic_45")
    posted["target"] = "61"  # adjusted before saving
    assert client.post("/clubs/callan/console/house-rules/", posted).status_code == 302
    club.refresh_from_db()
    assert (club.default_game, club.default_house_rules) == (
        "45",
        {"target": 61, "ace_of_hearts_lead": "trump_then_hearts", "rob_discard": "not_the_ace"},
    )


@pytest.mark.parametrize("name", ["irish_25", "nova_scotia_45", "auction_45"])
def test_a_standard_preset_saves_as_the_games_defaults(name):
    club = make_club("callan", default_game="45", default_house_rules={"target": 61})
    client = _organiser_of(club)
    page = client.get(f"/clubs/callan/console/house-rules/?preset={name}")
    assert page.context["game"] == PRESETS[name].game
    assert client.post("/clubs/callan/console/house-rules/", _preset_form(name)).status_code == 302
    club.refresh_from_db()
    assert (club.default_game, club.default_house_rules) == (PRESETS[name].game, {})


def test_the_presets_and_rules_in_french():
    club = make_club("callan", default_game="45")
    client = _organiser_of(club)
    with translation.override("fr"):
        page = html.unescape(
            client.get(
                "/clubs/callan/console/house-rules/?preset=classic_45", HTTP_ACCEPT_LANGUAGE="fr"
            ).content.decode()
        )
    assert "L'application classique de Quarante-cinq" in page
    assert "Score qui gagne la partie" in page
    assert "le cinq d'atout" in page  # the renege privileges by name
    assert "Quand l'as de cœur est entamé" in page.split("Partir d'un modèle")[1]


def test_a_sign_up_logs_in_as_any_login_does_so_a_locked_out_name_is_refused_the_login():
    client = Client()
    for attempt in range(5):  # django-axes counts these failures for (maura, this address)
        client.post("/accounts/login/", {"username": "maura", "password": f"wrong {attempt}"})
    response = client.post("/signup/", {"username": "maura", "password": GOOD_PASSWORD})
    assert response.status_code == 429
    assert "Too many failed logins. Try again in 15 minutes." in response.content.decode()
    assert get_user_model().objects.filter(username="maura").exists()  # made, as the API would
    assert client.get("/new-club/").status_code == 302  # but not logged in
