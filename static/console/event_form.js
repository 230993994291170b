// The new-event form: hide the options that do not apply to the chosen format (and, for a club
// night, every tournament option) (each option's
// formats are in its data-formats attribute, from the server's FORMAT_OPTIONS), and fill in
// sensible defaults when the format changes. Without this script every option shows and the
// server still drops those that do not apply.
const DEFAULTS = {
  drive: { entrant_kind: "team", table_size: "2", match_games: "1", round_count: "3" },
  knockout: { entrant_kind: "player", table_size: "2", match_games: "3", round_count: "" },
  swiss: { entrant_kind: "player", table_size: "2", match_games: "1", round_count: "4" },
  round_robin: { entrant_kind: "player", table_size: "2", match_games: "1", round_count: "" },
};

const form = document.getElementById("event-form");
const format = form.querySelector("[name=format]");
const kind = form.querySelector("[name=kind]");

function showOptions() {
  const night = kind.value === "night";
  for (const option of form.querySelectorAll(".option")) {
    let applies = !(night && "tournamentOnly" in option.dataset);
    if (applies && option.dataset.formats) {
      applies = option.dataset.formats.split(" ").includes(format.value);
    }
    option.hidden = !applies;
    for (const control of option.querySelectorAll("input, select")) control.disabled = !applies;
  }
}

kind.addEventListener("change", showOptions);

format.addEventListener("change", () => {
  for (const [name, value] of Object.entries(DEFAULTS[format.value] || {})) {
    const control = form.querySelector(`[name=${name}]`);
    if (control) control.value = value;
  }
  showOptions();
});
showOptions();
