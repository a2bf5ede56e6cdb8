// threads.html (issue 52): the first screen takes taps before the page's Python is up. Until
// page.py (MicroPython) says it listens (<body data-nova-page>), a tap on a control is kept
// here, the wait is said, and a level's button shows pressed at once; page.py then plays the
// kept taps in order (window.novaEarlyTaps). A classic script in <head>: it listens before
// the first screen is parsed, so no button is ever dead.
(() => {
  window.novaEarlyTaps = [];
  document.addEventListener("click", (e) => {
    const body = document.body;
    if (!body || body.hasAttribute("data-nova-page")) return;
    const t = e.target.closest ? e.target.closest("[data-ui],[data-move]") : null;
    if (!t) return;
    e.preventDefault();
    window.novaEarlyTaps.push(t);
    const ui = t.getAttribute("data-ui") || "";
    if (ui.startsWith("level:")) {
      for (const b of document.querySelectorAll("[data-ui^='level:']")) {
        b.setAttribute("aria-pressed", b === t ? "true" : "false");
      }
    }
    const text = document.querySelector("#nova-boot .nova-boot-text");
    if (text) text.textContent = "Starting the game… it begins as soon as it is ready.";
    body.setAttribute("data-nova-queued", "");
    body.setAttribute("data-nova-pending", String(window.novaEarlyTaps.length));
  }, true);
})();
