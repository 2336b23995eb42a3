"""The built course site in headless Chromium, opened from disk as a reader with no network would.

Every HTML page of ``book/_build/html`` (``make book``) is loaded from ``file://``; a page passes
when it logs no console error, makes no request that fails and none at all that leaves the disk
(anything but ``file:``, ``data:``, ``blob:``), every image has loaded, MathJax has typeset every
formula (no ``Math input error``, no raw ``$...$``, ``\\frac`` or ``\\begin`` left in the text),
and every link to another file of the site, and every ``#anchor``, resolves. Every image has a text
alternative that says what it shows: an ``alt`` that is neither missing, empty, nor a file name or
path (the figure's alt is written where it is made, ``save_figure(..., alt=...)``). axe-core (pinned
from npm by ``make test-browser``, like MathJax) finds no violation of the WCAG 2.1 A and AA rules
on any page, at 1280 px and at 390 px. At 1280 px and at
390 px (a phone) no page is wider than the window, and every display formula either fits its
column or scrolls inside its own box (never clipped at the page's edge); at 390 px a click on ☰
shows the chapter list and a click on Contents the page's contents, a link followed in the
contents closes them (the page it scrolled to is seen), and no tooltip is left on screen; at
1280 px ☰ hides the chapter list and shows it again. Each chapter and solutions page has its
printed handout (``make pdf``), which its download menu's ".pdf" entry links to. Every chapter
shows at least 8 exercises as boxes, visible without
opening anything, each hint a dropdown that opens inside its box without covering the next
exercise; every solutions page restates each exercise in a box; no ``<details>`` sits inside another.

Run by ``make test-browser`` (which builds the book first), not by ``make test``. Chromium is
the system's (``CHROMIUM`` or the first of ``chromium``, ``chromium-browser``,
``google-chrome`` on ``PATH``); Playwright drives it and never downloads a browser of its own.
A screenshot of each page at each width goes to ``BOOK_SHOTS`` (default ``/tmp/book-shots``),
``NAME.png`` at 1280 px and ``NAME@390.png`` at 390 px; ``BOOK_SITE`` checks a site built elsewhere.
"""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -r requirements.txt")

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("BOOK_SITE", ROOT / "book" / "_build" / "html")).resolve()
SHOTS = Path(os.environ.get("BOOK_SHOTS", "/tmp/book-shots"))
LOCAL_SCHEMES = {"file", "data", "blob", "about"}
REDIRECT = re.compile(r'<meta http-equiv="refresh"', re.I)
AXE = ROOT / "book" / "_vendor" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# An alt that only names a file: a path, or a name ending in an image's extension, or a bare hash.
FILE_NAME_ALT = re.compile(r"(^\S*/\S*$)|(\.(png|jpe?g|gif|svg|webp)\s*$)|(^[0-9a-f]{16,}$)", re.I)

# preload: false - axe would fetch each stylesheet again by XMLHttpRequest, which a file:// page refuses
# (its one rule that reads them, css-orientation-lock, then reads the live style sheets only).
AXE_JS = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                          preload: false});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3),
                                      count: v.nodes.length}));
}"""

# LaTeX that MathJax should have replaced: $...$ on one line, $$, or a command typical of math.
RAW_MATH = re.compile(
    r"\$\$|(?<![\w$])\$[^$\s][^$\n]{0,200}?(?<!\s)\$(?![\w$])"  # $$ or $...$
    r"|\\[([]|\\(frac|begin|end|mathbb|sum|binom|cdot|dots|le|ge|approx)\b"  # \( \[ or a command
)

# The text a reader sees as prose and output: code, typeset math and scripts removed.
VISIBLE_TEXT_JS = """() => {
  const clone = document.body.cloneNode(true);
  clone.querySelectorAll('script, style, pre, code, textarea, mjx-container, .MathJax, nav.bd-links, '
                         + '.highlight, .search-button, .bd-search').forEach(e => e.remove());
  return clone.textContent;
}"""

PAGE_FACTS_JS = """() => ({
  images: Array.from(document.images)
               .map(i => ({src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0,
                           alt: i.getAttribute('alt'),
                           decorative: i.getAttribute('role') === 'presentation'})),
  math: document.querySelectorAll('mjx-container').length,
  mathErrors: Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
                  .map(e => e.getAttribute('data-mjx-error') || e.textContent).slice(0, 5),
  title: document.title,
  // the page against the window: nothing may widen it, a formula too wide for its column scrolls
  width: document.documentElement.scrollWidth,
  window: document.documentElement.clientWidth,
  formulas: Array.from(document.querySelectorAll('mjx-container[display="true"]')).map(m => ({
    wide: m.scrollWidth > m.clientWidth + 1,
    scrolls: ['auto', 'scroll'].includes(getComputedStyle(m).overflowX),
    tex: (m.previousElementSibling?.textContent || m.getAttribute('aria-label') || '').slice(0, 60),
  })),
})"""

# Whether a sidebar's links are on screen: laid out, not hidden, at least partly inside the window.
SHOWN_JS = """(selector) => {
  const e = document.querySelector(selector);
  if (!e) return false;
  const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && r.right > 0 && r.left < innerWidth;
}"""
CHAPTER_LIST, PAGE_CONTENTS = "nav.bd-links", "#pst-page-toc-nav"
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}

WAIT_FOR_MATHJAX_JS = """async () => {
  if (!window.MathJax) return 'none';
  for (let k = 0; k < 200 && !(MathJax.startup && MathJax.startup.promise); k++)
    await new Promise(r => setTimeout(r, 50));
  await MathJax.startup.promise;
  return 'typeset';
}"""


def pages() -> list[Path]:
    """Every HTML page of the site (the theme's templates under ``_static`` are not pages)."""
    return sorted(p for p in SITE.rglob("*.html") if "_static" not in p.relative_to(SITE).parts)


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None
    )
    if not found:
        pytest.fail("no Chromium: apt-get install chromium (make test-browser does), or set CHROMIUM")
    return found


@pytest.fixture(scope="module")
def browser():
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no site at {SITE}: run `make book` first")
    if not AXE.is_file():
        pytest.fail(f"no axe-core at {AXE}: run `make test-browser` (it installs it from npm)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), headless=True)
        yield b
        b.close()


def load(browser, page_path: Path, tally, viewport=DESKTOP, act=None, axe=None):
    """Open one page from disk; return its facts and the problems found while loading it.

    ``act(page)``, when given, runs after the page has settled (clicks, say) and returns more problems.
    axe-core runs on the page as it loaded, before ``act`` (by default only when there is no ``act``).
    """
    problems, requests = [], []
    context = browser.new_context(viewport=viewport, java_script_enabled=True)
    context.route(
        lambda url: urlsplit(url).scheme not in LOCAL_SCHEMES, lambda route: route.abort("blockedbyclient")
    )
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url} ({r.failure})"))
    page.set_default_timeout(120_000)  # two shared cores: a long chapter may take a while
    page.goto(page_path.as_uri(), wait_until="load")
    if REDIRECT.search(page_path.read_text()):  # index.html forwards to the course guide
        page.wait_for_url(lambda url: url != page_path.as_uri())
        page.wait_for_load_state("load")
    mathjax = page.evaluate(WAIT_FOR_MATHJAX_JS)
    page.evaluate("document.fonts.ready.then(() => true)")  # web fonts are fetched after layout
    page.wait_for_timeout(250)  # (Playwright's "networkidle" can miss the end of a file:// load)
    facts = page.evaluate(PAGE_FACTS_JS)
    facts["text"] = page.evaluate(VISIBLE_TEXT_JS)
    if act is None if axe is None else axe:  # the page as it loaded, before any click
        page.add_script_tag(path=str(AXE))
        facts["axe"] = page.evaluate(AXE_JS, WCAG_TAGS)
    facts["handout"] = page.evaluate(HANDOUT_JS)
    facts["mathjax"] = mathjax
    facts["final"] = page.url
    name = str(page_path.relative_to(SITE)).replace("/", "__").removesuffix(".html")
    suffix = "" if viewport == DESKTOP else f"@{viewport['width']}"
    page.screenshot(path=str(SHOTS / f"{name}{suffix}.png"))
    if act is not None:
        problems += act(page)
    context.close()
    external = [u for u in requests if urlsplit(u).scheme not in LOCAL_SCHEMES]
    problems += [f"external request: {u}" for u in external]
    if viewport == DESKTOP and facts.get("axe") is not None:  # the tally counts each page once
        tally.counts.update(pages=1, requests=len(requests), external=len(external),
                            failed=sum(p.startswith("failed request") for p in problems))
    return facts, problems


@pytest.mark.parametrize("page_path", pages(), ids=lambda p: str(p.relative_to(SITE)))
def test_page_renders_offline(browser, page_path, tally):
    """The page as loaded at 1280 px; then, on a chapter or solutions page, its printed handout
    (``make pdf``) and its exercise boxes with their hints opened."""
    act = exercise_checks(page_path, tally) if page_path in EXERCISE_PAGES else None
    facts, problems = load(browser, page_path, tally, DESKTOP, act, axe=True)
    if page_path in HANDOUTS:
        problems += handout_problems(page_path, facts["handout"])
    broken = [i["src"] for i in facts["images"] if not i["ok"]]
    problems += [f"image did not load: {src}" for src in broken]
    problems += alt_problems(facts["images"])
    problems += axe_problems(facts, "1280 px")
    problems += [f"MathJax error: {e}" for e in facts["mathErrors"]]
    raw = [m.group(0) for m in RAW_MATH.finditer(facts["text"])]
    problems += [f"math left untypeset: {r!r}" for r in raw[:5]]
    if facts["math"] and facts["mathjax"] != "typeset":
        problems.append("math on the page but no MathJax")
    problems += fits_the_window(facts, "1280 px")
    tally.counts.update(images=len(facts["images"]), math=facts["math"],
                        scrolling_formulas=sum(f["wide"] for f in facts["formulas"]))
    assert not problems, f"{page_path.relative_to(SITE)}:\n  " + "\n  ".join(problems)


def alt_problems(images) -> list[str]:
    """An image needs an alt that says what it shows: not missing, not empty, not a file's name."""
    problems = []
    for i in images:
        alt = (i["alt"] or "").strip()
        name = urlsplit(i["src"]).path.rsplit("/", 1)[-1][:40] if i["src"] else "?"
        if i["decorative"]:
            continue
        if i["alt"] is None:
            problems.append(f"image without alt text: {name}")
        elif not alt:
            problems.append(f"image with an empty alt: {name}")
        elif FILE_NAME_ALT.search(alt):
            problems.append(f"image whose alt is a file name ({alt[:60]!r}): {name}")
    return problems


def axe_problems(facts, where) -> list[str]:
    return [f"axe-core at {where}: {v['id']} ({v['impact']}, {v['count']}×): {v['help']} — {v['nodes']}"
            for v in facts.get("axe", [])]


def fits_the_window(facts, where) -> list[str]:
    """The page is no wider than the window, and a formula too wide for its column scrolls in its box."""
    problems = []
    if facts["width"] > facts["window"]:
        problems.append(f"at {where} the page is {facts['width']} px wide in a {facts['window']} px window")
    clipped = [f["tex"] for f in facts["formulas"] if f["wide"] and not f["scrolls"]]
    problems += [f"at {where} a display formula is clipped at its column's edge: {t!r}" for t in clipped[:5]]
    return problems


def settles(page, target: str, expected: bool, ms: int = 3000) -> bool:
    """Whether `target` ends up shown (or hidden) within `ms`: a sidebar slides, and on a loaded
    machine its transition can outlast a fixed wait."""
    for _ in range(ms // 100):
        if page.evaluate(SHOWN_JS, target) == expected:
            return True
        page.wait_for_timeout(100)
    return page.evaluate(SHOWN_JS, target) == expected


def sidebar_buttons_work(page, viewport) -> list[str]:
    """Click the visible ☰ and Contents buttons as a reader would; each must show its sidebar."""
    problems, where = [], f"{viewport['width']} px"

    def click(kind: str) -> bool:
        buttons = page.locator(f"button.{kind}")
        visible = [buttons.nth(k) for k in range(buttons.count()) if buttons.nth(k).is_visible()]
        if not visible:
            return False
        visible[0].click()
        page.wait_for_timeout(300)
        return True

    has_contents = page.locator(PAGE_CONTENTS).count() > 0
    if viewport == PHONE:
        for kind, target, what in (("primary-toggle", CHAPTER_LIST, "the chapter list"),
                                   ("secondary-toggle", PAGE_CONTENTS, "the page contents")):
            if kind == "secondary-toggle" and not has_contents:
                continue
            if page.evaluate(SHOWN_JS, target):
                problems.append(f"at {where} {what} shows before any click")
            if not click(kind):
                problems.append(f"at {where} there is no visible {kind} button for {what}")
            elif not settles(page, target, True):
                problems.append(f"at {where} a click on the {kind} button does not show {what}")
            page.keyboard.press("Escape")
            if not settles(page, target, False):
                problems.append(f"at {where} Escape does not close {what}")
        if has_contents:
            problems += contents_link_closes(page, where)
    else:
        for expected in (False, True):  # the chapter list: hidden by one click, shown by the next
            if not click("primary-toggle"):
                return [f"at {where} there is no visible ☰ button"]
            if not settles(page, CHAPTER_LIST, expected):
                verb = "show" if expected else "hide"
                problems.append(f"at {where} a click on ☰ does not {verb} the chapter list")
    return problems


TOOLTIPS_JS = """() => Array.from(document.querySelectorAll('.tooltip'))
  .filter(t => t.getClientRects().length && getComputedStyle(t).opacity !== '0').map(t => t.textContent)"""


def axe_at(page, where) -> list[str]:
    page.add_script_tag(path=str(AXE))
    return axe_problems({"axe": page.evaluate(AXE_JS, WCAG_TAGS)}, where)


def contents_link_closes(page, where) -> list[str]:
    """Contents opened by a tap, a link in it followed: the contents close, the link's target is in
    view, and no tooltip stays on screen (one is also looked for after a tap beside the open contents)."""
    problems = []
    for close in ("link", "backdrop"):
        button = next((b for b in page.locator("button.secondary-toggle").all() if b.is_visible()), None)
        if button is None:
            return [f"at {where} there is no visible Contents button"]
        button.click()
        page.wait_for_timeout(300)
        links = page.locator(f"{PAGE_CONTENTS} a[href^='#']")
        if close == "link":
            if links.count() == 0:
                return [f"at {where} the contents hold no link"]
            link = links.nth(min(2, links.count() - 1))
            anchor = unquote(link.get_attribute("href")[1:])
            link.click()
        else:
            page.mouse.click(20, 700)  # outside the panel, which opens on the right
        page.wait_for_timeout(800)
        page.mouse.move(5, 5)
        if page.evaluate(SHOWN_JS, PAGE_CONTENTS):
            problems.append(f"at {where} the contents stay open after a {close} is clicked")
        if close == "link":
            top = page.evaluate("(id) => document.getElementById(id)?.getBoundingClientRect().top", anchor)
            if top is None or not -5 <= top < 844 / 2:
                problems.append(f"at {where} the contents' link to #{anchor} leaves it out of view "
                                f"(top {top})")
        tips = page.evaluate(TOOLTIPS_JS)
        if tips:
            problems.append(f"at {where} a tooltip stays on screen after the contents close: {tips}")
    return problems


@pytest.mark.parametrize("page_path", pages(), ids=lambda p: str(p.relative_to(SITE)))
def test_page_on_a_phone(browser, page_path, tally):
    """At 390 px: the page fits the window, and ☰ and Contents open their sidebars."""
    facts, problems = load(browser, page_path, tally, PHONE, lambda page: axe_at(page, "390 px")
                           + sidebar_buttons_work(page, PHONE))
    problems += fits_the_window(facts, "390 px")
    tally.counts.update(phone_pages=1)
    assert not problems, f"{page_path.relative_to(SITE)}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", ["notebooks/00_course_guide.html", "notebooks/01_efron_dice.html"])
def test_chapter_list_button_on_a_desktop(browser, name, tally):
    """At 1280 px: ☰ hides the chapter list, and shows it again."""
    _, problems = load(browser, SITE / name, tally, DESKTOP, lambda page: sidebar_buttons_work(page, DESKTOP))
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


class _Anchors(HTMLParser):
    """The ids of a page and the targets of its links, as the built HTML holds them."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        if tag == "a" and found.get("name"):
            self.ids.add(found["name"])
        if tag == "a" and found.get("href"):
            self.links.append(found["href"])


def test_internal_links_resolve(tally):
    """Every link to a file of the site exists, every ``#anchor`` an id on its page. Read from the
    built pages themselves (the site's scripts add no link but the handout's, checked with its page),
    so the check is whole whichever worker runs it."""
    ids, links = {}, []
    for path in pages():
        found = _Anchors()
        found.feed(path.read_text(errors="replace"))
        ids[path] = found.ids
        links += [(path, urljoin(path.as_uri(), href)) for href in found.links]
    missing = []
    for source, href in links:
        parts = urlsplit(href)
        if parts.scheme != "file":
            continue
        target = Path(unquote(parts.path))
        tally.counts["links"] += 1
        if not target.exists():
            missing.append(f"{source.relative_to(SITE)} -> {href} (no such file)")
        elif parts.fragment and target.suffix == ".html":
            on_page = ids.get(target)
            if on_page is not None and unquote(parts.fragment) not in on_page:
                missing.append(f"{source.relative_to(SITE)} -> {href} (no such anchor)")
    assert tally.counts["links"] > 100, "the site's pages hold almost no internal link"
    assert not missing, "broken internal links:\n  " + "\n  ".join(sorted(set(missing)))


def test_every_chapter_and_solution_is_on_the_site():
    """The table of contents leaves no notebook out: each one of notebooks/ and solutions/ has its page."""
    sources = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("solutions/*.ipynb"))
    absent = [str(p.relative_to(ROOT)) for p in sources
              if not (SITE / p.relative_to(ROOT)).with_suffix(".html").is_file()]
    assert not absent, f"not in the book (add them to book/_toc.yml): {absent}"


# --------------------------------------------------------------------------- exercises
EXERCISE = 'div.admonition[class*="admonition-exercise-"]'
EXERCISE_PAGES = sorted(SITE.glob("notebooks/0[1-9]_*.html")) + sorted(SITE.glob("solutions/*.html"))

EXERCISES_JS = """(selector) => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return {top: r.top + scrollY, bottom: r.bottom + scrollY};
  };
  const shown = e => e.getClientRects().length > 0 && !e.closest('details:not([open])');
  const blocks = Array.from(document.querySelectorAll(selector));
  return {
    blocks: blocks.map(b => ({title: b.querySelector('.admonition-title')?.textContent.trim() || '',
                              shown: shown(b), ...box(b),
                              hints: Array.from(b.querySelectorAll('details')).map(d => ({
                                  open: d.open, dropdown: d.classList.contains('sd-dropdown'),
                                  ...box(d)}))})),
    // a <details> inside another's summary or content: HTML swallowed by a hint that never closed
    nested: Array.from(document.querySelectorAll('details details, summary details'))
                 .map(d => d.textContent.trim().slice(0, 60)),
  };
}"""


def exercise_checks(page_path: Path, tally):
    """The check of a page's exercises, run by test_page_renders_offline once axe-core has read the
    page: each chapter shows at least 8 exercises as boxes, visible without opening anything, each with its
    hint as a dropdown that, opened, stays inside its exercise's box; a solutions page restates each
    exercise in a box above its solution. No <details> sits inside another."""

    def open_hints(page) -> list[str]:
        before = page.evaluate(EXERCISES_JS, EXERCISE)
        page.evaluate("(s) => document.querySelectorAll(s + ' details').forEach(d => { d.open = true; })",
                      EXERCISE)
        page.wait_for_timeout(300)
        after = page.evaluate(EXERCISES_JS, EXERCISE)
        problems = [f"a <details> inside another: {t!r}" for t in before["nested"]]
        blocks = before["blocks"]
        chapter = page_path.parent.name == "notebooks"
        if len(blocks) < 8:
            problems.append(f"{len(blocks)} exercise boxes, at least 8 expected")
        problems += [f"exercise hidden until something is opened: {b['title']!r}"
                     for b in blocks if not b["shown"]]
        for b in blocks:
            hints = b["hints"]
            if chapter and (len(hints) != 1 or not hints[0]["dropdown"] or hints[0]["open"]):
                problems.append(f"{b['title']!r}: one closed hint dropdown expected, got {hints}")
            if not chapter and hints:
                problems.append(f"{b['title']!r}: a solutions page restates the exercise without its hint")
        for b, nxt in zip(after["blocks"], after["blocks"][1:], strict=False):
            if nxt["top"] < b["bottom"] - 1 or not nxt["shown"]:
                problems.append(f"the opened hint of {b['title']!r} covers {nxt['title']!r}")
            for h in b["hints"]:
                if not h["open"] or h["bottom"] > b["bottom"] + 1:
                    problems.append(f"the hint of {b['title']!r} does not open inside its box")
        tally.counts.update(exercises=len(blocks) if chapter else 0, restated=0 if chapter else len(blocks))
        return problems

    return open_hints


# --------------------------------------------------------------------------- printed handouts
HANDOUTS = sorted(SITE.glob("notebooks/*.html")) + sorted(SITE.glob("solutions/*.html"))


HANDOUT_JS = "() => document.querySelector('a.btn-download-pdf-button')?.href || null"


def handout_problems(page_path: Path, href) -> list[str]:
    """``make pdf`` printed the page (a PDF of at least one page); the download menu's ".pdf" links to it."""
    pdf = SITE / "pdf" / f"{page_path.stem}.pdf"
    if not pdf.is_file():
        return [f"no {pdf.relative_to(SITE)}: run `make pdf`"]
    data = pdf.read_bytes()
    if not (data.startswith(b"%PDF-") and re.search(rb"/Type\s*/Page\b", data)):
        return [f"{pdf.name}: no PDF pages"]
    if href is None:
        return ["the download menu has no link to the printed handout"]
    target = Path(unquote(urlsplit(href).path))
    return [] if target == pdf else [f"the download menu's .pdf leads to {href}, not {pdf}"]
