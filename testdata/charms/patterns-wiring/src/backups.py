"""Backups to an S3 store: a helper bound to the endpoint named by the charm."""

import ops


class Backups(ops.Object):
    """Handles the backup store relation and the create-backup action."""

    def __init__(self, charm: ops.CharmBase, relation_name: str):
        super().__init__(charm, "backups")
        self._charm = charm
        self._relation_name = relation_name
        self.framework.observe(self._charm.on[relation_name].relation_changed, self._on_store_changed)
        self.framework.observe(self._charm.on[self._relation_name].relation_broken, self._on_store_broken)
        self.framework.observe(self._charm.on.create_backup_action, self._on_create_backup)

    def _on_store_changed(self, event: ops.RelationChangedEvent) -> None:
        days = self._charm.config.get("retention")
        event.relation.data[self._charm.unit]["retention"] = str(days)

    def _on_store_broken(self, event: ops.RelationBrokenEvent) -> None:
        self._charm.unit.status = ops.BlockedStatus("no backup store")

    def _on_create_backup(self, event: ops.ActionEvent) -> None:
        params = event.params
        label = params["label"]
        compress = event.params.get("compress", False)
        event.set_results({"label": label, "compressed": compress})
