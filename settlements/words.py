"""A stored settle-up version in words, in the reader's language: the prize rule, what changed
since the version before, and the names of the parties.

What it does: ``prize_lines`` says how the pot became prizes ("first place: 50% of the €80.00
pot, €40.00"; "Mary Byrne and Tom Ryan share first and second: €32.00 each");
``change_lines`` says what a version changed since the one before (each party's stakes, entry
fee, how the fee was taken, prize; the open transfers it replaced and the paid ones it kept);
``party_name`` names a party (a player, or the club). Money through ``games.money.format_money``.
The console's results page, the e-mails, and the API and the console's archive (through
``settlements.representations``) all use these, so the story is told once.

What it does not do: compute (``settlements.computation``) or read rows beyond the names it is
given.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.money import format_money

ORDINALS = [
    gettext_lazy("first"),
    gettext_lazy("second"),
    gettext_lazy("third"),
    gettext_lazy("fourth"),
    gettext_lazy("fifth"),
    gettext_lazy("sixth"),
    gettext_lazy("seventh"),
    gettext_lazy("eighth"),
    gettext_lazy("ninth"),
    gettext_lazy("tenth"),
]
FEE_STATUSES = {
    "cash": gettext_lazy("paid in cash"),
    "card": gettext_lazy("paid by card"),
    "owed": gettext_lazy("owed"),
    None: gettext_lazy("none"),
}
FIELDS = {
    "stakes": gettext_lazy("stakes"),
    "entry_fee": gettext_lazy("entry fee"),
    "fee_status": gettext_lazy("entry fee taken"),
    "prize": gettext_lazy("prize"),
}


def ordinal(place: int) -> str:
    if 1 <= place <= len(ORDINALS):
        return str(ORDINALS[place - 1])
    return gettext("place %(number)s") % {"number": place}


def join_names(names: list[str]) -> str:
    """ "Ann", "Ann and Bill", "Ann, Bill and Cait"."""
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def party_name(player, *, start: bool = True) -> str:
    """A player's name; the club when ``player`` is None ("The club" / "the club")."""
    if player is None:
        return gettext("The club") if start else gettext("the club")
    return player.display_name


def prize_lines(details: dict, club) -> list[str]:
    """The prize rule of a version, one line per place or group sharing places."""
    pot = details.get("pot", 0)
    lines = []
    for group in details.get("prizes", []):
        names = [name for name, _ in group["shares"]]
        amounts = {amount for _, amount in group["shares"]}
        percent = group["percent"]
        if group["first"] == group["last"] and len(names) == 1:
            lines.append(
                gettext("%(place)s place: %(percent)s%% of the %(pot)s pot, %(amount)s (%(name)s)")
                % {
                    "place": ordinal(group["first"]).capitalize(),
                    "percent": percent,
                    "pot": format_money(pot, club),
                    "amount": format_money(group["shares"][0][1], club),
                    "name": names[0],
                }
            )
            continue
        if group["last"] - group["first"] == 1:
            places = gettext("%(first)s and %(second)s") % {
                "first": ordinal(group["first"]),
                "second": ordinal(group["last"]),
            }
        elif group["last"] > group["first"]:
            places = gettext("%(first)s to %(last)s") % {
                "first": ordinal(group["first"]),
                "last": ordinal(group["last"]),
            }
        else:
            places = ordinal(group["first"])
        if len(amounts) == 1:
            each = gettext("%(amount)s each") % {"amount": format_money(amounts.pop(), club)}
        else:
            each = ", ".join(
                f"{name} {format_money(amount, club)}" for name, amount in group["shares"]
            )
        lines.append(
            gettext("%(names)s share %(places)s (%(percent)s%% of the %(pot)s pot): %(each)s")
            % {
                "names": join_names(names),
                "places": places,
                "percent": percent,
                "pot": format_money(pot, club),
                "each": each,
            }
        )
    return lines


def _value(field: str, value, club) -> str:
    if field == "fee_status":
        return str(FEE_STATUSES.get(value, value))
    return format_money(value or 0, club, signed=field == "stakes")


def change_lines(details: dict, names: dict, club) -> list[str]:
    """What the version changed since the one before, one line per change; ``names``: player id
    -> name."""
    lines = []
    for change in details.get("changes", []):
        party = change["player"]
        name = names.get(party, str(party)) if party else gettext("The club")
        lines.append(
            gettext("%(name)s, %(what)s: %(before)s → %(after)s")
            % {
                "name": name,
                "what": FIELDS.get(change["field"], change["field"]),
                "before": _value(change["field"], change["before"], club),
                "after": _value(change["field"], change["after"], club),
            }
        )
    replaced, kept = details.get("superseded", 0), details.get("kept_paid", 0)
    if replaced:
        lines.append(
            ngettext(
                "%(count)s open transfer of the version before is replaced by this one's.",
                "%(count)s open transfers of the versions before are replaced by this one's.",
                replaced,
            )
            % {"count": replaced}
        )
    if kept:
        lines.append(
            ngettext(
                "%(count)s transfer already paid is kept as it was.",
                "%(count)s transfers already paid are kept as they were.",
                kept,
            )
            % {"count": kept}
        )
    return lines
