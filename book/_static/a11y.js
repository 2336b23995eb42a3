// What the themes leave for a screen reader and a phone, put right once the page is drawn.
//
// 1. Names that contain what is seen (WCAG 2.1, 2.5.3 "Label in Name"): the search button reads
//    "Search Ctrl+K" but was named "Search"; each folded code cell's summary reads "Show code cell
//    content" but was named "Toggle hidden content"; the colour-mode button's icons carry titles
//    ("Light", "Dark") that are not its name. The first two are named by their text, the icons of
//    the third are marked as decoration, their titles dropped (the button keeps its name, "Color mode",
//    and its tooltip).
// 2. On a phone the chapter list and the page's contents open as a dialog; following a link in
//    it closes the dialog, so that the page it scrolled to is seen.
// 3. Closing such a dialog by a tap gives the focus back to its button, whose tooltip then stayed
//    on screen (on a phone nothing ever hovers out of it): the button lets the focus go.
(() => {
  const fixNames = () => {
    document.querySelectorAll(".search-button-field[aria-label], details.hide > summary[aria-label]")
      .forEach((e) => e.removeAttribute("aria-label"));
    document.querySelectorAll(".theme-switch-button svg, .theme-switch-button i").forEach((icon) => {
      icon.setAttribute("aria-hidden", "true");
      icon.removeAttribute("role");
      icon.removeAttribute("aria-labelledby");
      icon.removeAttribute("title");
      icon.querySelectorAll("title").forEach((t) => t.remove());
    });
  };
  fixNames();
  document.addEventListener("DOMContentLoaded", fixNames);
  window.addEventListener("load", fixNames);
  // Font Awesome draws its icons (SVG replacing <i>) after the page has loaded, and again when the
  // colour mode changes: name them as they come.
  new MutationObserver((changes) => {
    if (changes.some((c) => c.target instanceof Element &&
                            c.target.closest(".theme-switch-button, .search-button-field, details.hide"))) fixNames();
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true,
                                         attributeFilter: ["aria-label", "role", "aria-labelledby"] });

  // After a tap or a click the dialog's button lets the focus go and its tooltip is removed; after
  // the keyboard's Escape the focus stays on the button (a keyboard user goes on from there).
  let pointer = false;
  document.addEventListener("pointerdown", () => { pointer = true; }, true);
  document.addEventListener("keydown", () => { pointer = false; }, true);
  const letGo = () => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.closest(".primary-toggle, .secondary-toggle")) active.blur();
    document.querySelectorAll(".tooltip").forEach((t) => t.remove());
  };
  // a dialog's "close" event does not bubble: listen in the capture phase
  document.addEventListener("close", (event) => {
    if (event.target instanceof HTMLDialogElement && pointer) setTimeout(letGo, 0);
  }, true);
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("dialog[open] a[href]");
    if (!link) return;
    link.closest("dialog").close();
    // the page scrolled while the dialog held it still: scroll to the link's target again
    const url = new URL(link.href, location.href);
    if (url.hash && url.pathname === location.pathname) {
      const target = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (target) setTimeout(() => target.scrollIntoView(), 0);
    }
  });
})();
