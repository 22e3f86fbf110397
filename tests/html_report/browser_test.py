#!/usr/bin/env python3
"""The HTML report in a real browser (Debian's chromium, headless, through chromedriver).

Makes two reports with the real tool: a failing run (markup_plugin: memcpy_dtoh fails with a
status message and output full of markup) and a passing run (the reference plugin, default
tiers, with a plugin_bench chart). For each, loaded from file://, it checks the DOM against
the JSON report of the same run (every check id has its row; the outcome and tier filters
show exactly the rows the JSON predicts), that the browser logged no error and fetched
nothing, and saves screenshots next to the reports. Also: plugin markup stays text, and the
passing report is under 1.5 MiB (1 MiB until the recorded oracle's generated cells took the
reference plugin's default run to 1013 checks, 1.16 MiB; rendering passing checks' details on
demand would bring it back).

Standard library only: a minimal WebDriver client over urllib.
Usage: browser_test.py --tool PLUGIN_CONFORMANCE --bench-tool PLUGIN_BENCH
                       --reference REF.so --defect MARKUP.so --out DIR
"""
import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1400,1000",
]
MAX_REPORT_BYTES = 3 << 19  # 1.5 MiB
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


class WebDriver:
    """The few W3C WebDriver commands the test needs."""

    def __init__(self, driver_path, chromium_path, user_data_dir, log_path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(
            [driver_path, "--port=%d" % self.port], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = "http://127.0.0.1:%d" % self.port
        deadline = time.time() + 30
        while True:
            try:
                self._request("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("chromedriver did not start; see " + log_path)
                time.sleep(0.2)
        capabilities = {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium_path,
                                   "args": CHROMIUM_FLAGS + ["--user-data-dir=" + user_data_dir]},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}
        self.session = self._request("POST", "/session", {"capabilities": capabilities})["sessionId"]

    def _request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            raise RuntimeError("WebDriver %s %s: %s" % (method, path, error.read().decode()))
        if isinstance(answer.get("value"), dict) and "sessionId" in answer["value"]:
            return answer["value"]
        return answer.get("value")

    def command(self, method, path, body=None):
        return self._request(method, "/session/%s%s" % (self.session, path), body)

    def open(self, url):
        self.command("POST", "/url", {"url": url})

    def script(self, source, *args):
        return self.command("POST", "/execute/sync", {"script": source, "args": list(args)})

    def find(self, css):
        element = self.command("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(element.values()))

    def click(self, css):
        self.command("POST", "/element/%s/click" % self.find(css), {})

    def screenshot(self, path, css=None):
        if css is None:
            png = self.command("GET", "/screenshot")
        else:
            png = self.command("GET", "/element/%s/screenshot" % self.find(css))
        with open(path, "wb") as out:
            out.write(base64.b64decode(png))
        print("screenshot: " + path)

    def browser_log(self):
        for path in ("/se/log", "/log"):
            try:
                return self.command("POST", path, {"type": "browser"})
            except RuntimeError:
                continue
        raise RuntimeError("chromedriver serves no browser log")

    def quit(self):
        try:
            self._request("DELETE", "/session/" + self.session)
        finally:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.log.close()


def run_tool(command, expected_codes, log_path):
    with open(log_path, "w") as log:
        code = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, timeout=900)
    check(code in expected_codes, "%s exited %d, expected %s (see %s)"
          % (" ".join(command), code, expected_codes, log_path))


VISIBLE_ROWS = """
return Array.prototype.filter.call(document.querySelectorAll('tr.check'),
    function (row) { return row.getClientRects().length > 0; }).length;"""


def check_filters(driver, report, name):
    results = report["results"]
    rows = driver.script("return document.querySelectorAll('tr.check').length;")
    check(rows == len(results), "%s: %d rows for %d results" % (name, rows, len(results)))
    missing = driver.script(
        "return arguments[0].filter(function (id) {"
        " return document.getElementById('check-' + id) === null; });",
        [r["id"] for r in results])
    check(not missing, "%s: no row for %s" % (name, missing[:5]))
    check(driver.script(VISIBLE_ROWS) == len(results), "%s: not every row shown at first" % name)

    # Outcome filter, by clicking: keep only one outcome, for each outcome the run has.
    outcomes = sorted({r["outcome"] for r in results})
    for outcome in outcomes:
        driver.click("#show-all")
        for other in outcomes:
            if other != outcome:
                driver.click('input[name="outcome"][value="%s"]' % other)
        expected = sum(1 for r in results if r["outcome"] == outcome)
        shown = driver.script(VISIBLE_ROWS)
        check(shown == expected, "%s: outcome filter '%s' shows %d rows, the JSON has %d"
              % (name, outcome, shown, expected))
    driver.click("#show-all")

    # Tier filter, by choosing each option of the select.
    tiers = {}
    for r in results:
        tier = r.get("tier") or r["id"].split(".")[0]
        tiers[tier] = tiers.get(tier, 0) + 1
    check(len(tiers) >= 1, "%s: no tiers" % name)
    for tier, expected in tiers.items():
        driver.click('#tier-filter option[value="%s"]' % tier)
        shown = driver.script(VISIBLE_ROWS)
        check(shown == expected, "%s: tier filter '%s' shows %d rows, the JSON has %d"
              % (name, tier, shown, expected))
    driver.click('#tier-filter option[value=""]')
    check(driver.script(VISIBLE_ROWS) == len(results), "%s: 'all tiers' does not show all" % name)


def check_isolated(driver, name):
    resources = driver.script("return performance.getEntriesByType('resource').map("
                              "function (e) { return e.name; });")
    check(resources == [], "%s: the page requested %s" % (name, resources))
    policy = driver.script("var m = document.querySelector("
                           "'meta[http-equiv=\"Content-Security-Policy\"]');"
                           "return m ? m.content : '';")
    check("default-src 'none'" in policy, "%s: no Content-Security-Policy meta tag" % name)
    errors = [entry for entry in driver.browser_log() if entry.get("level") == "SEVERE"]
    check(errors == [], "%s: browser errors %s" % (name, errors))


def check_markup_stays_text(driver, name):
    check(driver.script("return window.__markup_plugin_ran === undefined;"),
          "%s: the plugin's <script> ran" % name)
    check(driver.script("return document.getElementById('markup-plugin-cell') === null;"),
          "%s: the plugin's </td> opened a cell of its own" % name)
    check(driver.script("return document.scripts.length;") == 1,
          "%s: the page has more than its own script" % name)
    check(driver.script("return document.body.textContent.indexOf("
                        "'<script>window.__markup_plugin_ran = 1;</script>') >= 0;"),
          "%s: the plugin's message is not shown as text" % name)


def inspect(driver, html_path, json_path, name, out_dir):
    with open(json_path) as f:
        report = json.load(f)
    driver.open("file://" + os.path.abspath(html_path))
    driver.browser_log()  # drop what came before this page
    driver.open("file://" + os.path.abspath(html_path))
    driver.screenshot(os.path.join(out_dir, name + "_top.png"))
    check_filters(driver, report, name)
    check_isolated(driver, name)
    return report


def main():
    parser = argparse.ArgumentParser()
    for option in ("--tool", "--bench-tool", "--reference", "--defect", "--out"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if not chromium or not driver_path:
        print("FAIL: the browser test needs Debian's chromium and chromium-driver, which are not "
              "installed; run .ci/bootstrap (as root) to install them, as CI does")
        return 1
    out = args.out
    os.makedirs(out, exist_ok=True)

    # The reports, made by the real tools.
    bench = os.path.join(out, "bench.json")
    with open(bench, "w") as f, open(os.path.join(out, "bench.log"), "w") as log:
        code = subprocess.call([args.bench_tool, args.reference, "--benchmark_min_time=0.001",
                                "--benchmark_filter=memcpy/(host_memcpy|htod_async|dtoh_async|"
                                "dtod_async)/", "--benchmark_format=json"],
                               stdout=f, stderr=log, timeout=600)
    check(code == 0, "plugin_bench exited %d (see bench.log)" % code)
    passing_html, passing_json = (os.path.join(out, "passing." + e) for e in ("html", "json"))
    failing_html, failing_json = (os.path.join(out, "failing." + e) for e in ("html", "json"))
    run_tool([args.tool, args.reference, "--html", passing_html, "--json", passing_json,
              "--bench", bench], [0], os.path.join(out, "passing.log"))
    run_tool([args.tool, args.defect, "--html", failing_html, "--json", failing_json], [1],
             os.path.join(out, "failing.log"))
    if failures:
        return 1
    size = os.path.getsize(passing_html)
    print("passing report: %d bytes" % size)
    check(size < MAX_REPORT_BYTES, "the reference plugin's report is %d bytes (limit 1.5 MiB)" % size)

    profile = tempfile.mkdtemp(prefix="html_report_chromium_")
    driver = WebDriver(driver_path, chromium, profile, os.path.join(out, "chromedriver.log"))
    try:
        failing = inspect(driver, failing_html, failing_json, "failing", out)
        check(not failing["conformant"], "the failing run is conformant")
        check(driver.script("return document.getElementById('root-causes') !== null;"),
              "failing: no root cause section")
        check_markup_stays_text(driver, "failing")
        driver.click("#show-problems")
        driver.script("document.getElementById('checks').scrollIntoView();")
        driver.screenshot(os.path.join(out, "failing_problems.png"))

        passing = inspect(driver, passing_html, passing_json, "passing", out)
        check(passing["conformant"], "the passing run is not conformant")
        check(driver.script("return document.querySelectorAll("
                            "'#bandwidth svg .series').length;") >= 3,
              "passing: the bandwidth chart has fewer than 3 series")
        if passing.get("op_coverage"):
            check(driver.script("return document.getElementById('op-coverage-table') !== null;"),
                  "passing: the JSON has op coverage, the page has no table")
        driver.screenshot(os.path.join(out, "passing_bandwidth.png"), "#bandwidth")
        check_isolated(driver, "passing, after the chart")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        print("%d browser check(s) failed" % len(failures))
        return 1
    print("all browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
