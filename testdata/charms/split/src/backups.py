"""Backups to S3: the `s3-parameters` relation and the backup actions."""

import json
import logging
from datetime import datetime, timezone
from typing import Dict, Optional

import ops

from service import ServiceError, _run

logger = logging.getLogger(__name__)

S3_RELATION = "s3-parameters"


class LedgerBackups(ops.Object):
    """Keeps S3 credentials from the relation and runs backups on request."""

    def __init__(self, charm: ops.CharmBase):
        super().__init__(charm, "backups")
        self.charm = charm
        charm.framework.observe(charm.on[S3_RELATION].relation_changed, self._on_s3_changed)
        charm.framework.observe(charm.on[S3_RELATION].relation_broken, self._on_s3_broken)
        charm.framework.observe(charm.on.create_backup_action, self._on_create_backup)
        charm.framework.observe(charm.on.list_backups_action, self._on_list_backups)

    def _s3(self) -> Optional[Dict[str, str]]:
        relation = self.model.get_relation(S3_RELATION)
        if relation is None or relation.app is None:
            return None
        data = relation.data[relation.app]
        if not all(data.get(k) for k in ("bucket", "access-key", "secret-key")):
            return None
        return dict(data)

    def schedule(self) -> Optional[str]:
        """The backup schedule, when automatic backups are on and S3 is usable."""
        if self._s3() is None:
            return None
        return self.charm.config.get("snapshot-schedule") or None

    def _on_s3_changed(self, event: ops.RelationChangedEvent) -> None:
        if self.charm.unit.is_leader() and event.relation.app is not None:
            event.relation.data[self.charm.app]["bucket"] = f"ledger-{self.model.uuid[:8]}"
        logger.info("S3 parameters %s", "complete" if self._s3() else "incomplete")

    def _on_s3_broken(self, event: ops.RelationBrokenEvent) -> None:
        logger.warning("S3 relation removed; backups are disabled")

    def _on_create_backup(self, event: ops.ActionEvent) -> None:
        s3 = self._s3()
        if s3 is None:
            event.fail("relate to an s3-integrator first")
            return
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        label = event.params.get("label") or "manual"
        args = ["ledger.admin", "backup", "--bucket", s3["bucket"], "--name", f"{stamp}-{label}"]
        if event.params.get("compress", True):
            args.append("--gzip")
        try:
            _run(*args, timeout=3600)
        except ServiceError as e:
            event.fail(str(e))
            return
        event.set_results({"backup-id": f"{stamp}-{label}"})

    def _on_list_backups(self, event: ops.ActionEvent) -> None:
        s3 = self._s3()
        if s3 is None:
            event.fail("relate to an s3-integrator first")
            return
        out = _run("ledger.admin", "backup", "--list", "--bucket", s3["bucket"], "--json")
        backups = sorted(item["name"] for item in json.loads(out or "[]"))
        event.set_results({"backups": "\n".join(backups), "count": len(backups)})
