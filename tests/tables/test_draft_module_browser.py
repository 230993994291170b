"""The score pad's draft module (static/table/draft.js) in the browser the suite already drives.

What it proves: draft.js gives exact drafts, steps and records for exact taps (a 45 with its best
trump, the pre-filled answers, a 110 auction with a hold, a renege, a misdeal, going back a step)
and never changes the draft it is given. The module is imported alone by its static URL on a
page of the live server and called with exact inputs (``module_page`` and ``run_script``, as in
test_modules_browser.py).
"""

from __future__ import annotations

from tests.tables.browser_helpers import run_script

FORTY_FIVE = {
    "seats": [{}, {}, {}, {}],
    "house_rules": {},
    "game": "45",
    "next_dealer": 3,
    "hands_played": 0,
}


def test_a_hand_of_45_tap_by_tap(module_page):
    seen = run_script(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: D.storedDealerAfter(game, []) });
        const steps = [D.stepOf(draft, rules)];
        for (const action of [
          { type: "trump", suit: "S" },
          ...[0, 2, 0, 0, 1].map((seat) => ({ type: "trick", seat })),
          { type: "best-seat", seat: 0 },
          { type: "best-trick", trick: 0 },
        ]) {
          draft = D.tap(draft, action, rules);
          steps.push(D.stepOf(draft, rules));
        }
        return { rules, steps, record: D.recordOf(draft, rules), next: D.nextNumber(game, []) };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "rules": {"seats": 4, "bidding": False, "bestTrump": True},
        "steps": [
            "trump",
            "tricks",
            "tricks",
            "tricks",
            "tricks",
            "tricks",
            "best-seat",
            "best-trick",
            "summary",
        ],
        "record": {
            "dealer": 3,
            "trump": "S",
            "trick_winners": [0, 2, 0, 0, 1],
            "best_trump": {"seat": 0, "trick": 0},
        },
        "next": 1,
    }


def test_the_tricks_fill_in_the_best_trump_until_it_is_changed(module_page):
    seen = run_script(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: 0 });
        draft = D.tap(draft, { type: "trump", suit: "H" }, rules);
        for (const seat of [2, 2, 2, 2, 2]) draft = D.tap(draft, { type: "trick", seat }, rules);
        const oneSeat = {
          step: D.stepOf(draft, rules), best: [draft.bestSeat, draft.bestTrick ?? "none"],
        };
        draft = D.tap(draft, { type: "change", step: "best-seat" }, rules);
        const changed = { step: D.stepOf(draft, rules), prefill: draft.prefill };
        draft = D.tap(draft, { type: "best-seat", seat: null }, rules);
        const noTrump = { step: D.stepOf(draft, rules), record: D.recordOf(draft, rules) };
        draft = D.tap(draft, { type: "undo-trick" }, rules);
        const undone = [D.stepOf(draft, rules), draft.tricks, draft.bestSeat ?? "unset"];
        return { oneSeat, changed, noTrump, undone };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "oneSeat": {"step": "best-trick", "best": [2, "none"]},
        "changed": {"step": "best-seat", "prefill": False},
        "noTrump": {
            "step": "summary",
            "record": {
                "dealer": 0,
                "trump": "H",
                "trick_winners": [2, 2, 2, 2, 2],
                "best_trump": None,
            },
        },
        "undone": ["tricks", [2, 2, 2, 2], "unset"],
    }


def test_an_auction_of_110_with_the_dealers_hold(module_page):
    seen = run_script(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: 2 });
        const turns = [];
        for (const call of ["15", "pass", "hold", "20", "pass"]) {
          turns.push(D.auctionTurn(draft, rules));
          draft = D.tap(draft, { type: "call", call }, rules);
        }
        const after = {
          turn: D.auctionTurn(draft, rules), step: D.stepOf(draft, rules),
          bidder: D.bidder(draft), high: D.highestBid(draft),
        };
        draft = D.tap(draft, { type: "trump", suit: "D" }, rules);
        for (const seat of [0, 0, 1, 2, 0]) draft = D.tap(draft, { type: "trick", seat }, rules);
        const asked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "best-seat", seat: 0 }, rules);
        draft = D.tap(draft, { type: "best-trick", trick: 1 }, rules);
        let passed = D.newDraft({ dealer: 0 });
        for (const call of ["pass", "pass", "pass"]) {
          passed = D.tap(passed, { type: "call", call }, rules);
        }
        return {
          turns, after, asked, step: D.stepOf(draft, rules), record: D.recordOf(draft, rules),
          allPassed: [
            D.everybodyPassed(passed, rules), D.stepOf(passed, rules), D.recordOf(passed, rules),
          ],
        };
    """,
        game={"seats": [{}, {}, {}], "house_rules": {"bids": [15, 20, 25, 30]}, "game": "110"},
    )
    assert seen == {
        "turns": [0, 1, 2, 0, 2],
        "after": {"turn": None, "step": "trump", "bidder": 0, "high": 20},
        "asked": "best-seat",
        "step": "summary",
        "record": {
            "dealer": 2,
            "bidding": [
                {"seat": 0, "call": "15"},
                {"seat": 1, "call": "pass"},
                {"seat": 2, "call": "hold"},
                {"seat": 0, "call": "20"},
                {"seat": 2, "call": "pass"},
            ],
            "trump": "D",
            "trick_winners": [0, 0, 1, 2, 0],
            "best_trump": {"seat": 0, "trick": 1},
        },
        "allPassed": [
            True,
            "summary",
            {
                "dealer": 0,
                "bidding": [
                    {"seat": 1, "call": "pass"},
                    {"seat": 2, "call": "pass"},
                    {"seat": 0, "call": "pass"},
                ],
            },
        ],
    }


def test_irregularities_waiting_hands_and_a_tapped_button(module_page):
    seen = run_script(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.tap(D.newDraft({ dealer: 1 }), { type: "trump", suit: "C" }, rules);
        draft = D.tap(draft, { type: "renege" }, rules);
        const asked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "renege-seat", seat: 3 }, rules);
        const trickAsked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "renege-trick", trick: 1 }, rules);
        const misdeal = D.tap(D.newDraft({ dealer: 1 }), { type: "misdeal" }, rules);
        const waiting = [
          { number: 3, body: { misdeal: true } }, { number: 4, body: { trump: "S" } },
        ];
        const played = { ...game, next_dealer: 2, hands_played: 2 };
        const button = document.createElement("button");
        Object.assign(button.dataset, { action: "best-seat", seat: "none" });
        const corrected = document.createElement("button");
        Object.assign(corrected.dataset, { action: "correct", number: "3" });
        let unknown = null;
        try { D.tap(draft, { type: "confirm" }, rules); } catch (error) { unknown = error.message; }
        return {
          asked, trickAsked, step: D.stepOf(draft, rules), record: D.recordOf(draft, rules),
          misdeal: [D.stepOf(misdeal, rules), D.recordOf(misdeal, rules)],
          dealer: D.storedDealerAfter(played, waiting), next: D.nextNumber(played, waiting),
          actions: [D.actionOf(button.dataset), D.actionOf(corrected.dataset)], unknown,
        };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "asked": "renege-seat",
        "trickAsked": "renege-trick",
        "step": "tricks",
        "record": {
            "dealer": 1,
            "trump": "C",
            "trick_winners": [],
            "best_trump": None,
            "renege": {"seat": 3, "trick": 1},
        },
        "misdeal": ["summary", {"dealer": 1, "misdeal": True}],
        # Hand 3 a misdeal (dealt again by seat 2), hand 4 passes the deal left.
        "dealer": 3,
        "next": 5,
        "actions": [
            {
                "type": "best-seat",
                "seat": None,
                "call": None,
                "suit": None,
                "trick": None,
                "step": None,
                "number": None,
                "player": None,
            },
            {
                "type": "correct",
                "seat": None,
                "call": None,
                "suit": None,
                "trick": None,
                "step": None,
                "number": 3,
                "player": None,
            },
        ],
        "unknown": "Not a tap of the draft: confirm",
    }


def test_a_tap_gives_a_new_draft_and_never_changes_the_one_it_was_given(module_page):
    seen = run_script(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        const freeze = (value) => {
          if (value && typeof value === "object") {
            Object.values(value).forEach(freeze);
            Object.freeze(value);
          }
          return value;
        };
        let draft = D.newDraft({ dealer: 0 });
        const tricks = [1, 1, 1, 1, 1].map((seat) => ({ type: "trick", seat }));
        for (const action of [
          { type: "trump", suit: "S" }, ...tricks, { type: "undo-trick" },
          { type: "change", step: "tricks" }, { type: "change", step: "auction" },
        ]) {
          const before = JSON.stringify(draft);
          // Modules are strict: a write to the frozen draft would throw.
          const after = D.tap(freeze(draft), action, rules);
          if (after === draft || JSON.stringify(draft) !== before) return `changed: ${action.type}`;
          draft = after;
        }
        return [draft.trump, draft.tricks, draft.bidding, draft.prefill];
    """,
        game=FORTY_FIVE,
    )
    assert seen == [None, [], [], False]
