"""What the practice table shows: the template context of one moment of a practice game.

What it does: ``table_context`` turns a loaded ``Table`` into names, cards (text, suit colour,
spoken label, name in a sentence), the turn-up, whose turn it is, the trick on the table — or,
while nobody has played to the next one, the trick just finished, with who took it and with which
card — the tricks of the hand, the totals to the target, the last finished hand, the moves open
to the person (cards, rob, calls, trumps and discards); on the person's turn to play, each card
of their hand marked playable or not, with why not in a player's words
(``web.practice.reasons``), and with ``hint`` the list of the legal cards too.
``card_display`` is one card's display.

Words are in the reader's language: names of cards, suits, seats and calls through gettext, the
engine's reasons (``Phrase``) through ``web.practice.reasons``.

What it does not do: decide legality (the engine does, through the hand) or render HTML.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from computer_players.hand import BID, EXCHANGE, OVER, PLAY, ROB
from config.problems import localized_text
from config.words import card_name
from practice.services import Table
from rules_engine.cards import SUIT_NAMES, SUITS, parse_card
from rules_engine.order import trick_winner
from web.practice.reasons import reason_words

COMPUTER_NAMES = ("Nora", "Finn")
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {
    "A": gettext_lazy("ace"),
    "J": gettext_lazy("jack"),
    "Q": gettext_lazy("queen"),
    "K": gettext_lazy("king"),
}
LEVELS = {"club": gettext_lazy("club"), "easy": gettext_lazy("easy")}
CALLS = {"pass": gettext_lazy("pass"), "hold": gettext_lazy("hold")}


def card_display(card: Any) -> dict[str, str]:
    card = parse_card(card) if isinstance(card, str) else card
    rank_name = RANK_NAMES.get(card.rank, card.rank)
    return {
        "code": str(card),
        "text": f"{card.rank}{SYMBOLS[card.suit]}",
        "label": gettext("%(rank)s of %(suit)s")
        % {"rank": rank_name, "suit": localized_text(SUIT_NAMES[card.suit])},
        "red": card.suit in ("H", "D"),
        "name": card_name(card),
    }


def seat_names(table: Table) -> list[str]:
    game = table.game
    names = []
    computers = iter(COMPUTER_NAMES)
    for seat in range(game.seat_count):
        if seat == game.human_seat:
            names.append(gettext("You"))
        else:
            level = game.levels[seat]
            names.append(f"{next(computers)} ({LEVELS.get(level, level)})")
    return names


def table_context(table: Table, *, hint: bool = False, error: str | None = None) -> dict[str, Any]:
    game = table.game
    names = seat_names(table)
    rules = table.state.rules
    hand = table.hand
    context: dict[str, Any] = {
        "game": game,
        "rules": rules,
        "names": names,
        "error": error,
        "hint": hint,
        "target": rules.target,
        "totals": [
            {"name": name, "total": total, "me": seat == game.human_seat}
            for seat, (name, total) in enumerate(zip(names, table.state.totals, strict=True))
        ],
        "last_hand": _last_hand(table, names),
        "finished": hand is None,
        "winner": None if game.winner is None else names[game.winner],
        "i_won": game.winner is not None and game.winner == game.human_seat,
        "my_turn": False,
        "phase": OVER,
        "computer_turn": False,
    }
    if hand is None:
        return context
    phase, seat = hand.turn()
    view = hand.view(game.human_seat)
    context.update(
        {
            "phase": phase,
            "turn_name": None if seat is None else names[seat],
            "my_turn": seat == game.human_seat,
            "computer_turn": seat is not None and seat != game.human_seat,
            "dealer": names[hand.dealer],
            "trump_name": None if hand.trump is None else localized_text(SUIT_NAMES[hand.trump]),
            "turn_up": None if hand.turn_up is None else card_display(hand.turn_up),
            "robbed_by": None if hand.rob is None else names[hand.rob["seat"]],
            "hand": [card_display(card) for card in view.hand],
            "trick": [
                {"name": names[(hand.leader + index) % game.seat_count], "card": card_display(card)}
                for index, card in enumerate(hand.trick)
            ],
            "tricks": [
                {
                    "number": index + 1,
                    "winner": names[played.winner],
                    "cards": [
                        {
                            "name": names[(played.leader + position) % game.seat_count],
                            "card": card_display(card),
                        }
                        for position, card in enumerate(played.cards)
                    ],
                }
                for index, played in enumerate(hand.tricks)
            ],
            "calls": [
                {
                    "name": names[call_seat],
                    "call": call,
                    "call_words": str(CALLS.get(str(call), call)),
                }
                for call_seat, call in view.calls
            ],
            "bid": None
            if hand.bid is None
            else {"name": names[hand.bid[0]], "amount": hand.bid[1]},
        }
    )
    if not hand.trick:
        context["last_trick"] = _last_trick(hand, names, game.seat_count, context["last_hand"])
        if context["last_trick"] is not None:
            context["last_trick"]["is_mine"] = (
                context["last_trick"]["winner"] == names[game.human_seat]
            )
    if context["my_turn"]:
        if phase == ROB:
            context["rob_discards"] = [card_display(card) for card in view.rob_discards]
            context["must_rob"] = view.must_rob
        elif phase == BID:
            context["legal_calls"] = [str(call) for call in view.legal_calls]
        elif phase == EXCHANGE:
            context["exchange_cards"] = [card_display(card) for card in view.hand + hand.kitty]
            context["kitty_size"] = len(hand.kitty)
            context["suits"] = [(suit, localized_text(SUIT_NAMES[suit])) for suit in SUITS]
        elif phase == PLAY:
            # Every card of the hand says whether it may be played, and if not, why.
            for card, shown in zip(view.hand, context["hand"], strict=True):
                shown["playable"] = card in view.legal_cards
                if not shown["playable"]:
                    shown["why"] = reason_words(hand.why_not(game.human_seat, card), rules)
            if hint:
                context["legal"] = [card_display(card) for card in view.legal_cards]
                context["reasons"] = [
                    {"card": shown, "reason": shown["why"]}
                    for shown in context["hand"]
                    if not shown["playable"]
                ]
    return context


def _last_trick(hand, names: list[str], seat_count: int, last_hand) -> dict[str, Any] | None:
    """The trick just finished, while nobody has played to the next: its cards, who took it and
    with which card; at the start of a hand, the last trick of the hand before."""
    if hand.tricks:
        played = hand.tricks[-1]
        cards = [
            {"name": names[(played.leader + position) % seat_count], "card": card_display(card)}
            for position, card in enumerate(played.cards)
        ]
        winning = cards[(played.winner - played.leader) % seat_count]["card"]
        return {
            "cards": cards,
            "winner": names[played.winner],
            "card": winning,
            "number": len(hand.tricks),
            "hand_number": None,
        }
    if last_hand and last_hand["tricks"] and last_hand["trump"]:
        final = last_hand["tricks"][-1]
        codes = [card["code"] for card in final["cards"]]
        winning = final["cards"][trick_winner(codes, last_hand["trump"])]
        return {
            "cards": [{"name": None, "card": card} for card in final["cards"]],
            "winner": final["winner"],
            "card": winning,
            "number": final["number"],
            "hand_number": last_hand["number"],
        }
    return None


def _last_hand(table: Table, names: list[str]) -> dict[str, Any] | None:
    """The last finished hand: points, who took each trick, the best trump and its bonus."""
    if not table.hands:
        return None
    last = table.hands[-1]
    record = last.record
    result = last.result
    tricks = []
    for index, cards in enumerate(record.get("tricks", [])):
        winner = result["trick_winners"][index]
        tricks.append(
            {
                "number": index + 1,
                "winner": names[winner],
                "cards": [card_display(card) for card in cards],
            }
        )
    best = result.get("best_trump")
    bid = result.get("bid")
    return {
        "number": last.number,
        "trump": result.get("trump")
        or record.get("trump")
        or (parse_card(record["turn_up"]).suit if record.get("turn_up") else None),
        "points": [
            {"name": name, "points": points}
            for name, points in zip(names, last.points, strict=True)
        ],
        "tricks": tricks,
        "best_trump": None
        if not best or not best.get("card")
        else {
            "name": names[best["seat"]],
            "card": card_display(best["card"]),
            "trick": best["trick"] + 1,
            "bonus": table.state.rules.best_trump_bonus,
        },
        "bid": None
        if not bid
        else {"name": names[bid["seat"]], "amount": bid["amount"], "made": bid["made"]},
        "redeal": result.get("kind") == "redeal",
    }
