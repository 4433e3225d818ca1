"""Headless Chromium driven through Selenium and Debian's chromedriver.

Why Selenium + chromedriver: Debian builds `chromium` and `chromium-driver`
from one source package, so the driver always speaks the browser's exact
version; Selenium is a pure-Python wheel and, given the driver's path, never
downloads anything (Playwright pins its own browser build and ships a Node
runtime, and drives another build only on a best-effort basis).
"""
from __future__ import annotations

import base64
import os
import shutil
import time
from pathlib import Path

CHROMIUM = os.environ.get("DELVE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("DELVE_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_S = 20.0  # the longest any page may take to show what a test waits for

# Recorded in the page before any script runs: uncaught errors, rejected
# promises and console.error calls, and every fetch that failed or was refused.
PROBE = """
window.__delve = {errors: [], failed: []};
addEventListener('error', (e) => __delve.errors.push('error: ' + e.message));
addEventListener('unhandledrejection', (e) => __delve.errors.push('unhandled: ' + (e.reason && e.reason.message || e.reason)));
const consoleError = console.error.bind(console);
console.error = (...args) => { __delve.errors.push('console: ' + args.map(String).join(' ')); consoleError(...args); };
const realFetch = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  try {
    const resp = await realFetch(input, init);
    if (!resp.ok) __delve.failed.push({url, status: resp.status});
    return resp;
  } catch (err) {
    if (!(err && err.name === 'AbortError')) __delve.failed.push({url, status: 0, error: String(err)});
    throw err;
  }
};
"""


# With ``Browser(record=True)``: every API response body the page receives, as it arrives
# (streams too), kept as [url, text] chunks in window.__delve.bodies, so a test can look for
# what a page must never have been sent.
RECORDER = """
window.__delve.bodies = [];
const probedFetch = window.fetch;
window.fetch = async (input, init) => {
  const resp = await probedFetch(input, init);
  const url = typeof input === 'string' ? input : input.url;
  if (!resp.body) return resp;
  const [mine, copy] = resp.body.tee();
  (async () => {
    const reader = copy.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      let part;
      try { part = await reader.read(); } catch { return; }
      if (part.done) return;
      __delve.bodies.push([url, decoder.decode(part.value, {stream: true})]);
    }
  })();
  return new Response(mine, {status: resp.status, statusText: resp.statusText, headers: resp.headers});
};
"""


def missing() -> str | None:
    """Why no browser test can run here, or None when Chromium and its driver are installed."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (Path(path).exists() or shutil.which(path)):
            return f"{path} not found: install Debian's {package} (`.ci/run` does when it runs as root)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is missing: pip install -e '.[test]'"
    return None


class Browser:
    """One headless Chromium for a test module; pages are opened with ``open``."""

    def __init__(self, width: int = 1400, height: int = 1000, record: bool = False, mobile: bool = False):
        """``mobile``: a phone's page, as Chromium's device mode makes it (a mobile viewport of
        ``width`` x ``height`` CSS pixels at twice the density, touch, the page's viewport meta obeyed)."""
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-extensions", "--no-first-run", "--hide-scrollbars", f"--window-size={width},{height}"):
            options.add_argument(arg)
        if mobile:
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                                   "pixelRatio": 2.0, "touch": True}})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(WAIT_S)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE + (RECORDER if record else "")})

    def fresh_tab(self) -> "Browser":
        """A new tab in place of the old one: nothing carries over (sessionStorage holds seat
        tokens per tab), and the old tab's log lines are dropped."""
        old = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        fresh = self.driver.current_window_handle
        self.driver.switch_to.window(old)
        self.driver.close()
        self.driver.switch_to.window(fresh)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
        self.driver.get_log("browser")
        return self

    def open(self, url: str) -> "Browser":
        self.driver.get(url)
        return self

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, script: str, *args, what: str = "", timeout: float = WAIT_S):
        """Poll a JS expression (``return ...``) until it is truthy; return its value.

        Bounded: fails with the page's problems after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or script}; page problems: {self.problems()}; "
                                     f"message: {self.text('#message')!r}")
            time.sleep(0.1)

    def count(self, css: str) -> int:
        return self.js("return document.querySelectorAll(arguments[0]).length", css)

    def text(self, css: str) -> str:
        return self.js("const el = document.querySelector(arguments[0]); return el ? el.textContent : ''", css)

    def texts(self, css: str) -> list[str]:
        return self.js("return [...document.querySelectorAll(arguments[0])].map((el) => el.textContent)", css)

    def click(self, css: str) -> None:
        self.js("document.querySelector(arguments[0]).click()", css)

    def problems(self) -> dict:
        """What went wrong in the page: script errors, failed requests, and the browser's own
        severe log lines (a 404 for an asset, a CSP refusal...)."""
        probe = self.js("return window.__delve || {errors: ['the probe did not run'], failed: []}")
        severe = [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        return {"errors": probe["errors"], "failed": probe["failed"], "log": severe}

    def screenshot(self, path: Path, css: str | None = None) -> None:
        """A PNG of the whole page (the window grows to its height), or of one element."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if css:
            self.driver.find_element("css selector", css).screenshot(str(path))
            return
        height = self.js("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")
        width = self.js("return window.innerWidth")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": min(int(height), 4000), "deviceScaleFactor": 1,
                                     "mobile": False})
        try:
            data = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self.driver.quit()
