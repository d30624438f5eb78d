// Every <time data-local> written by the server in UTC (its title keeps the UTC text, shown on
// hover) is rewritten in the reader's own time zone, in the same YYYY-MM-DD HH:MM form.
(function () {
  function two(n) { return String(n).padStart(2, "0"); }
  function localise(root) {
    root.querySelectorAll("time[data-local]").forEach(function (node) {
      var moment = new Date(node.getAttribute("datetime"));
      if (isNaN(moment)) { return; }
      node.textContent = moment.getFullYear() + "-" + two(moment.getMonth() + 1) + "-" +
        two(moment.getDate()) + " " + two(moment.getHours()) + ":" + two(moment.getMinutes());
      node.removeAttribute("data-local");
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localise(document); });
  document.addEventListener("htmx:afterSwap", function (event) { localise(event.target); });
})();
