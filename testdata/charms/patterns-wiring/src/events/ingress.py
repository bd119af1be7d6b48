"""Ingress handling in an ops.Object helper that takes the endpoint name with a default."""

import ops


class IngressEvents(ops.Object):
    """Observes the ingress endpoint on the charm's behalf."""

    def __init__(self, charm: ops.CharmBase, relation_name: str = "ingress"):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.relation_name = relation_name
        self.framework.observe(self.charm.on[self.relation_name].relation_joined, self._on_ingress_joined)
        self.framework.observe(charm.on[relation_name].relation_departed, self._on_ingress_departed)

    def _on_ingress_joined(self, event: ops.RelationJoinedEvent) -> None:
        event.relation.data[self.charm.app]["url"] = "http://tidepool"

    def _on_ingress_departed(self, event: ops.RelationDepartedEvent) -> None:
        self.charm.unit.status = ops.ActiveStatus()
