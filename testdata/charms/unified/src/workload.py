"""Inkwell workload: typed settings and the Pebble layer that runs the server.

The charm reads its config once into an `InkwellSettings` value and hands it to
`InkwellWorkload`, which renders the server's TOML file and plans the service.
"""

import dataclasses
import logging
from typing import Optional

import ops

import constants as const

logger = logging.getLogger(__name__)


class WorkloadError(Exception):
    """The workload could not be configured or (re)started."""


@dataclasses.dataclass(frozen=True)
class InkwellSettings:
    """Server settings derived from the charm config."""

    site_title: str
    port: int
    enable_search: bool
    cache_ratio: float
    smtp_host: Optional[str] = None
    database_uri: Optional[str] = None

    @classmethod
    def from_config(cls, config: ops.ConfigData, database_uri: Optional[str] = None):
        """Build settings from the charm config, validating ranges."""
        ratio = float(config.get("cache-ratio", 0.25))
        if not 0 < ratio <= 0.9:
            raise WorkloadError(f"cache-ratio must be in (0, 0.9], got {ratio}")
        port = int(config["port"])
        if port in (const.METRICS_PORT, 0) or port > 65535:
            raise WorkloadError(f"port {port} is reserved or out of range")
        return cls(
            site_title=str(config["site-title"]),
            port=port,
            enable_search=bool(config["enable-search"]),
            cache_ratio=ratio,
            smtp_host=config.get("smtp-host") or None,
            database_uri=database_uri,
        )

    def render(self) -> str:
        """Render the server's TOML configuration file."""
        lines = [
            f'title = "{self.site_title}"',
            f"listen = \"0.0.0.0:{self.port}\"",
            f'pages = "{const.PAGES_DIR}"',
            f"cache_ratio = {self.cache_ratio}",
            "",
            "[search]",
            f"enabled = {str(self.enable_search).lower()}",
            f'index = "{const.SEARCH_INDEX_DIR}"',
        ]
        if self.database_uri:
            lines += ["", "[store]", f'uri = "{self.database_uri}"']
        if self.smtp_host:
            lines += ["", "[mail]", f'relay = "{self.smtp_host}"']
        return "\n".join(lines) + "\n"


class InkwellWorkload:
    """Drives the Inkwell server inside its container through Pebble."""

    def __init__(self, container: ops.Container):
        self._container = container

    @property
    def ready(self) -> bool:
        return self._container.can_connect()

    def layer(self, settings: InkwellSettings, log_level: str) -> ops.pebble.LayerDict:
        """The Pebble layer for the given settings."""
        command = f"inkwell serve --config {const.CONFIG_FILE} --log-level {log_level}"
        return {
            "summary": "inkwell layer",
            "services": {
                const.SERVICE: {
                    "override": "replace",
                    "command": command,
                    "startup": "enabled",
                    "environment": {"INKWELL_ADMIN_PASSWORD_FILE": "/run/inkwell/admin"},
                }
            },
            "checks": {
                "alive": {
                    "override": "replace",
                    "level": "alive",
                    "http": {"url": f"http://localhost:{settings.port}/healthz"},
                }
            },
        }

    def configure(self, settings: InkwellSettings, log_level: str, admin_password: str) -> None:
        """Push the config file and the admin password, then replan."""
        if not self.ready:
            raise WorkloadError("container not reachable")
        self._container.push(const.CONFIG_FILE, settings.render(), make_dirs=True)
        self._container.push("/run/inkwell/admin", admin_password, make_dirs=True, permissions=0o600)
        self._container.add_layer(const.SERVICE, self.layer(settings, log_level), combine=True)
        self._container.replan()

    def run(self, *args: str, timeout: float = 300) -> str:
        """Run an `inkwell` subcommand and return its standard output."""
        try:
            process = self._container.exec(["inkwell", *args], timeout=timeout)
            stdout, _ = process.wait_output()
        except ops.pebble.ExecError as e:
            raise WorkloadError(f"inkwell {args[0]} failed: {e.stderr}") from e
        return stdout

    def version(self) -> Optional[str]:
        """The server version, or None when it cannot be asked yet."""
        if not self.ready:
            return None
        try:
            return self.run("--version", timeout=10).strip()
        except WorkloadError:
            logger.warning("could not read the Inkwell version")
            return None
