"""``make pdf``: the printable course, one PDF per page of notebooks/ and solutions/, from the built site.

Each page of ``book/_build/html`` (``make book``) is opened from disk in the Chromium the browser
test uses and printed as the site's print style has it (``book/_static/dicelab.css``, ``print.js``):
the article alone, every hint and folded cell opened, code wrapped at the margin, figures and
formulas whole, A4, the page's title and "page N of M" at the foot of each page. The PDFs go to
``book/_build/html/pdf/NAME.pdf``, where the ".pdf" entry of each page's download menu leads.

    python book/pdf.py [--site book/_build/html] [NAME ...]     # default: every page
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOOTER = (
    '<div style="font-size: 8px; width: 100%; padding: 0 14mm; color: #555; display: flex;">'
    '<span class="title" style="flex: 1;"></span>'
    '<span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>'
)
WAIT_FOR_MATHJAX_JS = """async () => {
  if (!window.MathJax) return;
  for (let k = 0; k < 200 && !(MathJax.startup && MathJax.startup.promise); k++)
    await new Promise(r => setTimeout(r, 50));
  await MathJax.startup.promise;
}"""


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None
    )
    if not found:
        sys.exit("make pdf needs Chromium: apt-get install chromium (or set CHROMIUM)")
    return found


def pages(site: Path, names: list[str]) -> list[Path]:
    found = sorted(site.glob("notebooks/*.html")) + sorted(site.glob("solutions/*.html"))
    if names:
        found = [p for p in found if p.stem in names]
        missing = sorted(set(names) - {p.stem for p in found})
        if missing:
            sys.exit(f"no page for {', '.join(missing)} in {site} (names are like 04_cosmic_wimpout)")
    return found


def print_pages(site: Path, paths: list[Path]) -> list[str]:
    """Print ``paths`` (pages of ``site``) to ``site/pdf/NAME.pdf`` in one Chromium; their names."""
    from playwright.sync_api import sync_playwright

    out, done = site / "pdf", []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), headless=True)
        context = browser.new_context(viewport={"width": 1100, "height": 1400})
        # a page from disk fetches nothing from the network
        context.route(lambda url: not url.startswith(("file:", "data:", "blob:", "about:")),
                      lambda route: route.abort("blockedbyclient"))
        for page_path in paths:
            page = context.new_page()
            page.set_default_timeout(180_000)
            page.goto(page_path.as_uri(), wait_until="load")
            page.evaluate(WAIT_FOR_MATHJAX_JS)
            page.emulate_media(media="print")
            # print.js opens every <details> on the print event
            page.evaluate("() => { window.dispatchEvent(new Event('beforeprint')); }")
            page.evaluate("document.fonts.ready.then(() => true)")
            page.wait_for_timeout(300)
            target = out / f"{page_path.stem}.pdf"
            page.pdf(path=str(target), format="A4", print_background=True, display_header_footer=True,
                     header_template="<div></div>", footer_template=FOOTER,
                     margin={"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
            page.close()
            done.append(str(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target))
        browser.close()
    return done


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="pages to print (e.g. 04_cosmic_wimpout); default all")
    parser.add_argument("--site", type=Path, default=ROOT / "book" / "_build" / "html")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="Chromiums printing at once (default: one per core)")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        sys.exit(f"no site at {site}: run `make book` first")
    (site / "pdf").mkdir(exist_ok=True)
    todo = pages(site, args.names)
    jobs = max(1, min(args.jobs, len(todo)))
    # the longest pages first, dealt in turn to each job, so that the jobs end together
    todo.sort(key=lambda path: path.stat().st_size, reverse=True)
    shares = [todo[k::jobs] for k in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done in pool.map(print_pages, [site] * jobs, shares):
            print("\n".join(done))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
