#!/usr/bin/env python3
"""Machine charm for Ledger, an append-only replicated record store."""

import logging
import secrets
from typing import List, Optional

import ops

from backups import LedgerBackups
from charms.ledger.v0.ledger_client import ClientRequestedEvent, LedgerClientProvides
from service import LedgerService, ServiceError

logger = logging.getLogger(__name__)

PEER = "replicas"
DATA_STORAGE = "data"
INTERNAL_USERS = ("operator", "replication", "backup")


class LedgerCharm(ops.CharmBase):
    """Installs the ledger snap, forms the replica set and serves clients."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.service = LedgerService(self)
        self.backups = LedgerBackups(self)
        self.client_provider = LedgerClientProvides(self, "ledger-client")

        observe = self.framework.observe
        observe(self.on.install, self._on_install)  # want lifecycle=install
        observe(self.on.start, self._on_start)  # want lifecycle=start
        observe(self.on.config_changed, self._on_config_changed)  # want lifecycle=config-changed
        observe(self.on.upgrade_charm, self._on_config_changed)  # want lifecycle=upgrade-charm
        observe(self.on.update_status, self._on_update_status)  # want lifecycle=update-status
        observe(self.on.leader_elected, self._on_leader_elected)  # want lifecycle=leader-elected
        observe(self.on.stop, self._on_stop)  # want lifecycle=stop
        observe(self.on.remove, self._on_remove)  # want lifecycle=remove

        observe(self.on[PEER].relation_changed, self._on_replicas_relation_changed)
        observe(self.on[PEER].relation_departed, self._on_peer_departed)
        observe(self.on["certificates"].relation_joined, self._on_certificates_relation_joined)
        observe(self.on.certificates_relation_changed, self._on_certificates_relation_changed)
        observe(self.client_provider.on.client_requested, self._on_client_requested)
        observe(self.on.ledger_client_relation_departed, self._on_ledger_client_relation_departed)
        observe(self.on.cos_agent_relation_joined, self._on_cos_agent_joined)
        observe(self.on.data_storage_attached, self._on_data_storage_attached)
        observe(self.on.data_storage_detaching, self._on_data_storage_detaching)
        observe(self.on.rotate_password_action, self._on_rotate_password_action)
        observe(getattr(self.on, "get_primary_action"), self._on_get_primary)

    # --- state ---------------------------------------------------------------

    @property
    def _peers(self) -> Optional[ops.Relation]:
        return self.model.get_relation(PEER)

    def _peer_addresses(self) -> List[str]:
        relation = self._peers
        if relation is None:
            return []
        addresses = [relation.data[unit].get("address", "") for unit in relation.units]
        return sorted(a for a in addresses if a)

    def _address(self) -> str:
        binding = self.model.get_binding(PEER)
        return str(binding.network.bind_address) if binding else ""

    def _primary(self) -> Optional[str]:
        relation = self._peers
        return relation.data[self.app].get("primary") if relation else None

    def _data_ready(self) -> bool:
        return bool(self.model.storages[DATA_STORAGE])

    # --- lifecycle -----------------------------------------------------------

    def _on_install(self, event: ops.InstallEvent) -> None:
        self.unit.status = ops.MaintenanceStatus("installing ledger")
        try:
            self.service.install()
        except ServiceError as e:
            self.unit.status = ops.BlockedStatus(f"install failed: {e}")

    def _on_start(self, event: ops.StartEvent) -> None:
        if not self._data_ready():
            event.defer()
            return
        self.service.start()
        self.unit.set_workload_version(self.service.version())
        self._on_update_status(event)

    def _on_config_changed(self, event: ops.EventBase) -> None:
        mode = self.config["replication-mode"]
        if mode not in ("async", "sync"):
            self.unit.status = ops.BlockedStatus(f"invalid replication-mode {mode!r}")
            return
        self.unit.set_ports(int(self.config["port"]))
        self._write_config_and_restart()

    def _write_config_and_restart(self) -> None:
        content = self.service.render_config(self._peer_addresses(), self._primary())
        if self.service.write_config(content) and self.service.is_running():
            self.service.restart()

    def _on_update_status(self, event: ops.EventBase) -> None:
        if not self.service.is_running():
            self.unit.status = ops.WaitingStatus("daemon not running")
        elif self.backups.schedule():
            self.unit.status = ops.ActiveStatus(f"backups: {self.backups.schedule()}")
        else:
            self.unit.status = ops.ActiveStatus()

    def _on_leader_elected(self, event: ops.LeaderElectedEvent) -> None:
        relation = self._peers
        if relation is not None and not relation.data[self.app].get("primary"):
            relation.data[self.app]["primary"] = self._address()
        for user in INTERNAL_USERS:
            self._ensure_password(user)

    def _on_stop(self, event: ops.StopEvent) -> None:
        self.service.stop()

    def _on_remove(self, event: ops.RemoveEvent) -> None:
        self.service.remove()

    # --- relations -----------------------------------------------------------

    def _on_replicas_relation_changed(self, event: ops.RelationChangedEvent) -> None:
        event.relation.data[self.unit]["address"] = self._address()
        self._write_config_and_restart()
        if self.unit.is_leader():
            endpoints = [f"{a}:{self.config['port']}" for a in self._peer_addresses()]
            self.client_provider.update_endpoints(endpoints)

    def _on_peer_departed(self, event: ops.RelationDepartedEvent) -> None:
        if self.unit.is_leader() and event.departing_unit is not None:
            gone = event.relation.data[event.departing_unit].get("address")
            if gone and gone == self._primary():
                event.relation.data[self.app]["primary"] = self._address()
        self._write_config_and_restart()

    def _on_certificates_relation_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.unit]["common_name"] = self._address()

    def _on_certificates_relation_changed(self, event: ops.RelationChangedEvent) -> None:
        if event.unit is None:
            return
        if event.relation.data[event.unit].get("certificate"):
            self._write_config_and_restart()

    def _on_client_requested(self, event: ClientRequestedEvent) -> None:
        endpoints = [f"{a}:{self.config['port']}" for a in self._peer_addresses()]
        token = secrets.token_urlsafe(24)
        self.client_provider.publish(event.relation_id, endpoints, token)

    def _on_ledger_client_relation_departed(self, event: ops.RelationDepartedEvent) -> None:
        logger.info("client %s left", event.app.name if event.app else "unknown")

    def _on_cos_agent_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.unit]["metrics_port"] = "7409"

    # --- storage -------------------------------------------------------------

    def _on_data_storage_attached(self, event: ops.StorageAttachedEvent) -> None:
        logger.info("data storage at %s", event.storage.location)

    def _on_data_storage_detaching(self, event: ops.StorageDetachingEvent) -> None:
        if self.service.is_running():
            self.service.stop()

    # --- actions -------------------------------------------------------------

    def _ensure_password(self, username: str) -> None:
        relation = self._peers
        if relation is None or relation.data[self.app].get(f"{username}-password"):
            return
        relation.data[self.app][f"{username}-password"] = secrets.token_urlsafe(18)

    def _on_rotate_password_action(self, event: ops.ActionEvent) -> None:
        if not self.unit.is_leader():
            event.fail("run this action on the leader unit")
            return
        username = event.params["username"]
        password = event.params.get("password") or secrets.token_urlsafe(18)
        try:
            self.service.set_password(username, password)
        except ServiceError as e:
            event.fail(str(e))
            return
        self._peers.data[self.app][f"{username}-password"] = password
        event.set_results({"username": username})

    def _on_get_primary(self, event: ops.ActionEvent) -> None:
        event.set_results({"primary": self.service.primary() or self._primary() or "unknown"})


if __name__ == "__main__":  # pragma: nocover
    ops.main(LedgerCharm)
