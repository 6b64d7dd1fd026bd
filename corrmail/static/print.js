// A print button: the page's Content-Security-Policy refuses inline handlers (onclick=…).
(function () {
  "use strict";
  document.querySelectorAll("button[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
