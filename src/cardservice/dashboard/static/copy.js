// Copy buttons (a card's revealed details, a top-up's payment details): in a `[data-copy-region]`,
// each `button.copy` copies the `data-copy-value` of the value beside it (read at the click: a
// value removed since copies nothing), and the region's `.copied` live region says what happened.
(function () {
  "use strict";
  document.querySelectorAll("[data-copy-region]").forEach(function (region) {
    var said = region.querySelector(".copied");
    region.querySelectorAll("button.copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var value = button.parentNode.querySelector("[data-copy-value]");
        if (!value || !value.getAttribute("data-copy-value")) return;
        var text = value.getAttribute("data-copy-value");
        var name = button.getAttribute("data-copy-name") || "";
        var done = function () { said.textContent = name ? "Copied: " + name + "." : "Copied."; };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(done, function () { said.textContent = "Copy failed: select the text instead."; });
        } else {
          said.textContent = "Copy is not available here: select the text instead.";
        }
      });
    });
  });
})();
