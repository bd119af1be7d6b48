"""The `ingress` relation: publish where Inkwell listens, read back its public URL."""

import logging
from typing import Optional

import ops

logger = logging.getLogger(__name__)


class IngressHandler(ops.Object):
    """Publishes this application's address on the ingress relation.

    The proxy answers with the external URL in its application databag; the charm
    uses it for links in notification mails and as the `website` address.
    """

    def __init__(self, charm: ops.CharmBase, relation_name: str = "ingress", port: int = 8080):
        super().__init__(charm, relation_name)
        self._charm = charm
        self._relation_name = relation_name
        self._port = port
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_ingress_changed)
        self.framework.observe(charm.on[relation_name].relation_broken, self._on_ingress_broken)
        self.framework.observe(charm.on.leader_elected, self._on_leader_elected)  # want lifecycle=leader-elected

    @property
    def relation(self) -> Optional[ops.Relation]:
        return self._charm.model.get_relation(self._relation_name)

    @property
    def url(self) -> Optional[str]:
        """The external URL the proxy gave us, if any."""
        relation = self.relation
        if relation is None or relation.app is None:
            return None
        return relation.data[relation.app].get("url") or None

    def set_port(self, port: int) -> None:
        """Change the advertised port (after a config change)."""
        self._port = port
        self._publish()

    def _publish(self) -> None:
        relation = self.relation
        if relation is None or not self._charm.unit.is_leader():
            return
        relation.data[self._charm.app].update(
            {
                "name": self._charm.app.name,
                "model": self._charm.model.name,
                "port": str(self._port),
                "strip-prefix": "true",
            }
        )

    def _on_ingress_changed(self, event: ops.RelationChangedEvent) -> None:
        self._publish()
        if self.url:
            logger.info("ingress url is now %s", self.url)

    def _on_ingress_broken(self, event: ops.RelationBrokenEvent) -> None:
        logger.info("ingress removed; serving on the cluster address only")

    def _on_leader_elected(self, event: ops.LeaderElectedEvent) -> None:
        self._publish()
