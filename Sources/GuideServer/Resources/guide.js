(function () {
  "use strict";
  var body = document.body;
  var each = function (selector, action, root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(selector), action);
  };

  // Posters and backdrops are remote: one that fails is hidden, uncovering the placeholder.
  each("img[data-fallback]", function (img) {
    var failed = function () {
      img.classList.add("failed");
      // A gallery image that cannot load takes its link away with it: nothing to open.
      var item = img.closest(".gallery li");
      if (item) { item.hidden = true; }
    };
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

  // A block too narrow for its title shows it whole on the first tap; the second opens it.
  each(".block", function (block) {
    block.addEventListener("click", function (event) {
      var title = block.querySelector("b");
      var cut = title && title.scrollWidth > title.clientWidth + 1;
      if (cut && !block.classList.contains("expanded")) {
        event.preventDefault();
        each(".block.expanded", function (other) { other.classList.remove("expanded"); });
        block.classList.add("expanded");
      }
    });
  });

  // Share: the system's share sheet where the browser has one, else the link copied.
  var note = document.querySelector(".share-note");
  each("[data-action=share]", function (button) {
    var canShare = typeof navigator.share === "function";
    var canCopy = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
    if (!canShare && !canCopy) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = location.href;
      if (canShare) {
        navigator.share({ title: document.title, url: url }).catch(function () { /* the person closed the sheet */ });
      } else {
        navigator.clipboard.writeText(url).then(function () {
          if (note) { note.textContent = note.getAttribute("data-copied"); }
        }, function () { /* no permission: nothing copied, nothing said */ });
      }
    });
  });

  // Read aloud: the browser's own speech, in the page's language.
  each("[data-action=speak]", function (button) {
    if (!("speechSynthesis" in window) || typeof SpeechSynthesisUtterance !== "function") { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var parts = [];
      each(".facts h1, .facts .subtitle, .facts .synopsis", function (element) { parts.push(element.textContent); });
      window.speechSynthesis.cancel();
      var utterance = new SpeechSynthesisUtterance(parts.join(". "));
      utterance.lang = document.documentElement.lang === "es" ? "es-ES" : "en-GB";
      window.speechSynthesis.speak(utterance);
    });
  });

  // A phone subscribes to a calendar by its webcal:// address; the http one stays in data-href.
  each("[data-action=subscribe]", function (link) {
    var path = link.getAttribute("data-href");
    if (path && path.charAt(0) === "/") { link.href = "webcal://" + location.host + path; }
  });
  each("[data-subscribe-url]", function (code) { code.textContent = location.origin + code.textContent; });

  // The selects apply at once; their buttons are for browsers without JavaScript.
  each("form.lineup select, form.filters select", function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  each("[data-js-hide]", function (element) { element.hidden = true; });

  body.setAttribute("data-js", "ready");
})();
