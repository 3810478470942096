import Foundation
import Hummingbird

/// The web guide's stylesheet and script, compiled in: no resource bundle to ship, no build step,
/// nothing fetched from another origin, so the pages work offline.
enum WebAssets {
    /// Served under `/assets/{name}`: only these names, whatever the path says.
    static let files: [String: RenderedResponse] = [
        "guide.css": RenderedResponse(contentType: "text/css; charset=utf-8", bytes: Array(stylesheet.utf8), maxAge: 86_400),
        "guide.js": RenderedResponse(contentType: "text/javascript; charset=utf-8", bytes: Array(script.utf8), maxAge: 86_400),
    ]

    /// The pages link the assets with their checksum in the query: a day-long client cache,
    /// yet a new build's pages ask for the new files.
    static let stylesheetPath = "/assets/guide.css?v=" + version(of: stylesheet)
    static let scriptPath = "/assets/guide.js?v=" + version(of: script)

    private static func version(of text: String) -> String {
        var checksum = Checksum()
        checksum.add(text)
        return checksum.hex
    }

    static let stylesheet = """
        :root{--ch:9rem;--row:3.4rem;--hour:12rem;--accent:#c62828;--line:#dfe3ea;--muted:#5f6670;--ink:#1d1f23;
        --bg:#f4f6f9;--card:#fff;--block:#f7f9fc;--air:#fff4e5;--air-edge:#f0a040;--link:#0b57d0;
        font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg);line-height:1.35}
        *{box-sizing:border-box}
        [hidden]{display:none!important}
        body{margin:0}
        a{color:var(--link)}
        header.top{display:flex;align-items:center;gap:1.25rem;padding:.6rem 1rem;background:var(--ink)}
        header.top a{color:#fff;text-decoration:none}
        header.top .home{font-weight:700;letter-spacing:.02em}
        main{padding:0 1rem 1.5rem;max-width:100rem;margin:0 auto}
        footer{padding:0 1rem 1.5rem;color:var(--muted);font-size:.8rem;text-align:center}
        h1{font-size:1.3rem;margin:0}
        h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
        .toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:.6rem 1.25rem;padding:.8rem 0}
        .toolbar .span{color:var(--muted);font-weight:400;margin-left:.3rem}
        .slide{display:flex;gap:.4rem}
        .button,.slide a,.lineup button,.my-channels button{display:inline-block;padding:.35rem .75rem;border:1px solid var(--line);
        border-radius:.45rem;background:var(--card);color:var(--ink);text-decoration:none;font:inherit;font-size:.9rem;cursor:pointer}
        .slide a.now-link,.button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
        .lineup select{font:inherit;font-size:.9rem;padding:.25rem;margin-left:.3rem}
        .my-channels{position:relative}
        .my-channels summary{cursor:pointer;padding:.35rem .2rem}
        .my-channels .checks{position:absolute;z-index:5;top:2.2rem;left:0;width:min(30rem,90vw);max-height:60vh;overflow:auto;
        display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.25rem .75rem;padding:.75rem;
        background:var(--card);border:1px solid var(--line);border-radius:.5rem;box-shadow:0 6px 24px #0002}
        .my-channels button{margin-left:.5rem}
        .grid-scroll{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:.6rem}
        .grid-inner{position:relative;min-width:calc(var(--ch) + var(--hours) * var(--hour))}
        .row{display:flex;height:var(--row);border-bottom:1px solid var(--line)}
        .row:last-of-type{border-bottom:0}
        .row.head{height:2rem;background:#eef1f5}
        .ch{position:sticky;left:0;z-index:3;flex:0 0 var(--ch);display:block;line-height:var(--row);padding:0 .7rem;background:var(--card);
        border-right:1px solid var(--line);color:var(--ink);font-weight:600;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .row.head .ch{line-height:2rem;background:#eef1f5;color:var(--muted);font-weight:400;font-size:.75rem}
        a.ch:hover{color:var(--link)}
        .lane{position:relative;flex:1;min-width:0}
        .tick{position:absolute;z-index:2;top:0;bottom:0;padding:.45rem .35rem;border-left:1px solid var(--line);font-size:.8rem;color:var(--muted)}
        .block{position:absolute;z-index:2;top:3px;bottom:3px;display:flex;flex-direction:column;justify-content:center;min-width:0;padding:0 .45rem;
        overflow:hidden;white-space:nowrap;background:var(--block);border:1px solid var(--line);border-left:3px solid #b8c2d2;border-radius:.35rem;
        color:var(--ink);text-decoration:none}
        .block b{font-size:.85rem;font-weight:600;overflow:hidden;text-overflow:ellipsis}
        .block small{font-size:.72rem;color:var(--muted);overflow:hidden;text-overflow:ellipsis}
        .block:hover,.block:focus{background:#e8effd}
        .block.movie{border-left-color:#7b1fa2}
        .block.series{border-left-color:#1565c0}
        .block.sports{border-left-color:#2e7d32}
        .block.news{border-left-color:#546e7a}
        .block.kids{border-left-color:#f9a825}
        .block.documentary{border-left-color:#6d4c41}
        .block.on-air{background:var(--air);border-color:var(--air-edge)}
        .now-layer{position:absolute;top:0;bottom:0;left:var(--ch);right:0;pointer-events:none;z-index:1}
        .now-line{position:absolute;top:0;bottom:0;width:2px;margin-left:-1px;background:var(--accent);box-shadow:0 0 0 1px #fff8}
        .now-line::before{content:"";position:absolute;top:0;left:-4px;border:5px solid transparent;border-top-color:var(--accent)}
        .empty{color:var(--muted)}
        ol.day{list-style:none;margin:0;padding:0;background:var(--card);border:1px solid var(--line);border-radius:.6rem;overflow:hidden}
        ol.day li{display:flex;gap:1rem;align-items:baseline;padding:.6rem .9rem;border-bottom:1px solid var(--line)}
        ol.day li:last-child{border-bottom:0}
        ol.day time{flex:0 0 3.2rem;font-variant-numeric:tabular-nums;font-weight:600}
        ol.day time small{display:block;color:var(--muted);font-weight:400;font-size:.75rem}
        ol.day .what{flex:1;min-width:0}
        ol.day .what a{font-weight:600;text-decoration:none}
        ol.day .sub{color:var(--muted)}
        ol.day .left{display:block;color:var(--accent);font-size:.85rem;font-weight:600}
        ol.day .kind{color:var(--muted);font-size:.8rem}
        ol.day li.past{opacity:.6}
        ol.day li.on-air{background:var(--air);box-shadow:inset 4px 0 var(--accent)}
        .detail .backdrop{--placeholder:linear-gradient(120deg,#263238,#546e7a 60%,#37474f);position:relative;height:15rem;margin:0 -1rem;overflow:hidden;background:var(--placeholder)}
        .detail .backdrop img{width:100%;height:100%;object-fit:cover;display:block}
        .detail-body{display:grid;grid-template-columns:13rem 1fr;gap:1.75rem;padding-top:1.25rem}
        .has-backdrop .poster{margin-top:-7rem}
        .poster{--placeholder:linear-gradient(160deg,#455a64,#90a4ae);position:relative;aspect-ratio:2/3;display:flex;align-items:center;justify-content:center;padding:1rem;overflow:hidden;
        border-radius:.6rem;background:var(--placeholder);box-shadow:0 6px 20px #0003;color:#fff;
        font-weight:700;font-size:1.15rem;text-align:center;overflow-wrap:anywhere}
        .poster img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
        .poster img::after,.backdrop img::after{content:attr(alt);position:absolute;inset:0;display:flex;align-items:center;justify-content:center;padding:1rem;background:var(--placeholder)}
        img.failed{display:none!important}
        .facts .subtitle{margin:.3rem 0 0;color:var(--muted)}
        .facts .when{margin:.5rem 0}
        .facts .status{display:inline-block;margin:.2rem 0;padding:.15rem .55rem;border-radius:1rem;background:var(--air);color:var(--accent);font-weight:600;font-size:.9rem}
        .facts .tagline{font-style:italic;color:var(--muted)}
        .facts .synopsis{max-width:46rem}
        .facts dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:1rem 0}
        .facts dt{color:var(--muted)}
        .facts dd{margin:0}
        .cast{columns:2 14rem;padding-left:1.1rem;margin:0}
        .cast span{color:var(--muted)}
        .airings ul{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.5rem}
        .airings li a{display:block;padding:.5rem .75rem;background:var(--card);border:1px solid var(--line);border-radius:.45rem;text-decoration:none;color:var(--ink)}
        .airings li.on-air a{background:var(--air);border-color:var(--air-edge)}
        .airings time{font-weight:600;margin-right:.4rem}
        .error{max-width:36rem;margin:3rem auto;text-align:center}
        @media (max-width:600px){
        :root{--ch:5.75rem;--hour:10rem;--row:3.1rem}
        main{padding:0 .5rem 1rem}
        .toolbar{gap:.5rem .75rem}
        h1{font-size:1.1rem}
        .ch{padding:0 .45rem;font-size:.85rem}
        .detail .backdrop{height:10rem;margin:0 -.5rem}
        .detail-body{grid-template-columns:1fr;gap:1rem}
        .poster{width:11rem;margin:0 auto}
        .has-backdrop .poster{margin-top:-5rem}
        .facts h1{text-align:center}
        }

        """
}

extension WebAssets {
    /// Progressive enhancement only: without it every channel shows and the now line stays where
    /// the server drew it. Sets `data-js="ready"` on <body>, which scripts/screenshot.sh checks.
    static let script = """
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

        """
}
