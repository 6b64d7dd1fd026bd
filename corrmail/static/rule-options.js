// Progressive enhancement of the tournament form: the column-draughts rule options are shown
// only for Bashni and Lasca (002 §4.1.4), and Lasca's numbering only for Lasca. A hidden select
// is also disabled so it is not posted; without this script every option is shown and the
// server refuses an option on a game type that has none.
(function () {
  "use strict";
  var fieldset = document.getElementById("rule-options");
  var gameType = document.querySelector("select[name=game_type]");
  if (!fieldset || !gameType) {
    return;
  }
  var columnTypes = (fieldset.getAttribute("data-column-types") || "").split(" ");
  var fixed = fieldset.querySelector("select[data-rule-option][disabled]") !== null;

  // The stylesheet gives labels and fieldsets a display of their own, which beats [hidden].
  function display(element, visible) {
    element.hidden = !visible;
    element.style.display = visible ? "" : "none";
  }

  function show(select, visible) {
    display(select.closest("label") || select, visible);
    if (!fixed) {
      select.disabled = !visible;
    }
  }

  function update() {
    var type = gameType.value;
    var column = columnTypes.indexOf(type) >= 0;
    display(fieldset, column);
    var selects = fieldset.querySelectorAll("select[data-rule-option]");
    for (var i = 0; i < selects.length; i++) {
      var lasca = type.indexOf("column_international") === 0;
      var option = selects[i].getAttribute("data-rule-option");
      show(selects[i], column && (option !== "numbering" || lasca));
    }
  }

  gameType.addEventListener("change", update);
  update();
})();
