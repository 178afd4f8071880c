// Live refresh: a served page polls its campaign's version and, when anyone has recorded since
// it was shown, shows the new state. A page with a form being filled is never reloaded under
// the player's fingers: it says that there is news instead, with a link to see it.
// Fair dice (docs/dice.md): a form asking cok to roll carries the phone's own random bytes,
// made when it is sent, after the campaign committed to its seed.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var field = event.target.querySelector && event.target.querySelector("input[name=entropy]");
    if (!field || !window.crypto || !window.crypto.getRandomValues) return;
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    field.value = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }, true);
  // The first roll of a period committed its dice, after the phone's bytes were made: the
  // form comes back marked to be sent again, and goes by itself with new bytes (once).
  var again = document.querySelector("form[data-send-again]");
  if (again && again.requestSubmit) again.requestSubmit();
})();

(function () {
  "use strict";
  var bar = document.querySelector(".cok-bar[data-version]");
  if (!bar || !window.fetch) return;
  var seen = bar.getAttribute("data-version");
  var url = (bar.getAttribute("data-root") || "") + "/api/version";
  var news = document.querySelector(".cok-news p");
  var EVERY = 3000;
  var KEPT = "cok-refreshed";

  // a page that refreshed itself says so in its live region (role=status), for a screen reader
  // as for the eye: what changed is the newest entry the page shows, when it shows one
  try {
    if (window.sessionStorage.getItem(KEPT)) {
      window.sessionStorage.removeItem(KEPT);
      var region = document.querySelector(".cok-news");
      var newest = document.querySelector("ul.latest li, ul.entries li");
      var told = "The page was refreshed: new events were recorded." + (newest ? " The newest: " + newest.textContent.trim() : "");
      if (region) setTimeout(function () { region.insertAdjacentHTML("beforeend", "<p class=\"cok-told\"></p>"); region.lastChild.textContent = told; }, 400);
    }
  } catch (e) { /* a browser that keeps nothing: nothing is said */ }

  function changed(field) {
    if (field.closest(".cok-bar") || field.type === "hidden" || field.type === "submit") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].selected !== field.options[i].defaultSelected) return true;
      }
      return false;
    }
    return field.value !== field.defaultValue;
  }

  function filling() {
    var fields = document.querySelectorAll("form input, form select, form textarea");
    for (var i = 0; i < fields.length; i++) if (changed(fields[i])) return true;
    var active = document.activeElement;
    return !!(active && active.form && !active.closest(".cok-bar") && active.type !== "submit");
  }

  function check() {
    if (document.hidden) return;
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (now) {
        if (!now || !now.version || now.version === seen) return;
        if (!filling()) {
          try { window.sessionStorage.setItem(KEPT, "1"); } catch (e) { /* nothing kept */ }
          window.location.replace(window.location.href);
          return;
        }
        if (news) news.hidden = false;
      })
      .catch(function () {});
  }

  setInterval(check, EVERY);
  document.addEventListener("visibilitychange", check);
})();

// On a phone the header's row of pages scrolls sideways (serve.css): the page you are on is
// brought into the middle of the row, so its tab ("My kingdom") is never the one cut at the edge.
(function () {
  "use strict";
  var here = document.querySelector(".cok-links [aria-current]");
  var row = here && here.parentElement;
  if (!row || row.scrollWidth <= row.clientWidth) return;
  var from = here.getBoundingClientRect().left - row.getBoundingClientRect().left;
  row.scrollLeft += from - (row.clientWidth - here.offsetWidth) / 2;
})();
