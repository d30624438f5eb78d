// The revealed card details (dashboard/card_details_pages.py): a countdown, and after it every
// value is removed from the page (the page then offers to show again); copy.js copies them.
(function () {
  "use strict";
  var section = document.querySelector(".card-details");
  if (!section) return;
  var seconds = parseInt(section.getAttribute("data-seconds"), 10) || 60;
  var deadline = Date.now() + seconds * 1000;  // by the clock: a throttled tab still hides on time
  var counter = section.querySelector(".seconds");

  function hide() {
    section.querySelectorAll(".secret-value").forEach(function (value) {
      value.textContent = "••••";
      value.removeAttribute("data-copy-value");
    });
    section.querySelectorAll("button.copy").forEach(function (button) { button.disabled = true; });
    section.querySelector("[data-testid=countdown]").hidden = true;
    section.querySelector(".hidden-again").hidden = false;
  }

  var timer = setInterval(function () {
    var left = Math.ceil((deadline - Date.now()) / 1000);
    if (counter) counter.textContent = String(Math.max(left, 0));
    if (left <= 0) { clearInterval(timer); hide(); }
  }, 250);
})();
