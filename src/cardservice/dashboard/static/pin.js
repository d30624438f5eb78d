// Set PIN on a physical card's page (dashboard/card_pages.py, docs/cards.md#the-pin): the PIN is
// encrypted here, in the browser, with RSA-OAEP (SHA-256) under the service's PIN key (the
// form's data-public-key, from GET /card/pin-key) over {"pin", "nonce"}; only that envelope
// is posted. The PIN field has no name, so without this script nothing is sent.
(function () {
  "use strict";
  var form = document.querySelector("form.pin-form");
  if (!form) return;
  var said = form.querySelector(".pin-said");
  var input = form.querySelector("#new-pin");

  function der(pem) {
    var body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
    var raw = atob(body);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes.buffer;
  }

  function base64(buffer) {
    var bytes = new Uint8Array(buffer), text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text);
  }

  function nonce() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var pin = input.value;
    if (!/^[0-9]{4,6}$/.test(pin)) { said.textContent = "A PIN is 4 to 6 digits."; return; }
    if (!(window.crypto && crypto.subtle)) { said.textContent = "This browser cannot encrypt the PIN here."; return; }
    var message = new TextEncoder().encode(JSON.stringify({pin: pin, nonce: nonce()}));
    input.value = "";
    crypto.subtle.importKey("spki", der(form.getAttribute("data-public-key")),
                            {name: "RSA-OAEP", hash: "SHA-256"}, false, ["encrypt"])
      .then(function (key) { return crypto.subtle.encrypt({name: "RSA-OAEP"}, key, message); })
      .then(function (envelope) {
        form.querySelector("input[name=encrypted_pin]").value = base64(envelope);
        form.submit();
      }, function () { said.textContent = "The PIN could not be encrypted; reload the page and try again."; });
  });
})();
