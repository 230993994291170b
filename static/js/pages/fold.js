// Folded sections: a page's longer, older parts (the season table, past events) are folded on a
// phone, so what is on tonight comes first; on a wide screen (40rem and up) they open at once.
// The reader's own toggles win afterwards: this runs once, at load. No inline script: a module.

const WIDE = "(min-width: 40rem)";

if (window.matchMedia(WIDE).matches) {
  for (const details of document.querySelectorAll("details[data-open-wide]")) details.open = true;
}
