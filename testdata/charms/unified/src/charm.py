#!/usr/bin/env python3
"""Charm for Inkwell, a small self-hosted wiki, on Kubernetes."""

import json
import logging
from typing import List, Optional

import ops

import constants as const
from charms.docstore_k8s.v0.docstore import DatabaseReadyEvent, DocstoreRequires
from relations import IngressHandler
from workload import InkwellSettings, InkwellWorkload, WorkloadError

logger = logging.getLogger(__name__)


class InkwellCharm(ops.CharmBase):
    """Runs Inkwell in its container and wires it to a document store and ingress."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.database = DocstoreRequires(self)
        self.ingress = IngressHandler(
            self, relation_name=const.INGRESS_RELATION, port=int(self.config["port"])
        )
        self.workload = InkwellWorkload(self._container)

        self.framework.observe(self.on.config_changed, self._reconcile)  # want lifecycle=config-changed
        self.framework.observe(self.on.upgrade_charm, self._reconcile)  # want lifecycle=upgrade-charm
        self.framework.observe(self.on[const.CONTAINER].pebble_ready, self._on_inkwell_pebble_ready)
        self.framework.observe(self.on.pages_storage_attached, self._on_pages_attached)
        self.framework.observe(self.database.on.database_ready, self._on_database_ready)
        self.framework.observe(self.database.on.database_gone, self._on_database_gone)
        self.framework.observe(self.on["website"].relation_joined, self._on_website_joined)
        self.framework.observe(self.on.metrics_endpoint_relation_joined, self._on_metrics_joined)
        self.framework.observe(self.on[const.PEER].relation_changed, self._on_peers_changed)
        self.framework.observe(self.on.reindex_action, self._on_reindex)
        self.framework.observe(self.on.export_pages_action, self._on_export_pages)
        self.framework.observe(self.on.secret_changed, self._on_secret_changed)  # want secret=secret-changed
        self.framework.observe(self.on.collect_unit_status, self._on_collect_status)  # want status=collect-unit-status

    # --- lookups -------------------------------------------------------------

    @property
    def _container(self) -> ops.Container:
        return self.unit.get_container(const.CONTAINER)

    @property
    def _peers(self) -> Optional[ops.Relation]:
        return self.model.get_relation(const.PEER)

    @property
    def _pages_location(self) -> str:
        attached = self.model.storages[const.STORAGE]
        return str(attached[0].location) if attached else const.PAGES_DIR

    def _log_targets(self) -> List[str]:
        """Addresses of every log forwarder related to this unit."""
        targets = []
        for relation in self.model.relations["log-forwarder"]:
            for unit in relation.units:
                address = relation.data[unit].get("push-address")
                if address:
                    targets.append(address)
        return sorted(targets)

    def _admin_password(self) -> Optional[str]:
        secret_uri = self.config.get("admin-password")
        if not secret_uri:
            return None
        try:
            content = self.model.get_secret(id=str(secret_uri)).get_content(refresh=True)
        except (ops.SecretNotFoundError, ops.ModelError):
            return None
        return content.get("password")

    def _settings(self) -> InkwellSettings:
        endpoints = self.database.endpoints()
        uri = f"docstore://{endpoints[0]}/{self.app.name}" if endpoints else None
        return InkwellSettings.from_config(self.config, database_uri=uri)

    # --- reconciliation ------------------------------------------------------

    def _reconcile(self, event: ops.EventBase) -> None:
        """Bring the workload in line with config, relations and secrets."""
        if not self.workload.ready:
            return
        password = self._admin_password()
        if password is None:
            return
        log_level = str(self.model.config["log-level"]).lower()
        if log_level not in const.LOG_LEVELS:
            log_level = "info"
        try:
            settings = self._settings()
            self.workload.configure(settings, log_level, password)
        except WorkloadError as e:
            logger.error("reconcile failed: %s", e)
            return
        self.ingress.set_port(settings.port)
        self.unit.set_ports(settings.port, const.METRICS_PORT)
        version = self.workload.version()
        if version:
            self.unit.set_workload_version(version)

    def _on_inkwell_pebble_ready(self, event: ops.PebbleReadyEvent) -> None:
        self._reconcile(event)

    def _on_pages_attached(self, event: ops.StorageAttachedEvent) -> None:
        logger.info("pages storage attached at %s", event.storage.location)
        self._reconcile(event)

    def _on_database_ready(self, event: DatabaseReadyEvent) -> None:
        logger.info("document store ready at %s", event.endpoints)
        self._reconcile(event)

    def _on_database_gone(self, event: ops.EventBase) -> None:
        self._reconcile(event)

    def _on_secret_changed(self, event: ops.SecretChangedEvent) -> None:
        self._reconcile(event)

    # --- provided relations --------------------------------------------------

    def _on_website_joined(self, event: ops.RelationJoinedEvent) -> None:
        url = self.ingress.url or f"http://{self.app.name}.{self.model.name}.svc"
        event.relation.data[self.unit].update({"url": url, "port": str(self.config["port"])})

    def _on_metrics_joined(self, event: ops.RelationJoinedEvent) -> None:
        if not self.unit.is_leader():
            return
        job = {
            "metrics_path": const.METRICS_PATH,
            "static_configs": [{"targets": [f"*:{const.METRICS_PORT}"]}],
        }
        event.relation.data[self.app]["scrape_jobs"] = json.dumps([job])

    def _on_peers_changed(self, event: ops.RelationChangedEvent) -> None:
        peers = self._peers
        if peers is None:
            return
        if self.unit.is_leader() and not peers.data[self.app].get(const.PEER_SESSION_KEY):
            peers.data[self.app][const.PEER_SESSION_KEY] = self.model.uuid.replace("-", "")
        self._reconcile(event)

    # --- actions -------------------------------------------------------------

    def _on_reindex(self, event: ops.ActionEvent) -> None:
        collection = event.params["collection"]
        args = ["reindex", "--collection", collection]
        if event.params.get("full", False):
            args.append("--drop")
        try:
            output = self.workload.run(*args, timeout=1800)
        except WorkloadError as e:
            event.fail(str(e))
            return
        event.set_results({"collection": collection, "output": output.strip()})

    def _on_export_pages(self, event: ops.ActionEvent) -> None:
        fmt = event.params.get("format", "markdown")
        if fmt not in const.EXPORT_FORMATS:
            event.fail(f"unknown format {fmt}")
            return
        target = f"{self._pages_location}/{event.params['destination']}"
        try:
            self.workload.run("export", "--format", fmt, "--output", target)
        except WorkloadError as e:
            event.fail(str(e))
            return
        event.set_results({"path": target, "forwarders": ",".join(self._log_targets())})

    # --- status --------------------------------------------------------------

    def _on_collect_status(self, event: ops.CollectStatusEvent) -> None:
        if not self.workload.ready:
            event.add_status(ops.WaitingStatus("waiting for the inkwell container"))
        if not self.config.get("admin-password"):
            event.add_status(ops.BlockedStatus("set admin-password to a secret URI"))
        if not self.database.is_ready():
            event.add_status(ops.WaitingStatus("waiting for the document store"))
        event.add_status(ops.ActiveStatus())


if __name__ == "__main__":  # pragma: nocover
    ops.main(InkwellCharm)
