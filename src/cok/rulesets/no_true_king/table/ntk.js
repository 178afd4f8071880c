// No True King's board on the resolve form: open its frame on the agent's house's troops
// (the browser would show the board's top-left corner, an empty sea, otherwise).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".ntk-frame").forEach((frame) => {
    const focus = frame.querySelector(".ntk-focus");
    if (!focus) return;
    frame.scrollLeft = focus.offsetLeft + focus.offsetWidth / 2 - frame.clientWidth / 2;
    frame.scrollTop = focus.offsetTop + focus.offsetHeight / 2 - frame.clientHeight / 2;
  });
});

// The resolve form filled in once: sending it may open the table (the others play their cards
// first), after which the same agent is resolved with the same choices; this browser keeps
// them for the tab (sessionStorage) and puts them back while that agent's table is open.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form[data-ntk-keep]").forEach((form) => {
    const key = "ntk-resolve:" + form.dataset.ntkKeep;
    const skip = ["csrf", "once", "player", "agent", "preview"];
    form.addEventListener("submit", () => {
      const kept = [];
      new FormData(form).forEach((value, name) => {
        if (!skip.includes(name) && typeof value === "string") kept.push([name, value]);
      });
      try {
        window.sessionStorage.setItem(key, JSON.stringify(kept));
      } catch (e) {
        /* a browser that keeps nothing: the form is filled again */
      }
    });
    if (!("ntkTable" in form.dataset)) return;
    let kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(key) || "null");
    } catch (e) {
      kept = null;
    }
    if (!Array.isArray(kept)) return;
    kept.forEach(([name, value]) => {
      form.querySelectorAll("[name]").forEach((field) => {
        if (field.name !== name) return;
        if (field.type === "radio" || field.type === "checkbox") {
          if (field.value === value) field.checked = true;
        } else if (field.tagName === "SELECT") {
          if ([...field.options].some((o) => o.value === value)) field.value = value;
        } else if (field.type !== "hidden") {
          field.value = value;
        }
      });
    });
    const details = form.querySelector("details.ntk-more");
    if (details && form.querySelector("input[name=then]:checked")) details.open = true;
  });
});

// Only the parts of the form the chosen plan takes (a maester's muster shows no move); the
// others stay in the page, hidden, so that without this script every part is there.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form").forEach((form) => {
    const plans = form.querySelectorAll("input[name=plan]");
    if (!plans.length) return;
    function show() {
      const chosen = form.querySelector("input[name=plan]:checked");
      const kinds = chosen ? chosen.value.split(" ") : [];
      form.querySelectorAll("[data-kind]").forEach((part) => {
        part.hidden = !kinds.includes(part.dataset.kind);
      });
      // in the order the turn is played: a move before a muster when the plan says so
      const muster = form.querySelector("fieldset[data-kind=muster]");
      const move = form.querySelector("fieldset[data-kind=move]");
      if (muster && move) {
        const moveFirst = kinds.indexOf("move") >= 0 && kinds.indexOf("move") < kinds.indexOf("muster");
        const moveIsFirst = Boolean(muster.compareDocumentPosition(move) & Node.DOCUMENT_POSITION_PRECEDING);
        if (moveFirst !== moveIsFirst) (moveFirst ? muster : move).before(moveFirst ? move : muster);
      }
      // a route from troops the muster puts there is offered only when the muster comes first
      const musterFirst = kinds.indexOf("muster") >= 0 && kinds.indexOf("muster") < kinds.indexOf("move");
      form.querySelectorAll("select[name=route] option[data-mustered]").forEach((option) => {
        option.disabled = !musterFirst;
        if (option.disabled && option.selected) option.selected = false;
      });
    }
    plans.forEach((input) => input.addEventListener("change", show));
    show();
  });
});
