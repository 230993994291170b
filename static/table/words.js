// What every module of the score pad shares to say things: the translation lookup, HTML
// escaping and the four suits.
//
// What it does: ``translator(strings)`` gives ``t``, which looks an English string up in the
// page's translated strings (the "table-strings" JSON the server renders into the page:
// web/scorepad/strings.py lists them, so the page has them offline too) and fills in "%(name)s"
// from ``params``. ``escapeHtml`` makes any text safe inside HTML, text or attribute. ``SUITS``
// gives each suit its code, symbol, colour and two English names to look up with ``t``:
// ``name`` on its own ("Spades", a button) and ``word`` inside a sentence ("ace of spades").
//
// What it does not do: read the page or escape for ``t``. ``t`` puts its ``params`` in as they
// are (some are HTML: a name already escaped, a card's face), so a caller escapes the text it
// passes in and the text it gets back when that text is plain.
//
// No imports and nothing runs at import: a test loads it alone (tests/tables/test_modules_browser.py).

export const SUITS = Object.freeze([
  Object.freeze({ code: "S", symbol: "♠", red: false, name: "Spades", word: "spades" }),
  Object.freeze({ code: "H", symbol: "♥", red: true, name: "Hearts", word: "hearts" }),
  Object.freeze({ code: "D", symbol: "♦", red: true, name: "Diamonds", word: "diamonds" }),
  Object.freeze({ code: "C", symbol: "♣", red: false, name: "Clubs", word: "clubs" }),
]);

export function suitOf(code) {
  return SUITS.find((entry) => entry.code === code);
}

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

// ``t`` for one page: ``strings`` is {English: translation}; a string it lacks is shown as is.
export function translator(strings) {
  return (text, params = {}) => (strings[text] ?? text).replace(
    /%\((\w+)\)s/g, (placeholder, name) => (name in params ? String(params[name]) : placeholder));
}
