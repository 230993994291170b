"""The hall screen's pages: a TV's page opened by a hall link, and the form to type its code."""
