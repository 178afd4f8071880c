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
    }
    plans.forEach((input) => input.addEventListener("change", show));
    show();
  });
});
