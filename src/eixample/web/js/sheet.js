// On a small screen the decision panel is a sheet fixed to the bottom of the screen; the page
// keeps room under its content for it (CSS variable --sheet-height on <html>).

export function trackSheetHeight(panel) {
  const root = document.documentElement;
  const update = () => {
    const fixed = getComputedStyle(panel).position === "fixed";
    root.style.setProperty("--sheet-height", fixed ? `${Math.ceil(panel.getBoundingClientRect().height)}px` : "0px");
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(update).observe(panel);
  window.addEventListener("resize", update);
  update();
}
