"""The one exception the rules engine raises: ``RulesError``, carrying a stable code.

What it does: every rule the engine refuses (a bad card, an illegal play, an unknown house
rule, ...) becomes a ``RulesError`` with a machine-readable ``code``, an English ``detail`` and a
JSON ``pointer`` into the input (the hand record or the house-rules object). Several problems
found at once travel as one ``RulesError`` whose ``errors`` lists each of them, so an API layer
can turn it into one RFC 9457 problem document with an ``errors`` array.

Translatable: ``detail`` is English, made from a message template marked with ``N_`` (a no-op
that ``makemessages -k N_`` collects into the catalogue) and named ``params``; the error keeps
both (``template``, ``params``) so the Django layer can show ``gettext(template) % params`` in
the reader's language (``config.problems.localized_detail``). The engine never imports Django.
A parameter that is itself words (a rule phrase, "seat 2 played 8H to trick 3", a suit name) is a
``Phrase``: a ``str`` holding its English text that also keeps its own ``N_`` template and
params, so the translation is made all the way down rather than around an English fragment.

What it does not do: translate text, know about HTTP status codes, or format problem documents.

Terms:
- *code*: a stable identifier from ``ERROR_CODES`` (api.md); clients switch on it, never on detail.
- *pointer*: an RFC 6901 JSON pointer ("/tricks/2/1"); "" means the whole input.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark ``message`` (a template with ``%(name)s`` parameters) for translation; no-op."""
    return message


class Phrase(str):
    """Words made from an ``N_`` template and its params, for use as a param of another message.

    It is the English text (``template % params``), so it reads, compares and serialises as any
    ``str``; ``template`` and ``params`` stay with it so that ``localized_detail`` can translate
    the phrase (and any phrase among its params) in the reader's language.
    """

    template: str
    params: dict

    def __new__(cls, template: str, params: dict | None = None) -> Phrase:
        text = template % params if params is not None else template
        phrase = super().__new__(cls, text)
        phrase.template = template
        phrase.params = dict(params) if params is not None else {}
        return phrase

    def __getnewargs__(self) -> tuple:
        return (self.template, self.params or None)


ERROR_CODES = frozenset(
    {
        "invalid_card",
        "duplicate_card",
        "illegal_play",
        "illegal_rob",
        "illegal_bid",
        "wrong_trick_count",
        "game_over",
        "invalid_house_rule",
        "invalid_record",
        "invalid_seat",
        "invalid_trump",
        "wrong_dealer",
        "wrong_leader",
        "wrong_card_count",
        "best_trump_mismatch",
        "invalid_seating",
    }
)


class RulesError(ValueError):
    """A rule of the game or of the input format was broken.

    ``errors`` holds the individual errors; it is ``[self]`` when there is just one. When several
    are given, ``code`` is theirs if they all share one, and ``detail`` joins their details.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        pointer: str = "",
        errors: list[RulesError] | None = None,
        *,
        params: dict | None = None,
    ) -> None:
        # ``detail`` is a template when ``params`` is given (``N_("... %(name)s")``).
        self.template = detail
        self.params = dict(params) if params is not None else None
        if self.params is not None:
            detail = detail % self.params
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.pointer = pointer
        self.errors: list[RulesError] = list(errors) if errors else [self]

    @classmethod
    def combine(cls, errors: list[RulesError]) -> RulesError:
        """One error standing for ``errors`` (returned as is when there is exactly one)."""
        if not errors:
            raise ValueError("RulesError.combine needs at least one error")
        if len(errors) == 1:
            return errors[0]
        flat = [single for error in errors for single in error.errors]
        codes = {error.code for error in flat}
        code = flat[0].code if len(codes) == 1 else "invalid_record"
        detail = "; ".join(error.detail for error in flat)
        combined = cls(code, detail, "", flat)
        combined.template = None  # the details of ``errors`` are translated one by one
        return combined

    def with_pointer(self, pointer: str) -> RulesError:
        """A copy of a single error with ``pointer`` set (callers know where the value was)."""
        return RulesError(self.code, self.template, pointer, params=self.params)

    def as_dict(self) -> dict:
        return {"code": self.code, "detail": self.detail, "pointer": self.pointer}

    def as_list(self) -> list[dict]:
        """Each individual error as a dict, for a problem document's ``errors`` array."""
        return [error.as_dict() for error in self.errors]

    def __repr__(self) -> str:
        return f"RulesError({self.code!r}, {self.detail!r}, pointer={self.pointer!r})"
