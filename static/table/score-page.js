// The score page's entry point (templates/scorepad/score.html; the strict CSP allows no inline
// script): load the score pad (score.js, by its static URL from the page's configuration) and
// start it. The one module of the score pad that does something when it is loaded.

const config = JSON.parse(document.getElementById("table-config").textContent);
const { start } = await import(config.modules.score);
await start();
