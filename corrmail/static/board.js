// The game's board: the player clicks a piece, sees its legal destinations, picks a route when
// several end on the same square, and the move's full notation fills the form. Conditional
// variants (002 §4.2.7) are built the same way on the positions after the move. Every legal
// move comes from the server (legal-moves.json, computed by `notation`); nothing about
// legality is decided here. A static file: the site's CSP allows no inline script.
(function () {
  "use strict";
  var board = document.getElementById("play-board");
  if (!board) { return; }
  var url = board.getAttribute("data-legal-moves");
  var moveInput = document.getElementById("move-input");
  var variantsInput = document.getElementById("variants-input");
  var routeChoice = document.getElementById("route-choice");
  var tools = document.getElementById("variant-tools");
  var startButton = document.getElementById("variant-start");
  var addButton = document.getElementById("variant-add");
  var cancelButton = document.getElementById("variant-cancel");
  var lineLabel = document.getElementById("variant-line");
  var SVG = "http://www.w3.org/2000/svg";
  var state = { data: null, selected: null, variant: null };

  function load(after) {
    var target = url + (after ? "?after=" + encodeURIComponent(after) : "");
    return fetch(target, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error("legal moves: " + response.status); }
      return response.json();
    }).then(function (data) {
      state.data = data;
      state.selected = null;
      var doc = new DOMParser().parseFromString(data.svg, "image/svg+xml");
      var svg = document.importNode(doc.documentElement, true);
      var old = board.querySelector("svg");
      if (old) { board.replaceChild(svg, old); } else { board.appendChild(svg); }
      svg.addEventListener("click", onClick);
      board.setAttribute("data-ready", "1");
      board.setAttribute("data-after", data.after.join(" "));
    });
  }

  function svgElement() { return board.querySelector("svg"); }

  function squareAt(event) {
    var svg = svgElement();
    var point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    var local = point.matrixTransform(svg.getScreenCTM().inverse());
    var best = null, bestDistance = 20 * 20;
    Object.keys(state.data.squares).forEach(function (name) {
      var centre = state.data.squares[name];
      var dx = centre[0] - local.x, dy = centre[1] - local.y;
      var distance = dx * dx + dy * dy;
      if (distance <= bestDistance) { best = name; bestDistance = distance; }
    });
    return best;
  }

  function clearMarks() {
    Array.prototype.forEach.call(board.querySelectorAll(".mark"), function (node) {
      node.parentNode.removeChild(node);
    });
  }

  function mark(name, kind) {
    var centre = state.data.squares[name];
    var circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", centre[0]);
    circle.setAttribute("cy", centre[1]);
    circle.setAttribute("r", kind === "from" ? 18 : 8);
    circle.setAttribute("class", "mark " + kind);
    circle.setAttribute("data-square", name);
    circle.setAttribute("fill", kind === "from" ? "none" : "#2a7");
    circle.setAttribute("stroke", "#2a7");
    circle.setAttribute("stroke-width", "3");
    circle.setAttribute("pointer-events", "none");
    svgElement().appendChild(circle);
  }

  function routesFrom(name) {
    return state.data.routes.filter(function (route) { return route.from === name; });
  }

  function select(name) {
    clearMarks();
    state.selected = name;
    mark(name, "from");
    var seen = {};
    routesFrom(name).forEach(function (route) {
      if (!seen[route.to]) { seen[route.to] = true; mark(route.to, "dest"); }
    });
  }

  function chosen(route) {
    clearMarks();
    hideChoice();
    state.selected = null;
    if (state.variant) {
      state.variant.push(route.text);
      lineLabel.textContent = state.variant.join(" ");
      addButton.hidden = state.variant.length < 2;
      load(baseMove() + " " + state.variant.join(" "));
      return;
    }
    moveInput.value = route.text;
    moveInput.dispatchEvent(new Event("change"));
    tools.hidden = false;
  }

  function hideChoice() {
    routeChoice.hidden = true;
    Array.prototype.forEach.call(routeChoice.querySelectorAll("button"), function (node) {
      node.parentNode.removeChild(node);
    });
  }

  function offerRoutes(routes) {
    hideChoice();
    routes.forEach(function (route) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "route";
      button.textContent = route.text;
      button.addEventListener("click", function () { chosen(route); });
      routeChoice.appendChild(button);
    });
    routeChoice.hidden = false;
  }

  function onClick(event) {
    if (!state.data) { return; }
    var name = squareAt(event);
    if (!name) { return; }
    if (state.selected) {
      var routes = routesFrom(state.selected).filter(function (route) { return route.to === name; });
      if (routes.length === 1) { chosen(routes[0]); return; }
      if (routes.length > 1) { offerRoutes(routes); return; }
    }
    if (routesFrom(name).length) { hideChoice(); select(name); } else { clearMarks(); state.selected = null; }
  }

  function baseMove() { return moveInput.value.trim(); }

  if (startButton) {
    startButton.addEventListener("click", function () {
      if (!baseMove()) { return; }
      state.variant = [];
      lineLabel.textContent = "";
      startButton.hidden = true;
      cancelButton.hidden = false;
      addButton.hidden = true;
      load(baseMove());
    });
    addButton.addEventListener("click", function () {
      var plies = state.variant;
      var text = (plies.length > 1)
        ? "если " + plies[0] + ", то " + plies.slice(1).join(" ")
        : "";
      if (text) {
        // 002 §4.2.7: several variants are each named, «вариант А», «вариант Б».
        var count = variantsInput.value.split("\n").filter(function (l) { return l.trim(); }).length;
        text = "вариант " + "АБВГДЕЖЗИКЛМН".charAt(count % 13) + ": " + text;
        variantsInput.value = (variantsInput.value.trim() ? variantsInput.value.trim() + "\n" : "") + text;
      }
      state.variant = [];
      lineLabel.textContent = "";
      addButton.hidden = true;
      load(baseMove());
    });
    cancelButton.addEventListener("click", function () {
      state.variant = null;
      lineLabel.textContent = "";
      startButton.hidden = false;
      cancelButton.hidden = true;
      addButton.hidden = true;
      load("");
    });
  }
  if (moveInput && moveInput.value.trim()) { tools.hidden = false; }
  if (moveInput) {
    moveInput.addEventListener("input", function () { tools.hidden = !moveInput.value.trim(); });
  }
  load("");
}());
