#!/usr/bin/env python3
"""Tidepool charm: each interface is wired through a different pattern."""

import ops
from charms.pgclient.v0 import client
from charms.pgclient.v0.client import PgRequires
from redislib import CacheRequirer

import literals as lit
from events.ingress import IngressEvents
from backups import Backups
from literals import CONTAINER, PEER as PEER_RELATION
from settings import Settings, TideConfig


class TideUpdatedEvent(ops.EventBase):
    """A custom event named like an event of a relation `surge`, which is not declared."""


class TideEvents(ops.CharmEvents):
    surge_relation_changed = ops.EventSource(TideUpdatedEvent)


class TidepoolCharm(ops.CharmBase):
    """Serves tide tables."""

    on = TideEvents()  # pyright: ignore
    _metrics = "metrics"

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        observe = self.framework.observe
        observe(self.on.install, self._on_install)  # want lifecycle=install
        observe(self.on.legacy_relation_changed, self._on_legacy_changed)
        observe(self.on.surge_relation_changed, self._on_tide_updated)
        self.framework.observe(self.on[PEER_RELATION].relation_changed, self._on_peers_changed)
        self.framework.observe(getattr(self.on, "monitoring_relation_joined"), self._on_monitoring_joined)
        self.framework.observe(self.on[self._metrics].relation_joined, self._on_metrics_joined)
        for endpoint in (lit.MESH, lit.MESH_LEGACY):
            self.framework.observe(self.on[endpoint].relation_changed, self._on_mesh_changed)
        for event in [self.on.config_changed, self.on.update_status]:
            self.framework.observe(event, self._reconcile)  # want lifecycle=config-changed,update-status
        self.framework.observe(self.on.pool_pebble_ready, self._on_pool_ready)
        self.framework.observe(self.on[CONTAINER].pebble_check_failed, self._on_pool_check_failed)
        self.framework.observe(self.on.journal_storage_attached, self._on_journal_attached)
        self.framework.observe(self.on.rotate_key_action, self._on_rotate_key)
        self.framework.observe(self.on["snapshot"].action, self._on_snapshot)
        self.framework.observe(self.on.leader_elected, self._reconcile)  # want lifecycle=leader-elected
        self.framework.observe(self.on.secret_changed, self._reconcile)  # want secret=secret-changed
        self.framework.observe(self.on.collect_unit_status, self._on_collect_status)  # want status=collect-unit-status

        self.db = PgRequires(self)
        self.analytics = client.PgRequires(self, "analytics")
        self.framework.observe(self.db.on.database_ready, self._on_database_ready)
        self.framework.observe(self.analytics.on.database_ready, self._on_database_ready)
        self.cache = CacheRequirer(self, relation_name="cache")
        self.ingress = IngressEvents(self)
        self.backups = Backups(self, "backup-store")
        self.settings = Settings(self.config)

    def _on_install(self, event: ops.InstallEvent) -> None:
        self.unit.set_workload_version("1.0")

    def _on_legacy_changed(self, event: ops.RelationChangedEvent) -> None:
        pass

    def _on_tide_updated(self, event: TideUpdatedEvent) -> None:
        for relation in self.model.relations["tide"]:
            relation.data[self.unit]["level"] = "high"

    def _on_peers_changed(self, event: ops.RelationChangedEvent) -> None:
        self._reconcile(event)

    def _on_monitoring_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.unit]["port"] = str(self.config["port"])

    def _on_metrics_joined(self, event: ops.RelationJoinedEvent) -> None:
        pass

    def _on_mesh_changed(self, event: ops.RelationChangedEvent) -> None:
        pass

    def _on_pool_ready(self, event: ops.PebbleReadyEvent) -> None:
        self._reconcile(event)

    def _on_pool_check_failed(self, event: ops.PebbleCheckFailedEvent) -> None:
        pass

    def _on_journal_attached(self, event: ops.StorageAttachedEvent) -> None:
        location = self.model.storages["journal"][0].location
        event.storage.location = location

    def _on_rotate_key(self, event: ops.ActionEvent) -> None:
        force = event.params.get("force", False)
        event.set_results({"rotated": True, "forced": force})

    def _on_snapshot(self, event: ops.ActionEvent) -> None:
        event.set_results({"ok": True})

    def _on_database_ready(self, event: ops.RelationEvent) -> None:
        self._reconcile(event)

    def _on_collect_status(self, event: ops.CollectStatusEvent) -> None:
        event.add_status(ops.ActiveStatus())

    def _reconcile(self, event: ops.EventBase) -> None:
        container = self.unit.get_container(CONTAINER)
        peers = self.model.get_relation(PEER_RELATION)
        cfg = self.config
        typed = self.load_config(TideConfig)
        layer = {
            "summary": self.settings.banner(),
            "port": self.config["port"],
            "level": self.model.config.get("log-level"),
            "debug": cfg.get("debug"),
            "mode": typed.mode,
            "peers": len(peers.units) if peers else 0,
        }
        if container.can_connect():
            container.add_layer("tidepool", {"summary": str(layer)}, combine=True)


if __name__ == "__main__":  # pragma: nocover
    ops.main(TidepoolCharm)
