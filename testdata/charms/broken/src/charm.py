#!/usr/bin/env python3
"""Machine charm for Shard. One method below has a syntax error on purpose."""

import logging
from typing import Dict, List

import ops

from store import ChunkStore, StoreError

logger = logging.getLogger(__name__)

PEERS = "shard-peers"
COMPRESSORS = ("zstd", "gzip", "none")


class ShardCharm(ops.CharmBase):  # want def=ShardCharm
    """Runs the shard daemon and publishes its API address."""

    def __init__(self, framework: ops.Framework):  # want def=ShardCharm.__init__
        super().__init__(framework)
        self.store = ChunkStore()
        self.framework.observe(self.on.install, self._on_install)  # want lifecycle=install
        self.framework.observe(self.on.config_changed, self._on_config_changed)  # want lifecycle=config-changed
        self.framework.observe(self.on.catalog_relation_changed, self._on_catalog_changed)
        self.framework.observe(self.on[PEERS].relation_joined, self._on_peers_joined)
        self.framework.observe(self.on.api_relation_joined, self._on_api_joined)
        self.framework.observe(self.on.compact_action, self._on_compact)

    def _on_install(self, event: ops.InstallEvent) -> None:  # want def=ShardCharm._on_install
        self.unit.status = ops.MaintenanceStatus("installing shard")

    def _on_catalog_changed(self, event: ops.RelationChangedEvent) -> None:  # want def=ShardCharm._on_catalog_changed
        if event.app is None:
            return
        entries = event.relation.data[event.app].get("entries", "")
        logger.info("catalog lists %d archives", len(entries.split()))

    def _render_index(self, entries: List[Dict[str, str]]) -> str:
        lines = []
        for entry in entries  # want parse=error
            lines.append(f"{entry['name']} {entry['chunks']}")
        return "\n".join(lines)

    def _on_config_changed(self, event: ops.ConfigChangedEvent) -> None:  # want def=ShardCharm._on_config_changed
        compression = self.config["compression"]
        if compression not in COMPRESSORS:
            self.unit.status = ops.BlockedStatus(f"unknown compression {compression!r}")
            return
        args = [
            f"--chunk-size={int(self.config['chunk-size'])}",
            f"--workers={int(self.config['workers'])}",
            f"--compression={compression}",
        ]
        if self.config["verify"]:
            args.append("--verify")
        logger.info("shard daemon arguments: %s", " ".join(args))
        self.unit.status = ops.ActiveStatus()

    def _on_peers_joined(self, event: ops.RelationJoinedEvent) -> None:  # want def=ShardCharm._on_peers_joined
        peers = self.model.get_relation(PEERS)
        if peers is not None and self.unit.is_leader():
            peers.data[self.app]["members"] = str(len(peers.units) + 1)

    def _on_api_joined(self, event: ops.RelationJoinedEvent) -> None:  # want def=ShardCharm._on_api_joined
        event.relation.data[self.unit]["port"] = "8420"

    def _on_compact(self, event: ops.ActionEvent) -> None:  # want def=ShardCharm._on_compact
        compactor = ShardCompactor(self.store)
        try:
            result = compactor.run(dry_run=bool(event.params.get("dry-run", True)))
        except StoreError as e:
            event.fail(str(e))
            return
        event.set_results(result)


class ShardCompactor:  # want def=ShardCompactor
    """Finds and removes chunks that no archive refers to."""

    def __init__(self, store: ChunkStore):  # want def=ShardCompactor.__init__
        self.store = store

    def run(self, dry_run: bool = True) -> Dict[str, str]:  # want def=ShardCompactor.run
        unused = self.store.unreferenced()
        dropped = 0 if dry_run else self.store.drop(unused)
        return {"unreferenced": str(len(unused)), "dropped": str(dropped)}


if __name__ == "__main__":  # pragma: nocover
    ops.main(ShardCharm)
