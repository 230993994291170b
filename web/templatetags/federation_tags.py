"""``{% federation_box club %}``: the club console's federation box (its memberships, pending
invitations, proposed player links and the federation events open to its nominations, each
with its forms), read by ``federations.selectors``;
the forms post to ``federation_pages:console-answer``."""

from django import template

from federations import selectors

register = template.Library()


@register.inclusion_tag("federations/_console_box.html", takes_context=True)
def federation_box(context, club):
    memberships = [
        membership
        for membership in selectors.list_club_memberships(club=club)
        if membership.state != "ended"
    ]
    # A club that is a member of no federation has no event to nominate for: no query.
    is_member = any(membership.state == "member" for membership in memberships)
    open_events = selectors.list_open_events_for_club(club=club) if is_member else []
    players = (
        list(club.players.filter(is_active=True).order_by("display_name", "pk"))
        if open_events
        else []
    )
    for event in open_events:  # who may still be nominated: not the ones nominated already
        nominated = {nomination.player_id for nomination in event.club_nominations}
        event.nominable = [player for player in players if player.pk not in nominated]
    return {
        "club": club,
        "memberships": memberships,
        "link_invitations": list(selectors.list_club_link_invitations(club=club)),
        "open_events": open_events,
        "csrf_token": context.get("csrf_token"),
    }
