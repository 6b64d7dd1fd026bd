// The reset token travels in the link's fragment, which browsers never send to a server (so no
// access log keeps it). Post it to the claim form, then drop it from the address bar.
(function () {
  "use strict";
  var form = document.getElementById("reset-claim");
  var token = window.location.hash.replace(/^#/, "");
  if (!form || !token) {
    return;
  }
  history.replaceState(null, "", window.location.pathname);
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
})();
