(function () {
  "use strict";
  var body = document.body;
  var each = function (selector, action, root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(selector), action);
  };

  // Posters and backdrops are remote: one that fails is hidden, uncovering the placeholder.
  each("img[data-fallback]", function (img) {
    var failed = function () { img.classList.add("failed"); };
    if (img.complete && img.naturalWidth === 0) { failed(); } else { img.addEventListener("error", failed); }
  });

  // The server's clock (tests and screenshots fix it), advanced by the time on this page.
  var serverNow = Number(body.getAttribute("data-now")) * 1000;
  var loadedAt = Date.now();
  var now = function () { return serverNow + (Date.now() - loadedAt); };

  var grid = document.querySelector(".grid[data-start]");
  var moveNowLine = function () {
    if (!grid) { return; }
    var start = Number(grid.getAttribute("data-start")) * 1000;
    var end = Number(grid.getAttribute("data-end")) * 1000;
    var moment = now();
    var line = grid.querySelector(".now-line");
    if (line) {
      line.hidden = moment < start || moment >= end;
      line.style.left = ((moment - start) / (end - start) * 100).toFixed(3) + "%";
    }
    each(".block[data-start]", function (block) {
      var on = Number(block.getAttribute("data-start")) * 1000 <= moment && moment < Number(block.getAttribute("data-end")) * 1000;
      block.classList.toggle("on-air", on);
    }, grid);
  };
  moveNowLine();
  setInterval(moveNowLine, 60000);

  // On a narrow screen the grid scrolls sideways: bring the now line into view.
  if (grid) {
    var scroller = grid.querySelector(".grid-scroll");
    var line = grid.querySelector(".now-line");
    if (scroller && line && !line.hidden && scroller.scrollWidth > scroller.clientWidth) {
      scroller.scrollLeft = Math.max(0, line.offsetLeft - 24);
    }
  }

  // My channels: the unticked ones are remembered in this browser and their rows hidden.
  var storageKey = "tvguide.hiddenChannels";
  var hidden = [];
  try { hidden = JSON.parse(localStorage.getItem(storageKey) || "[]"); } catch (error) { hidden = []; }
  if (!Array.isArray(hidden)) { hidden = []; }
  var save = function () {
    try { localStorage.setItem(storageKey, JSON.stringify(hidden)); } catch (error) { /* private mode: this page only */ }
  };
  var picker = document.getElementById("my-channels");
  var apply = function () {
    each(".row[data-channel]", function (row) { row.hidden = hidden.indexOf(row.getAttribute("data-channel")) >= 0; });
    if (!picker) { return; }
    var count = picker.querySelectorAll("input[data-channel]:not(:checked)").length;
    var label = picker.querySelector("[data-hidden-count]");
    if (label) { label.textContent = count ? "(" + count + " hidden)" : ""; }
  };
  if (picker) {
    picker.hidden = false;
    each("input[data-channel]", function (box) {
      var id = box.getAttribute("data-channel");
      box.checked = hidden.indexOf(id) < 0;
      box.addEventListener("change", function () {
        hidden = hidden.filter(function (other) { return other !== id; });
        if (!box.checked) { hidden.push(id); }
        save();
        apply();
      });
    }, picker);
    var showAll = picker.querySelector("[data-action=show-all]");
    if (showAll) {
      showAll.addEventListener("click", function () {
        hidden = [];
        save();
        each("input[data-channel]", function (box) { box.checked = true; }, picker);
        apply();
      });
    }
  }
  apply();

  // The line-up select applies at once; its button is for browsers without JavaScript.
  each("form.lineup select", function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  each("[data-js-hide]", function (element) { element.hidden = true; });

  body.setAttribute("data-js", "ready");
})();
