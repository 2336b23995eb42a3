// The ☰ (chapter list) and Contents (page contents) buttons of the course site.
//
// pydata-sphinx-theme 0.17 renders one ☰ and one Contents button in its top bar, and
// sphinx-book-theme 1.3 renders another pair in the article header; both themes' scripts bind
// their handlers to the *first* button of each kind only (document.querySelector), the hidden one
// in the top bar, so that the visible buttons in the article header do nothing (pydata-sphinx-theme
// issue 2451). This script passes a click on any other button of a kind on to the first one,
// where the themes' handlers are: below 992 px it opens the sidebar as a dialog, above it the
// ☰ button shows or hides the chapter list. A click that a theme's own handler has already taken
// stops before it reaches the document, so nothing is passed on twice, and nothing changes once a
// theme binds every button itself.
(() => {
  let forwarding = false;
  document.addEventListener("click", (event) => {
    if (forwarding || !(event.target instanceof Element)) return;
    for (const kind of ["primary-toggle", "secondary-toggle"]) {
      const clicked = event.target.closest(`.${kind}`);
      const bound = document.querySelector(`.${kind}`);
      if (!clicked || !bound || clicked === bound) continue;
      event.preventDefault();
      forwarding = true;
      try {
        bound.click();
      } finally {
        forwarding = false;
      }
      clicked.blur();
      return;
    }
  });
})();
