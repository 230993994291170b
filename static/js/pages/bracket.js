// Bracket lines: joins each knockout table to the table it feeds with an SVG elbow line.
//
// The server says which table feeds which (data-feeds: the winners' table; data-feeds-losers:
// the third-place match); this draws the lines from the right edge of a table to the left edge
// of the next round's table, in the bracket's own coordinates, and draws them again when the
// layout changes (a resize, a team's members opened, a live update). Each line carries
// data-from and data-to, the ids of the tables it joins. No inline script: a module.

const SVG = "http://www.w3.org/2000/svg";

function draw(bracket) {
  const svg = bracket.querySelector(".bracket-lines");
  if (!svg) return;
  const box = bracket.getBoundingClientRect();
  svg.setAttribute("width", bracket.scrollWidth);
  svg.setAttribute("height", bracket.scrollHeight);
  svg.replaceChildren();
  for (const from of bracket.querySelectorAll("[data-feeds], [data-feeds-losers]")) {
    const targets = [
      ...(from.dataset.feeds || "").split(" ").filter(Boolean).map((id) => [id, false]),
      ...(from.dataset.feedsLosers || "").split(" ").filter(Boolean).map((id) => [id, true]),
    ];
    for (const [id, isLosers] of targets) {
      const to = document.getElementById(id);
      if (!to || !bracket.contains(to)) continue;
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      const x1 = a.right - box.left;
      const y1 = a.top + a.height / 2 - box.top;
      const x2 = b.left - box.left;
      const y2 = b.top + b.height / 2 - box.top;
      const middle = x1 + (x2 - x1) / 2;
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("d", `M ${x1} ${y1} H ${middle} V ${y2} H ${x2}`);
      path.setAttribute("class", isLosers ? "line losers" : "line");
      path.dataset.from = from.id;
      path.dataset.to = id;
      svg.appendChild(path);
    }
  }
}

function drawAll() {
  for (const bracket of document.querySelectorAll("[data-bracket]")) draw(bracket);
}

drawAll();
window.addEventListener("resize", drawAll);
document.addEventListener("jink:updated", drawAll);
document.addEventListener("toggle", drawAll, true);
if ("ResizeObserver" in window) {
  const observer = new ResizeObserver(drawAll);
  const observeAll = () => {
    for (const bracket of document.querySelectorAll("[data-bracket]")) observer.observe(bracket);
  };
  observeAll();
  // A live update brings a new bracket element: watch that one too.
  document.addEventListener("jink:updated", observeAll);
}
