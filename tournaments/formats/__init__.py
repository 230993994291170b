"""Tournament formats: one policy per format, chosen once.

What it does: ``FORMATS`` maps each ``Format`` to its policy (``base.FormatPolicy``: knockout,
round robin, swiss, drive) and ``policy_for(tournament)`` picks the tournament's. Every decision
that depends on the format — the options it takes and their checks, drawing and advancing, how
many rounds, who goes through, what depends on a match, the default tie-breaks, late entries,
what the standings and the bracket read — is made by the policy; nothing outside this package
branches on the format.

What it does not do: lock, start games, announce, or call a service or a task (the services and
``tournaments.progress`` call the policies; import-linter forbids the reverse).
"""

from __future__ import annotations

from tournaments.formats.base import Advanced, Drawn, FormatPolicy, StandingsInput
from tournaments.formats.drive import DrivePolicy
from tournaments.formats.knockout import KnockoutPolicy
from tournaments.formats.round_robin import RoundRobinPolicy
from tournaments.formats.swiss import SwissPolicy
from tournaments.models import Format, Tournament

FORMATS: dict[str, FormatPolicy] = {
    Format.KNOCKOUT: KnockoutPolicy(),
    Format.ROUND_ROBIN: RoundRobinPolicy(),
    Format.SWISS: SwissPolicy(),
    Format.DRIVE: DrivePolicy(),
}


def policy_for(tournament: Tournament) -> FormatPolicy:
    """The policy of the tournament's format."""
    return FORMATS[tournament.format]


__all__ = ["FORMATS", "Advanced", "Drawn", "FormatPolicy", "StandingsInput", "policy_for"]
