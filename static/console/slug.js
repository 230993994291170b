// The new-club form: suggest the club's web address name (its slug) from its name as it is
// typed, until the organiser edits the slug themselves. Without this script the server makes
// the same suggestion when the slug is left empty.
const slug = document.querySelector("[data-suggest-from]");
const name = slug && document.getElementById(slug.dataset.suggestFrom);

export function suggest(text) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .slice(0, 50)
    .replace(/^-+|-+$/g, "");
}

if (slug && name) {
  let edited = slug.value !== "" && slug.value !== suggest(name.value);
  slug.addEventListener("input", () => { edited = slug.value !== ""; });
  name.addEventListener("input", () => { if (!edited) slug.value = suggest(name.value); });
}
