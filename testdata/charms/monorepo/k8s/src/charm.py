#!/usr/bin/env python3
"""Kubernetes charm for the beacon heartbeat daemon."""

import logging
import socket

import ops

from common.peers import PeerState
from common.settings import BeaconSettings, SettingsError

logger = logging.getLogger(__name__)

PEER = "beacon-peers"
CONTAINER = "beacon"


class BeaconK8sCharm(ops.CharmBase):
    """Runs beacond in its container; the ring is shared with the machine flavour."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.peers = PeerState(self, relation_name=PEER)
        framework.observe(self.on.config_changed, self._replan)  # want lifecycle=config-changed
        framework.observe(self.on.beacon_pebble_ready, self._on_beacon_pebble_ready)
        framework.observe(self.on.ingress_relation_changed, self._on_ingress_changed)
        framework.observe(self.peers.on.ring_changed, self._on_ring_changed)
        framework.observe(self.on["status-feed"].relation_joined, self._on_status_feed_joined)
        framework.observe(self.on.ping_action, self._on_ping)

    @property
    def _hostname(self) -> str:
        return str(self.config.get("external-hostname") or socket.getfqdn())

    def _replan(self, event: ops.EventBase) -> None:
        container = self.unit.get_container(CONTAINER)
        if not container.can_connect():
            return
        try:
            settings = BeaconSettings.load(self)
        except SettingsError as e:
            self.unit.status = ops.BlockedStatus(str(e))
            return
        layer: ops.pebble.LayerDict = {
            "summary": "beacon",
            "services": {
                "beacond": {
                    "override": "replace",
                    "command": " ".join(settings.command()),
                    "startup": "enabled",
                    "environment": {"BEACON_HOSTNAME": self._hostname},
                }
            },
        }
        container.add_layer("beacon", layer, combine=True)
        container.replan()
        self.peers.publish_address(self._hostname)
        self.unit.status = ops.ActiveStatus()

    def _on_beacon_pebble_ready(self, event: ops.PebbleReadyEvent) -> None:
        self._replan(event)

    def _on_ingress_changed(self, event: ops.RelationChangedEvent) -> None:
        relation = self.model.get_relation("ingress")
        if relation is not None and relation.app is not None:
            logger.info("ingress url: %s", relation.data[relation.app].get("url"))

    def _on_ring_changed(self, event: ops.EventBase) -> None:
        ring = ",".join(self.peers.ring())
        for relation in self.model.relations["status-feed"]:
            relation.data[self.unit]["ring"] = ring

    def _on_status_feed_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.unit]["ring"] = ",".join(self.peers.ring())

    def _on_ping(self, event: ops.ActionEvent) -> None:
        count = int(event.params.get("count", 1))
        container = self.unit.get_container(CONTAINER)
        try:
            out, _ = container.exec(["beaconctl", "ping", "--count", str(count)]).wait_output()
        except ops.pebble.ExecError as e:
            event.fail(str(e.stderr))
            return
        event.set_results({"answered": out.strip()})


if __name__ == "__main__":  # pragma: nocover
    ops.main(BeaconK8sCharm)
