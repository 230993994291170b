"""The words of the table app's score pad (static/table/*.js), translated for the page.

What it does: ``STRINGS`` lists every English string the score pad's modules show, each marked
with ``gettext_noop`` so that ``makemessages`` collects it into the catalogue; ``table_strings()``
gives ``{English: translation}`` in the active language, which the score page renders with
``json_script`` ("table-strings": JSON, not a script, so the strict CSP allows it). The modules'
``t("...")`` looks each string up there and fills in its "%(name)s" placeholders. The strings
are in the page itself, so the page the service worker keeps has them offline too.

What it does not do: run gettext in the browser (no JavaScript catalogue, no build step).
``tests/tables/test_strings.py`` checks that this list and the modules' ``t("...")`` agree.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

STRINGS: tuple[str, ...] = (
    gettext_noop("That card may not be played there"),
    gettext_noop("That rob is not allowed"),
    gettext_noop("That call is not allowed in the auction"),
    gettext_noop("The number of tricks does not fit this hand"),
    gettext_noop("The best trump does not fit the tricks"),
    gettext_noop("That is not the dealer of this hand"),
    gettext_noop("That card was not played by the seat whose turn it was to lead"),
    gettext_noop("Another tablet has already recorded this hand"),
    gettext_noop("An earlier hand is missing"),
    gettext_noop("The game is over: it takes no more hands"),
    gettext_noop(
        "The game changed on another tablet while you were looking; the page now shows "
        "the latest, check and try again"
    ),
    gettext_noop("This correction would make a later hand impossible"),
    gettext_noop("A player of another side must accept the hand"),
    gettext_noop("That player may not accept this hand"),
    gettext_noop("This match is decided and a later match depends on it"),
    gettext_noop("The event is closed: only an organiser can still correct it, from the console"),
    gettext_noop("Side %(number)s"),
    gettext_noop("Online"),
    gettext_noop("Offline: hands are kept on this tablet"),
    gettext_noop("Undo hand %(number)s?"),
    gettext_noop("Yes, undo hand %(number)s"),
    gettext_noop("Keep it"),
    gettext_noop("Hand %(number)s sent."),
    gettext_noop("Hand %(number)s kept on this tablet: it is sent when the connection is back."),
    gettext_noop("Hand %(number)s corrected."),
    gettext_noop("Corrections need the connection: try again when it is back."),
    gettext_noop("Hand %(number)s undone."),
    gettext_noop("Undo needs the connection: try again when it is back."),
    gettext_noop("Misdeal: no score, the same dealer deals again."),
    gettext_noop("%(name)s dealt."),
    gettext_noop("Auction: %(calls)s."),
    gettext_noop("Trumps %(suit)s."),
    gettext_noop("Tricks: %(tricks)s"),
    gettext_noop("Best trump: %(name)s in trick %(trick)s."),
    gettext_noop("Renege by %(name)s in trick %(trick)s."),
    gettext_noop("%(count)s tricks played card by card."),
    gettext_noop("pass"),
    gettext_noop("hold"),
    gettext_noop("%(side)s lose %(points)s"),
    gettext_noop("%(side)s take %(points)s"),
    gettext_noop("The server did not answer."),
    gettext_noop("The server refused this hand"),
    gettext_noop("deals"),
    gettext_noop("Game over after %(count)s hands"),
    gettext_noop("Hand %(number)s: %(name)s deals"),
    gettext_noop("1 hand waiting"),
    gettext_noop("%(count)s hands waiting"),
    gettext_noop("Double stake: won from zero with every trick."),
    gettext_noop("Match score: %(score)s"),
    gettext_noop("Start the next game"),
    gettext_noop("The next game of the match opens here as soon as it starts."),
    gettext_noop("The match is decided."),
    gettext_noop(
        "The match is decided. The next round's game at this table opens here by itself when "
        "the organiser releases it."
    ),
    gettext_noop(
        "The event is over: this table takes no more hands. Only an organiser can still correct "
        "a hand, from the console."
    ),
    gettext_noop(
        "Nobody plays at table %(table)s in round %(round)s. This page opens the table's next "
        "game by itself."
    ),
    gettext_noop("This table link has ended. Ask the organiser for a new one."),
    gettext_noop("Round %(round)s: this table's new game is open."),
    gettext_noop("The table's next game is open."),
    gettext_noop("Standings"),
    gettext_noop("The game's page"),
    gettext_noop("Yours, entered on this tablet"),
    gettext_noop("Stored by %(name)s"),
    gettext_noop("another tablet"),
    gettext_noop("%(points)s; totals %(totals)s."),
    gettext_noop("Nothing more is sent until you choose."),
    gettext_noop("1 later hand waits behind it: nothing more is sent until you choose."),
    gettext_noop("%(count)s later hands wait behind it: nothing more is sent until you choose."),
    gettext_noop("Hand %(number)s was not stored"),
    gettext_noop("Keep the stored hand %(number)s"),
    gettext_noop("Keep mine as hand %(number)s"),
    gettext_noop("Drop my hand %(number)s"),
    gettext_noop("Send it again"),
    gettext_noop("Misdeal"),
    gettext_noop("All passed"),
    gettext_noop("Correct hand %(number)s"),
    gettext_noop("Undo hand %(number)s"),
    gettext_noop("Refused: see above"),
    gettext_noop("Waiting: points will follow"),
    gettext_noop("No hands yet."),
    gettext_noop("Start this hand again"),
    gettext_noop("Renege…"),
    gettext_noop("Enter by taps"),
    gettext_noop("Card by card"),
    gettext_noop("Cancel the correction"),
    gettext_noop("Hold %(bid)s"),
    gettext_noop("holds"),
    gettext_noop("Auction: %(name)s to call"),
    gettext_noop("Calls so far"),
    gettext_noop("Calls for %(name)s"),
    gettext_noop("Pass"),
    gettext_noop("Take back the last call"),
    gettext_noop("%(name)s names trumps"),
    gettext_noop("Trumps"),
    gettext_noop("Who robbed the turn-up? (optional)"),
    gettext_noop("Nobody"),
    gettext_noop("renege by %(name)s in trick %(trick)s"),
    gettext_noop("Trick %(number)s: who took it?"),
    gettext_noop("Trumps %(suit)s"),
    gettext_noop("Who took trick %(number)s"),
    gettext_noop("Take back the last trick"),
    gettext_noop("Who played the best trump?"),
    gettext_noop("Who played the best trump"),
    gettext_noop("No trump was played"),
    gettext_noop("In which trick did %(name)s play it?"),
    gettext_noop("Trick of the best trump"),
    gettext_noop("Trick %(number)s"),
    gettext_noop("Who reneged?"),
    gettext_noop("Who reneged"),
    gettext_noop("No renege"),
    gettext_noop("In which trick did %(name)s renege?"),
    gettext_noop("Trick of the renege"),
    gettext_noop("Change"),
    gettext_noop("Save the correction of hand %(number)s"),
    gettext_noop("Confirm hand %(number)s"),
    gettext_noop("A player of another side accepts it:"),
    gettext_noop("Who is entering the hands at this table?"),
    gettext_noop("%(name)s enters the hands"),
    gettext_noop("Entered by %(name)s."),
    gettext_noop("Dealer"),
    gettext_noop("Auction"),
    gettext_noop("Kitty"),
    gettext_noop("%(kitty)s; discarded %(discard)s"),
    gettext_noop("Rob"),
    gettext_noop("%(name)s robbed %(card)s, discarding %(discard)s"),
    gettext_noop("Cards played"),
    gettext_noop("no score; the same dealer deals again"),
    gettext_noop("Tricks"),
    gettext_noop("Best trump"),
    gettext_noop("%(name)s, trick %(trick)s"),
    gettext_noop("no trump played"),
    gettext_noop("Renege"),
    gettext_noop("Asking the server what this hand scores…"),
    gettext_noop("Misdeal: no score."),
    gettext_noop("Everybody passed: no score."),
    gettext_noop("After hand %(number)s: %(before)s → %(after)s"),
    gettext_noop("No total changes."),
    gettext_noop("%(winner)s win the game, double stake."),
    gettext_noop("%(winner)s win the game."),
    gettext_noop("%(points)s — new totals %(totals)s."),
    gettext_noop("The server refused this hand: see the line marked above."),
    gettext_noop(
        "Offline: the tricks are listed above; the points will follow when the connection is back."
    ),
    gettext_noop(
        "Earlier hands are still being sent: the tricks are listed above; the points will follow."
    ),
    gettext_noop("Check the hand"),
    gettext_noop("Take back the last card"),
    gettext_noop("%(rank)s of %(suit)s"),
    gettext_noop("Trick %(number)s:"),
    gettext_noop("Deal: %(name)s's cards (%(count)s of %(total)s)"),
    gettext_noop("Cards dealt to %(name)s"),
    gettext_noop("The turn-up card"),
    gettext_noop("Did anyone rob the turn-up %(card)s?"),
    gettext_noop("Who robbed the turn-up"),
    gettext_noop("Nobody robbed"),
    gettext_noop("%(name)s robs %(card)s: which card did they discard?"),
    gettext_noop("The card %(name)s discarded"),
    gettext_noop("The kitty (%(count)s of %(total)s)"),
    gettext_noop("The cards of the kitty"),
    gettext_noop("%(name)s's discards (%(count)s of %(total)s)"),
    gettext_noop("The cards %(name)s discarded"),
    gettext_noop("Who took trick %(number)s?"),
    gettext_noop("Turn-up %(card)s"),
    gettext_noop("robbed by %(name)s"),
    gettext_noop("so far %(cards)s"),
    gettext_noop("Trick %(number)s: %(name)s plays"),
    gettext_noop("Cards %(name)s may play"),
)

# Looked up under a name the module computes (``t(name)``), so not a literal ``t("...")``.
COMPUTED_STRINGS: tuple[str, ...] = (
    gettext_noop("%(name)s accepts hand %(number)s"),
    gettext_noop("%(name)s accepts the correction of hand %(number)s"),
    gettext_noop("%(name)s accepts undoing hand %(number)s"),
    gettext_noop("%(winner)s win, %(score)s"),
    gettext_noop("%(winner)s wins, %(score)s"),
    # The suits (words.js's SUITS): a suit's name on its own, then inside a sentence.
    gettext_noop("Spades"),
    gettext_noop("Hearts"),
    gettext_noop("Diamonds"),
    gettext_noop("Clubs"),
    gettext_noop("spades"),
    gettext_noop("hearts"),
    gettext_noop("diamonds"),
    gettext_noop("clubs"),
    gettext_noop("ace"),
    gettext_noop("king"),
    gettext_noop("queen"),
    gettext_noop("jack"),
)


def table_strings() -> dict[str, str]:
    """Every string of the score pad, English -> the active language's translation."""
    return {text: gettext(text) for text in (*STRINGS, *COMPUTED_STRINGS)}
