// The buy form (buy.html): the card ranges offered follow the chosen account's currency, and
// the price follows the count and start balance, as cards/purchase.py prices them (in cents,
// the top-up fee rounded half-up). The server draws the same on every load; this keeps it
// current while the person types.
(function () {
  var form = document.getElementById("buy-form");
  if (!form) { return; }
  var account = form.querySelector("#f-account_uuid");
  var range = form.querySelector("#f-bin_uuid");
  var price = document.getElementById("price");
  function cents(text) {
    var cleaned = String(text).trim().replace(/\u2212/, "-").replace(/[,\s\u00a0\u202f]/g, "");
    if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) { return null; }
    var parts = cleaned.split(".");
    return Number(parts[0]) * 100 + Number(((parts[1] || "") + "00").slice(0, 2));
  }
  function money(minor, currency) {
    var text = (minor / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return text + " " + currency;
  }
  function currency() { return account.selectedOptions[0].dataset.currency; }
  function ranges() {
    var wanted = currency(), chosen = range.selectedOptions[0];
    Array.prototype.forEach.call(range.options, function (option) {
      var other = option.dataset.currency !== wanted;
      option.hidden = other;
      option.disabled = other;
    });
    if (!chosen || chosen.disabled) {
      var first = Array.prototype.find.call(range.options, function (o) { return !o.disabled; });
      if (first) { first.selected = true; }
    }
    document.getElementById("buy-currency").textContent = wanted;
  }
  function total() {
    var count = form.querySelector("#f-cards_count").value.trim();
    var start = cents(form.querySelector("#f-start_balance").value || "0");
    var chosen = range.selectedOptions[0];  // a range with its own price charges that instead
    var issue = cents(chosen && chosen.dataset.cardPrice ? chosen.dataset.cardPrice : price.dataset.issueFee);
    var percent = cents(price.dataset.topupPercent);
    var shown = ["price-each", "price-fees", "price-total"].map(function (id) { return document.getElementById(id); });
    if (!/^\d+$/.test(count) || Number(count) < 1 || start === null) {
      shown.forEach(function (node) { node.textContent = "—"; });
      return;
    }
    var topup = Math.floor((start * percent * 2 + 10000) / 20000);
    var each = issue + start + topup;
    shown[0].textContent = money(each, currency());
    shown[1].textContent = money(issue + topup, currency());
    shown[2].textContent = money(each * Number(count), currency());
  }
  account.addEventListener("change", function () { ranges(); total(); });
  form.addEventListener("input", total);
  ranges();
  total();
})();
