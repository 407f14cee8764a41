"""The dashboard (``deploy/grafana/``) and the alert rules (``deploy/alerts.yml``) ask only for series the bot
exports: every PromQL expression's metric names, checked against a live scrape of a running bot's ``/metrics``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.monitor import metrics_server
from tests.e2e.conftest import running_bot
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.scrape import Families, scrape
from tests.ports import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "domino.json"
ALERTS = DEPLOY / "alerts.yml"
PROMETHEUS_OWN = frozenset({"up"})
"""Series Prometheus makes itself (an alert may ask whether a worker answers)."""
KEYWORDS = frozenset(
    {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "inf",
     "nan"}
)  # fmt: skip
SERIES_OF_TYPE = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_count", "_sum"),
    "summary": ("", "_count", "_sum"),
    "gauge": ("",),
}
"""The series a family of each type exports, by suffix to its name (a counter's family name lacks ``_total``)."""


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects: not its strings, label matchers, ranges, grouping labels,
    functions, aggregations, keywords or numbers."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for found in re.finditer(r"(?<![\w.$:])([A-Za-z_:][\w:]*)(?![\w:])(?!\s*\()", text):
        if found[1].lower() not in KEYWORDS:
            names.add(found[1])
    return names


def exported(families: Families) -> set[str]:
    """Every series name the scrape's families export."""
    return {family.name + suffix for family in families.values() for suffix in SERIES_OF_TYPE[family.type]}


def dashboard_exprs(dashboard: dict[str, Any]) -> list[str]:
    """Every ``expr`` of the dashboard's panels (and of panels inside rows)."""
    panels = [*dashboard["panels"], *(p for row in dashboard["panels"] for p in row.get("panels", []))]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def alert_exprs() -> list[str]:
    """Every ``expr:`` of the alert rules (one line each)."""
    return re.findall(r"^\s*expr:\s*(.+)$", ALERTS.read_text(encoding="utf-8"), flags=re.M)


class TestNames:
    """The check of names finds what it should, and nothing else."""

    def test_found(self) -> None:
        expr = (
            'histogram_quantile(0.99, sum by (le, kind) (rate(domino_handler_seconds_bucket{kind="message",'
            'le!="+Inf"}[$__rate_interval]))) / on (kind) group_left max(domino_active_matches offset 5m) > 2e3 '
            'and sum without (process) (rate(domino_updates_total{result=~"ok|x"}[5m])) or vector(0)'
        )
        assert metric_names(expr) == {"domino_handler_seconds_bucket", "domino_active_matches", "domino_updates_total"}


class TestDashboard:
    async def test_every_name_exported(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The dashboard is valid JSON with a panel per figure the operator watches, its data source the
        provisioned one; each name its expressions and the alert rules use is a series a running bot's
        ``/metrics`` serves."""
        dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
        titles = {panel["title"] for panel in dashboard["panels"]}
        assert {"Presses a second", "Handler time p50 / p99", "Telegram 429s", "Screens lag", "Active matches",
                "Jobs late"} <= titles  # fmt: skip
        exprs = dashboard_exprs(dashboard)
        assert len(exprs) >= 12
        assert all(p["datasource"]["uid"] == "prometheus" for p in dashboard["panels"])
        assert "uid: prometheus" in (DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yml").read_text()
        rules = alert_exprs()
        assert len(rules) == 5

        port = free_port()
        async with running_bot(fake, prefix) as app, metrics_server(app.exposition.page, "127.0.0.1", port):
            families = await scrape(f"http://127.0.0.1:{port}/metrics")
        series = exported(families)
        used = {name for expr in exprs for name in metric_names(expr)}
        assert used and all(name.startswith("domino_") for name in used)
        assert used <= series, sorted(used - series)
        in_rules = {name for expr in rules for name in metric_names(expr)}
        assert in_rules - PROMETHEUS_OWN <= series, sorted(in_rules - PROMETHEUS_OWN - series)
        # And the other way round: every metric is on the dashboard (``_created``: when a series began, not a figure).
        watched = {n for n in series if n.startswith("domino_") and not n.endswith(("_count", "_sum", "_created"))}
        assert {n.removesuffix("_bucket") for n in watched} <= {n.removesuffix("_bucket") for n in used}, sorted(
            watched - used
        )
