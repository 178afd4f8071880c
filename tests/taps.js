// Tap targets smaller than a thumb (issue #35): every link, button, select, text field, summary
// and choice row shown must be at least MIN × MIN CSS px; a radio or checkbox counts by the
// label row that holds it. Each flaw in a sentence (tests/browser.py's `small_taps`).
(MIN) => {
  const flaws = [];
  const shown = (el) => {
    const style = getComputedStyle(el);
    return style.display !== "none" && style.visibility !== "hidden" && el.getClientRects().length > 0;
  };
  const name = (el) => `<${el.tagName.toLowerCase()}> "${(el.textContent || el.getAttribute("name") || "").trim().replace(/\s+/g, " ").slice(0, 30)}"`;
  const targets = document.querySelectorAll("a[href], button, select, input, textarea, summary, label.choice");
  for (const el of targets) {
    if (!shown(el) || el.closest("svg")) continue;
    if (el.tagName === "INPUT" && el.type === "hidden") continue;
    let box = el;
    if (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox")) box = el.closest("label") || el;
    const r = box.getBoundingClientRect();
    if (r.height < MIN - 0.5 || r.width < MIN - 0.5) flaws.push(`${name(box)} is ${Math.round(r.width)}×${Math.round(r.height)} px`);
  }
  return [...new Set(flaws)];
}
