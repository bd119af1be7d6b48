"""Peer bookkeeping shared by both charms: who is in the beacon ring."""

import logging
from typing import List, Optional

import ops

logger = logging.getLogger(__name__)


class RingChangedEvent(ops.EventBase):
    """The set of peer addresses changed."""


class PeerEvents(ops.ObjectEvents):
    ring_changed = ops.EventSource(RingChangedEvent)


class PeerState(ops.Object):
    """Publishes this unit's address on the peer relation and tracks the others.

    Each charm passes the name of its own peer endpoint.
    """

    on = PeerEvents()  # pyright: ignore[reportAssignmentType]

    def __init__(self, charm: ops.CharmBase, relation_name: str):
        super().__init__(charm, relation_name)
        self._charm = charm
        self._relation_name = relation_name
        charm.framework.observe(charm.on[relation_name].relation_changed, self._on_peer_changed)
        charm.framework.observe(charm.on[relation_name].relation_departed, self._on_peer_departed)

    @property
    def relation(self) -> Optional[ops.Relation]:
        return self._charm.model.get_relation(self._relation_name)

    def publish_address(self, address: str) -> None:
        relation = self.relation
        if relation is not None:
            relation.data[self._charm.unit]["address"] = address

    def ring(self) -> List[str]:
        """Sorted addresses of every unit that has published one, this one included."""
        relation = self.relation
        if relation is None:
            return []
        units = set(relation.units) | {self._charm.unit}
        return sorted(a for a in (relation.data[u].get("address") for u in units) if a)

    def _on_peer_changed(self, event: ops.RelationChangedEvent) -> None:
        self.on.ring_changed.emit()

    def _on_peer_departed(self, event: ops.RelationDepartedEvent) -> None:
        logger.info("%s left the ring", event.departing_unit)
        self.on.ring_changed.emit()
