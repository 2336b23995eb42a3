// Printing a page of the course (and `make pdf`, which prints each page with Chromium): every
// hint and every folded cell opens for the paper, and closes again once printed. The ".pdf"
// entry of the download menu, which ran the browser's print dialog, leads to the page's printed
// handout instead, pdf/NAME.pdf beside the site (written by `make pdf`).
(() => {
  let opened = [];
  window.addEventListener("beforeprint", () => {
    opened = Array.from(document.querySelectorAll("details:not([open])"));
    opened.forEach((d) => { d.open = true; });
  });
  window.addEventListener("afterprint", () => {
    opened.forEach((d) => { d.open = false; });
    opened = [];
  });

  const handout = () => {
    const root = new URL(document.documentElement.dataset.content_root || "./", location.href);
    const page = decodeURIComponent(location.href.slice(root.href.length)).split(/[?#]/)[0];
    const match = page.match(/^(notebooks|solutions)\/([^/]+)\.html$/);
    const button = document.querySelector("button.btn-download-pdf-button");
    if (!match || !button) return;
    const link = document.createElement("a");
    link.href = new URL(`pdf/${match[2]}.pdf`, root).href;
    link.className = button.className;
    link.title = "The printable handout of this page (PDF)";
    link.innerHTML = button.innerHTML;
    for (const name of ["data-bs-placement", "data-bs-toggle"]) {
      if (button.hasAttribute(name)) link.setAttribute(name, button.getAttribute(name));
    }
    button.replaceWith(link);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", handout);
  else handout();
})();
