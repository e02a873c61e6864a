// The report's only script (its SHA-256 is the page's CSP script-src): find, show one section or
// what is new since the previous report, sort.
// Without it the page shows everything, in the order the report wrote it.
(() => {
  const tools = document.getElementById("tools");
  const find = document.getElementById("find");
  const show = document.getElementById("show");
  const shown = document.getElementById("shown");
  const sections = [...document.querySelectorAll("section[data-items]")];
  const items = (section) =>
    [...section.querySelectorAll(".card, tr, :scope > details")].filter((item) => item.tagName !== "TR" || item.querySelector("td"));

  function apply() {
    const words = find.value.toLowerCase().split(/\s+/).filter(Boolean);
    let matching = 0;
    let total = 0;
    const onlyNew = show.value === "new"; // what the previous report in this folder did not have
    for (const section of sections) {
      const wanted = show.value === "all" || onlyNew || section.id === show.value;
      section.hidden = !wanted;
      for (const item of items(section)) {
        const text = item.textContent.toLowerCase();
        const hit = wanted && (!onlyNew || item.classList.contains("new")) && words.every((word) => text.includes(word));
        item.hidden = !hit;
        total += 1;
        matching += hit ? 1 : 0;
      }
    }
    shown.textContent = `${matching} of ${total} items shown`;
  }

  function number(text) {
    const match = text.replace(/,/g, "").match(/^-?\d+(\.\d+)?/);
    return match ? parseFloat(match[0]) : NaN;
  }

  for (const table of document.querySelectorAll("table")) {
    const headers = [...table.querySelectorAll("th")];
    headers.forEach((header, column) => {
      header.tabIndex = 0;
      header.title = "Sort by this column";
      const sort = () => {
        const rows = [...table.querySelectorAll("tr")].filter((row) => row.querySelector("td"));
        const ascending = header.getAttribute("aria-sort") !== "ascending";
        headers.forEach((other) => other.removeAttribute("aria-sort"));
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const key = (row) => (row.cells[column] ? row.cells[column].textContent.trim() : "");
        const numeric = rows.every((row) => key(row) === "" || key(row) === "—" || !Number.isNaN(number(key(row))));
        rows.sort((a, b) => {
          const order = numeric ? (number(key(a)) || 0) - (number(key(b)) || 0) : key(a).localeCompare(key(b));
          return ascending ? order : -order;
        });
        for (const row of rows) row.parentNode.appendChild(row);
      };
      header.addEventListener("click", sort);
      header.addEventListener("keydown", (event) => {
        if (event.key === "Enter") sort();
      });
    });
  }

  // A source's name in the Sources table: everything that cites it, in every section.
  for (const link of document.querySelectorAll("a[data-find]")) {
    link.addEventListener("click", () => {
      find.value = link.dataset.find;
      show.value = "all";
      apply();
    });
  }

  find.addEventListener("input", apply);
  show.addEventListener("change", apply);
  tools.hidden = false;
  apply();
})();
