"""The examples of docs/rules_engine.md run as written (doctest), so the documentation shows
real behaviour."""

import doctest
from pathlib import Path

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "rules_engine.md"


def test_documentation_examples_run():
    failures, attempted = doctest.testfile(
        str(DOCUMENT),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        report=True,
        verbose=False,
    )
    # Every example of the document ran (37 ">>>" prompts), none failed: an example added to or
    # removed from the document changes the first number here.
    assert (attempted, failures) == (37, 0)
