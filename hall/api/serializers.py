"""Request and response shapes of the hall API.

``HallSettingsInput``: ``hide_leaders`` (PATCH). ``ClockInput``: ``action`` (start, pause, resume,
extend, stop) and ``minutes`` (start, extend). ``HallOutput``: what the organiser sees — the
switch, the clock and the live link (its URL, short code and QR code, derived again from its salt
as a table link's are). ``HallScreenOutput``: the public screen's JSON
(``hall.nights.screen_state``: an event's or a club night's), documented for the schema; its
amounts are decimal strings in the club's ``currency`` (``games.money.amount_string``), formatted
by the page.
"""

from __future__ import annotations

from rest_framework import serializers

from config.serializers import StrictFieldsMixin
from hall.services import CLOCK_ACTIONS


class HallSettingsInput(StrictFieldsMixin, serializers.Serializer):
    hide_leaders = serializers.BooleanField(
        help_text="Hide the leaders on the hall screen while a round is played."
    )


class ClockInput(StrictFieldsMixin, serializers.Serializer):
    action = serializers.ChoiceField(choices=CLOCK_ACTIONS)
    minutes = serializers.IntegerField(
        required=False, allow_null=True, help_text="start: the round's minutes; extend: more."
    )


class HallClockOutput(serializers.Serializer):
    state = serializers.ChoiceField(choices=["idle", "running", "paused"])
    round = serializers.IntegerField(allow_null=True)
    ends_at = serializers.CharField(allow_null=True, help_text="Running: when it reaches zero.")
    remaining_ms = serializers.IntegerField(allow_null=True, help_text="At server_time.")
    ending = serializers.BooleanField(help_text="Two minutes or less left.")


class HallLinkOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField(allow_null=True)
    code = serializers.CharField(allow_null=True, help_text="The short code, typed at /h/.")
    qr_svg = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class HallOutput(serializers.Serializer):
    tournament = serializers.IntegerField(allow_null=True, help_text="An event's hall.")
    night = serializers.IntegerField(allow_null=True, help_text="A club night's hall.")
    hide_leaders = serializers.BooleanField()
    server_time = serializers.CharField()
    clock = HallClockOutput()
    link = HallLinkOutput(allow_null=True)


class HallSeatOutput(serializers.Serializer):
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, help_text="None: a bye this round.")
    seat = serializers.IntegerField(allow_null=True, help_text="1-based.")


class HallSideOutput(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField())
    score = serializers.IntegerField()


class HallPlayingTableOutput(serializers.Serializer):
    table = serializers.IntegerField()
    sides = HallSideOutput(many=True)


class HallLeaderOutput(serializers.Serializer):
    place = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.IntegerField(help_text="Matches won (an event), games won (a night).")
    points = serializers.IntegerField(required=False, help_text="An event's: points for.")
    games = serializers.IntegerField(required=False, help_text="A night's: games finished.")
    net = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="A closed night's winners: the night's net, a decimal string, once settled.",
    )


class HallPrizeShareOutput(serializers.Serializer):
    name = serializers.CharField()
    amount = serializers.CharField(help_text='A decimal string in the club\'s currency: "2.50".')


class HallPrizeGroupOutput(serializers.Serializer):
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    shares = HallPrizeShareOutput(many=True)


class HallEventOutput(serializers.Serializer):
    name = serializers.CharField()
    club = serializers.CharField()


class HallScreenOutput(serializers.Serializer):
    kind = serializers.CharField(help_text='"event" (a tournament) or "night" (a club night).')
    panel = serializers.ChoiceField(choices=["waiting", "seats", "play", "winners"])
    event = HallEventOutput()
    currency = serializers.CharField(help_text="The club's currency (ISO 4217) of the prizes.")
    status = serializers.CharField()
    server_time = serializers.CharField(help_text="The server's clock (also X-Jink-Server-Time).")
    clock = HallClockOutput()
    round = serializers.IntegerField(allow_null=True, help_text="The latest released round.")
    rounds_planned = serializers.IntegerField(allow_null=True)
    hide_leaders = serializers.BooleanField()
    seats = HallSeatOutput(many=True, help_text="seats: every player, alphabetical.")
    tables = HallPlayingTableOutput(many=True, help_text="play: the tables still playing.")
    leaders = HallLeaderOutput(many=True, help_text="play: the leaders, unless hidden.")
    leaders_hidden = serializers.BooleanField()
    winners = HallLeaderOutput(many=True, help_text="winners: the first three places.")
    prizes = HallPrizeGroupOutput(many=True, help_text="winners: once settled.")
