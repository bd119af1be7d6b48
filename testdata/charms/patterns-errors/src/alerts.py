"""A helper observing the charm's events, with one handler that does not exist."""

import ops


class AlertsHandler(ops.Object):
    def __init__(self, charm: ops.CharmBase, relation_name: str = "alerts"):
        super().__init__(charm, relation_name)
        self._charm = charm
        self.framework.observe(self._charm.on[relation_name].relation_joined, self._on_alerts_joined)
        self.framework.observe(self._charm.on[relation_name].relation_broken, self._on_alerts_gone)  # want check=missing-handler

    def _on_alerts_joined(self, event: ops.RelationJoinedEvent) -> None:
        pass
