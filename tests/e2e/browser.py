"""Headless Chromium (Debian's, driven by Playwright) with every non-loopback request
blocked: load a page, wait for its scripts to show some text, take a screenshot, and list
the requests the page made.

The block has two layers: every host name but 127.0.0.1 resolves to nothing, and every
connection goes to a proxy on a port nobody listens on (loopback bypasses it), so neither a
name nor a literal address reaches the network. Which requests left for another host comes
from Chromium's own network log, which sees every request of the page's context (workers
and the browser's calls on the page's behalf included); the browser's background traffic
(update checks and the like) has a context of its own and is not counted.
"""

from __future__ import annotations

import json
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")

# True once the page's visible text holds every label; compared without white space, since a
# UI may break "/todos/{id}" over two elements.
SHOWS_ALL = """labels => {
  const text = (document.body ? document.body.innerText : "").replace(/\\s+/g, "");
  return labels.every(l => text.includes(l.replace(/\\s+/g, "")));
}"""


def chromium() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise AssertionError("Chromium is missing: run scripts/test-tools/chromium.sh")


def dead_port() -> int:
    """A loopback port nobody listens on (bound, then released): the blocking proxy."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Rendered:
    text: str  # the page's visible text when the screenshot was taken
    requests: list[str]  # URLs the page's context asked for (network log), in order
    failed: list[str]  # URLs whose request failed (blocked), as the page saw them
    shown: bool  # every label appeared before the deadline


def offline_args(netlog: Path) -> list[str]:
    return [
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        # The browser's own calls from a page's context (form autofill hints) are not the page's.
        "--disable-features=AutofillServerCommunication",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        f"--proxy-server=http://127.0.0.1:{dead_port()}",
        "--proxy-bypass-list=127.0.0.1",
        f"--log-net-log={netlog}",
    ]


def render(url: str, workdir: Path, screenshot: Path, labels: list[str], timeout_s: float = 90) -> Rendered:
    """Load url offline and wait (up to timeout_s) until its visible text holds every label,
    then screenshot it. A page that never shows them is returned with shown=False once its
    loads have settled and the deadline passed."""
    try:  # imported here: a machine without it fails these tests, not the whole collection
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        raise AssertionError("Playwright is missing: pip install -e '.[test]'") from err
    workdir.mkdir(parents=True, exist_ok=True)
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    netlog = workdir / "netlog.json"
    failed: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=offline_args(netlog))
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("requestfailed", lambda r: failed.append(r.url))
            page.goto(url, wait_until="load", timeout=timeout_s * 1000)
            try:
                page.wait_for_function(SHOWS_ALL, arg=labels, timeout=timeout_s * 1000, polling=250)
                shown = True
            except PlaywrightError:
                shown = False
            text = page.inner_text("body")
            page.screenshot(path=str(screenshot))
        finally:
            browser.close()  # the network log is complete once the browser has exited
    return Rendered(text, page_requests(netlog, url), failed, shown)


def page_requests(netlog: Path, url: str) -> list[str]:
    """The URLs requested on behalf of pages of url's site, from a Chromium network log."""
    log = json.loads(netlog.read_text())
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    site = "http://" + url.split("//", 1)[1].split(":", 1)[0].split("/", 1)[0]
    urls = []
    for event in log["events"]:
        params = event.get("params") or {}
        if names.get(event["type"]) != "URL_REQUEST_START_JOB" or "url" not in params:
            continue
        if str(params.get("network_isolation_key", "")).startswith(site):
            urls.append(params["url"])
    return urls
