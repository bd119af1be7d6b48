#!/usr/bin/env python3
"""Machine charm for the beacon heartbeat daemon."""

import logging
import subprocess
from pathlib import Path

import ops

from common.peers import PeerState
from common.settings import BeaconSettings, SettingsError

logger = logging.getLogger(__name__)

UNIT_FILE = Path("/etc/systemd/system/beacond.service")
UNIT_TEMPLATE = """[Unit]
Description=beacon heartbeat daemon
After=network-online.target

[Service]
ExecStart={command}
Restart=always

[Install]
WantedBy=multi-user.target
"""


class BeaconCharm(ops.CharmBase):
    """Runs beacond as a systemd service and shares the ring with a status feed."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.peers = PeerState(self, "cluster")
        framework.observe(self.on.install, self._on_install)  # want lifecycle=install
        framework.observe(self.on.config_changed, self._on_config_changed)  # want lifecycle=config-changed
        framework.observe(self.peers.on.ring_changed, self._on_ring_changed)
        framework.observe(self.on.status_feed_relation_joined, self._on_status_feed_joined)
        framework.observe(self.on.ping_action, self._on_ping)

    def _bind_address(self) -> str:
        configured = self.config.get("bind-address")
        if configured:
            return str(configured)
        relation = self.peers.relation
        binding = self.model.get_binding(relation) if relation else None
        return str(binding.network.bind_address) if binding else "0.0.0.0"

    def _systemctl(self, *args: str) -> None:
        subprocess.run(["systemctl", *args], check=True)

    def _on_install(self, event: ops.InstallEvent) -> None:
        subprocess.run(["apt-get", "install", "-y", "beacond"], check=True)

    def _on_config_changed(self, event: ops.ConfigChangedEvent) -> None:
        try:
            settings = BeaconSettings.load(self)
        except SettingsError as e:
            self.unit.status = ops.BlockedStatus(str(e))
            return
        command = " ".join(settings.command(bind=self._bind_address()))
        UNIT_FILE.write_text(UNIT_TEMPLATE.format(command=command))
        self._systemctl("daemon-reload")
        self._systemctl("restart", "beacond")
        self.peers.publish_address(self._bind_address())
        self.unit.status = ops.ActiveStatus()

    def _on_ring_changed(self, event: ops.EventBase) -> None:
        ring = ",".join(self.peers.ring())
        for relation in self.model.relations["status-feed"]:
            relation.data[self.unit]["ring"] = ring

    def _on_status_feed_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.unit]["ring"] = ",".join(self.peers.ring())

    def _on_ping(self, event: ops.ActionEvent) -> None:
        count = int(event.params.get("count", 1))
        done = subprocess.run(
            ["beaconctl", "ping", "--count", str(count)], capture_output=True, text=True
        )
        if done.returncode != 0:
            event.fail(done.stderr.strip())
            return
        event.set_results({"answered": done.stdout.strip(), "ring": ",".join(self.peers.ring())})


if __name__ == "__main__":  # pragma: nocover
    ops.main(BeaconCharm)
