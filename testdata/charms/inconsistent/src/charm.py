#!/usr/bin/env python3
"""Relay charm, seeded with YAML/code disagreements; each is marked by a want comment."""

import logging
import os

import ops

from base import SERVICE, RelayBase
from upstream import UpstreamHandler

logger = logging.getLogger(__name__)


class RelayCharm(RelayBase):
    """Runs relayd and fans messages out to downstream consumers."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.upstream = UpstreamHandler(self)
        self.framework.observe(self.on.config_changed, self._on_config_changed)  # want lifecycle=config-changed
        self.framework.observe(self.on.stop, self._on_stop)  # want lifecycle=stop
        self.framework.observe(self.on.relay_pebble_ready, self._on_relay_pebble_ready)
        self.framework.observe(self.on.spool_storage_attached, self._on_spool_attached)
        self.framework.observe(self.on.downstream_relation_joined, self._on_downstream_joined)
        self.framework.observe(self.on.downstream_relation_departed, self._on_downstream_departed)  # want check=missing-handler
        self.framework.observe(self.on["relay-peers"].relation_changed, self._on_peers_changed)
        self.framework.observe(self.on["audit-log"].relation_changed, self._on_audit_changed)  # want check=undeclared-relation
        self.framework.observe(self.on.drain_action, self._on_drain)
        self.framework.observe(self.on.flush_action, self._on_flush)  # want check=undeclared-action
        self.framework.observe(self.on.inspect_action, self._on_inspect)
        if os.environ.get("RELAY_FEDERATION"):
            self.framework.observe(self.on.federation_relation_joined, self._on_federation_joined)  # want check=undeclared-relation severity=warning

    def _layer(self) -> ops.pebble.LayerDict:
        port = int(self.config["listen-port"])
        depth = int(self.config["queue-depth"])
        command = f"relayd --listen :{port} --queue {depth} --spool /var/spool/relay"
        if self.upstream.address:
            command += f" --upstream {self.upstream.address}"
            command += f" --compression {self.upstream.compression()}"
        return {
            "summary": "relay",
            "services": {SERVICE: {"override": "replace", "command": command, "startup": "enabled"}},
        }

    def _replan(self) -> None:
        if not self.container.can_connect():
            return
        self.container.add_layer("relay", self._layer(), combine=True)
        self.container.replan()
        self.unit.status = ops.ActiveStatus()

    def _on_config_changed(self, event: ops.ConfigChangedEvent) -> None:
        self._replan()

    def _on_relay_pebble_ready(self, event: ops.PebbleReadyEvent) -> None:
        self._replan()

    def _on_spool_attached(self, event: ops.StorageAttachedEvent) -> None:
        logger.info("spool at %s", event.storage.location)

    def _on_downstream_joined(self, event: ops.RelationJoinedEvent) -> None:
        data = self.leader_data(event.relation)
        if data is not None:
            data["port"] = str(self.config["listen-port"])

    def _on_peers_changed(self, event: ops.RelationChangedEvent) -> None:
        self._replan()

    def _on_audit_changed(self, event: ops.RelationChangedEvent) -> None:
        logger.info("audit sink changed")

    def _on_federation_joined(self, event: ops.RelationJoinedEvent) -> None:
        logger.info("federating with %s", event.app)

    def _on_update_status(self, event: ops.UpdateStatusEvent) -> None:  # want check=unobserved-handler
        self._replan()

    def _metrics_sidecar_ready(self) -> bool:
        sidecar = self.unit.get_container("metrics-sidecar")  # want check=undeclared-container
        return sidecar.can_connect()

    def _archive_path(self) -> str:
        archive = self.model.storages["archive"]  # want check=undeclared-storage
        return str(archive[0].location) if archive else "/var/spool/relay/archive"

    def _on_drain(self, event: ops.ActionEvent) -> None:
        timeout = float(event.params.get("timeout", 30))
        force = bool(event.params.get("force", False))  # want check=undeclared-action-param
        args = ["relayctl", "drain", "--timeout", str(timeout)]
        if force:
            args.append("--force")
        if self._metrics_sidecar_ready():
            args += ["--archive", self._archive_path()]
        process = self.container.exec(args, timeout=timeout + 10)
        out, _ = process.wait_output()
        event.set_results({"drained": out.strip()})

    def _on_flush(self, event: ops.ActionEvent) -> None:
        self.container.exec(["relayctl", "flush"]).wait_output()

    def _on_inspect(self, event: ops.ActionEvent) -> None:
        relation = self.model.get_relation(event.params["endpoint"])  # want unresolved=lookup
        if relation is None:
            event.fail("no such relation")
            return
        dump = {}
        for unit in sorted(relation.units, key=lambda u: u.name):
            dump[unit.name] = dict(relation.data[unit])
        event.set_results({"units": str(dump)})


if __name__ == "__main__":  # pragma: nocover
    ops.main(RelayCharm)
