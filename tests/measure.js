// What is wrong on the page shown, each in a sentence (tests/browser.py runs it in the page).
// Text is measured as drawn: an HTML element by its computed font size, an SVG text by its
// font size times the scale from its user units to the screen (getScreenCTM).
(SMALLEST) => {
  const flaws = [];
  const width = window.innerWidth;
  const root = document.scrollingElement || document.documentElement;
  // a picture opened on its own (map.svg) is drawn at its own size, to be moved about like a map
  const picture = document.documentElement instanceof SVGElement;
  if (!picture && root.scrollWidth > width + 1) flaws.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${width}`);
  const name = (el) => {
    const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.className && el.className.baseVal === undefined && el.className ? "." + String(el.className).split(" ")[0] : ""}> "${text}"`;
  };
  const scrolls = (el) => {
    const style = getComputedStyle(el);
    return style.overflowX === "auto" || style.overflowX === "scroll" || style.overflowX === "hidden" || style.overflowX === "clip";
  };
  for (const table of document.querySelectorAll("table")) {
    if (!table.getClientRects().length) continue;
    if (table.scrollWidth > table.clientWidth + 1) flaws.push(`${name(table)} is cut off: ${table.scrollWidth} px in ${table.clientWidth}`);
    let box = table.parentElement;
    while (box && box !== document.body && !scrolls(box)) box = box.parentElement;
    const room = box && box !== document.body ? box.clientWidth : width;
    const wide = table.getBoundingClientRect().width;
    if (wide > room + 1) flaws.push(`table ${name(table.tHead || table)} is ${Math.round(wide)} px wide in ${room}: cut off`);
    for (const cell of table.querySelectorAll("th, td")) {
      if (cell.scrollWidth > cell.clientWidth + 1) flaws.push(`cell ${name(cell)} is cut off`);
    }
  }
  const skip = new Set(["SCRIPT", "STYLE", "TITLE", "HEAD", "NOSCRIPT", "title", "style", "desc", "defs", "pattern"]);
  const hidden = (el) => { for (let e = el; e; e = e.parentElement) if (skip.has(e.tagName)) return true; return false; };
  const seen = new Set();
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || seen.has(el) || hidden(el)) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || !el.getClientRects().length) continue;
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) {
      const m = el.getScreenCTM();
      if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    if (size < SMALLEST - 0.01) flaws.push(`${name(el)} is drawn at ${size.toFixed(1)} px`);
  }
  return flaws;
}
