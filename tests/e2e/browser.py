"""Headless Chromium with every non-loopback request blocked: render a page, dump its DOM
after the scripts ran, take a screenshot, and list the requests the page made.

The block has two layers: every host name but 127.0.0.1 resolves to nothing, and every
connection goes to a proxy on a port nobody listens on (loopback bypasses it), so neither a
name nor a literal address reaches the network. The requests come from Chromium's own
network log: the page's are the ones in the page's network isolation key (the browser's
background traffic - update checks and the like - has its own).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


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
    dom: str  # the document after the page's scripts ran
    requests: list[str]  # URLs the page asked for, in order


def offline_flags(profile: Path, netlog: Path) -> list[str]:
    return [
        "--headless",
        "--no-sandbox",  # the test machine runs as root
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        # The browser's own calls from a page's context (form autofill hints) are not the page's.
        "--disable-features=AutofillServerCommunication",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        f"--proxy-server=http://127.0.0.1:{dead_port()}",
        "--proxy-bypass-list=127.0.0.1",
        f"--log-net-log={netlog}",
        "--window-size=1280,900",
    ]


def render(url: str, workdir: Path, screenshot: Path, budget_ms: int = 20000, timeout: float = 180) -> Rendered:
    """Load url offline; returns the DOM and the page's requests and writes a PNG screenshot.

    --virtual-time-budget lets the page's scripts and timers run (virtual time stands still
    while a fetch is pending) before the DOM is dumped and the screenshot taken.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    netlog = workdir / "netlog.json"
    flags = offline_flags(workdir / "profile", netlog)
    run = [chromium(), *flags, f"--virtual-time-budget={budget_ms}"]
    dom = subprocess.run([*run, "--dump-dom", url], capture_output=True, text=True, timeout=timeout, check=False)
    assert dom.returncode == 0, f"chromium failed ({dom.returncode}):\n{dom.stderr[-3000:]}"
    requests = page_requests(netlog, url)
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    shot = subprocess.run(
        [*run, f"--screenshot={screenshot}", url], capture_output=True, text=True, timeout=timeout, check=False
    )
    assert shot.returncode == 0 and screenshot.is_file(), f"no screenshot:\n{shot.stderr[-3000:]}"
    return Rendered(dom.stdout, requests)


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
