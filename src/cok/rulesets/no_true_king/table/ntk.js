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
