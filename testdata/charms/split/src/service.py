"""The ledger daemon on the machine: snap install, config file, systemd control."""

import logging
import subprocess
from pathlib import Path
from typing import Optional

import ops

logger = logging.getLogger(__name__)

SNAP_NAME = "ledger"
SNAP_CHANNEL = "2/stable"
SNAP_COMMON = Path("/var/snap/ledger/common")
CONFIG_PATH = SNAP_COMMON / "ledger.conf"
PASSWORDS_PATH = SNAP_COMMON / "passwords"


class ServiceError(Exception):
    """A snap or daemon command failed."""


def _run(*args: str, timeout: int = 120) -> str:
    try:
        done = subprocess.run(args, check=True, capture_output=True, text=True, timeout=timeout)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        raise ServiceError(f"{' '.join(args)} failed: {e}") from e
    return done.stdout


class LedgerService:
    """Installs, configures and controls the ledger daemon for one unit."""

    def __init__(self, charm: ops.CharmBase):
        self._charm = charm

    def install(self) -> None:
        _run("snap", "install", SNAP_NAME, f"--channel={SNAP_CHANNEL}")
        _run("snap", "connect", f"{SNAP_NAME}:network-observe")

    def remove(self) -> None:
        _run("snap", "remove", "--purge", SNAP_NAME)

    def render_config(self, peers: list, primary: Optional[str]) -> str:
        """The daemon's INI-style config for the current charm config and peers."""
        config = self._charm.config
        testing = config.get("profile", "production") == "testing"
        fraction = float(config["memory-fraction"])
        if testing:
            fraction = min(fraction, 0.1)
        lines = [
            "[server]",
            f"port = {config['port']}",
            f"max_connections = {config['max-connections']}",
            f"cache_fraction = {fraction}",
            f"fsync = {'off' if testing else str(config['fsync']).lower()}",
            "",
            "[cluster]",
            f"peers = {','.join(sorted(peers))}",
        ]
        if primary:
            lines.append(f"follow = {primary}")
        return "\n".join(lines) + "\n"

    def write_config(self, content: str) -> bool:
        """Write the config file; return True when it changed."""
        if CONFIG_PATH.exists() and CONFIG_PATH.read_text() == content:
            return False
        CONFIG_PATH.parent.mkdir(parents=True, exist_ok=True)
        CONFIG_PATH.write_text(content)
        return True

    def set_password(self, username: str, password: str) -> None:
        _run("ledger.admin", "set-password", username, "--stdin-password", timeout=30)
        PASSWORDS_PATH.mkdir(parents=True, exist_ok=True)
        (PASSWORDS_PATH / username).write_text(password)
        (PASSWORDS_PATH / username).chmod(0o600)

    def start(self) -> None:
        _run("snap", "start", "--enable", f"{SNAP_NAME}.daemon")

    def restart(self) -> None:
        _run("snap", "restart", f"{SNAP_NAME}.daemon")

    def stop(self) -> None:
        _run("snap", "stop", "--disable", f"{SNAP_NAME}.daemon")

    def is_running(self) -> bool:
        try:
            return "active" in _run("snap", "services", f"{SNAP_NAME}.daemon")
        except ServiceError:
            return False

    def primary(self) -> Optional[str]:
        """Address of the current primary as the daemon sees it."""
        try:
            out = _run("ledger.admin", "status", "--field", "primary", timeout=10).strip()
        except ServiceError:
            return None
        return out or None

    def version(self) -> str:
        return _run("ledger.admin", "--version", timeout=10).strip()
