// The event page's check-in list refreshes itself every few seconds (htmx polls the list alone,
// so a check-in at the door or from a phone shows within one poll). While the organiser has
// ticked or unticked a box and not saved yet, the refresh waits: it would undo their ticks.
// Without this script the list still refreshes; without htmx it is a plain form.
document.addEventListener("change", (event) => {
  const form = event.target.closest("#check-in");
  if (form) form.dataset.unsaved = "true";
});

document.addEventListener("htmx:beforeRequest", (event) => {
  const live = event.detail.elt;
  if (live.id !== "check-in-live") return;
  const form = live.querySelector("#check-in");
  if (form && form.dataset.unsaved === "true") event.preventDefault();
});
