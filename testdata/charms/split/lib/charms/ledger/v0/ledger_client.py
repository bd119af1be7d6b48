"""The `ledger_client` interface, both sides.

Ledger publishes this library so client charms speak the same protocol. The
provider (the ledger charm itself) observes requests and answers with endpoints
and a per-client token:

```python
self.clients = LedgerClientProvides(self, "ledger-client")
self.framework.observe(self.clients.on.client_requested, self._on_client_requested)
```

A client charm uses `LedgerClientRequires` and reads `endpoints` and `token`
from the provider's application databag.
"""

import logging
from typing import Dict, List, Optional

from ops.charm import CharmBase, RelationChangedEvent, RelationJoinedEvent
from ops.framework import EventBase, EventSource, Object, ObjectEvents

# Charmhub identity of this library; stays fixed for its whole life.
LIBID = "c07e3f1a52b94d8e9f6a7b1c2d3e4f50"

# Major version: bumped only for incompatible changes (a new vN directory).
LIBAPI = 0

# Patch version: bumped on every publish, back to 0 with a new major version.
LIBPATCH = 7

logger = logging.getLogger(__name__)


class ClientRequestedEvent(EventBase):
    """A related application asked for access to a ledger namespace."""

    def __init__(self, handle, relation_id: int, namespace: str):
        super().__init__(handle)
        self.relation_id = relation_id
        self.namespace = namespace

    def snapshot(self) -> Dict:
        return {"relation_id": self.relation_id, "namespace": self.namespace}

    def restore(self, snapshot: Dict) -> None:
        self.relation_id = snapshot["relation_id"]
        self.namespace = snapshot["namespace"]


class LedgerClientProviderEvents(ObjectEvents):
    client_requested = EventSource(ClientRequestedEvent)


class LedgerClientProvides(Object):
    """Provider side: emits `client_requested`, publishes endpoints and tokens."""

    on = LedgerClientProviderEvents()  # pyright: ignore[reportAssignmentType]

    def __init__(self, charm: CharmBase, relation_name: str = "ledger-client"):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.relation_name = relation_name
        self.framework.observe(charm.on[relation_name].relation_joined, self._on_relation_joined)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_relation_changed)

    def _on_relation_joined(self, event: RelationJoinedEvent) -> None:
        if self.charm.unit.is_leader():
            event.relation.data[self.charm.app]["protocol"] = "ledger/2"

    def _on_relation_changed(self, event: RelationChangedEvent) -> None:
        if not self.charm.unit.is_leader() or event.app is None:
            return
        namespace = event.relation.data[event.app].get("namespace")
        if namespace:
            self.on.client_requested.emit(event.relation.id, namespace)

    def publish(self, relation_id: int, endpoints: List[str], token: str) -> None:
        """Answer one client with the endpoints and its token."""
        for relation in self.model.relations[self.relation_name]:
            if relation.id == relation_id:
                relation.data[self.charm.app].update(
                    {"endpoints": ",".join(endpoints), "token": token}
                )

    def update_endpoints(self, endpoints: List[str]) -> None:
        """Refresh the endpoints on every client relation (after scaling)."""
        for relation in self.model.relations[self.relation_name]:
            relation.data[self.charm.app]["endpoints"] = ",".join(endpoints)


class LedgerClientRequires(Object):
    """Requirer side, for client charms: asks for a namespace, reads the answer."""

    def __init__(self, charm: CharmBase, namespace: str, relation_name: str = "ledger"):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.namespace = namespace
        self.relation_name = relation_name

    def request(self) -> None:
        relation = self.model.get_relation(self.relation_name)
        if relation is not None and self.charm.unit.is_leader():
            relation.data[self.charm.app]["namespace"] = self.namespace

    def endpoints(self) -> List[str]:
        relation = self.model.get_relation(self.relation_name)
        if relation is None or relation.app is None:
            return []
        return [e for e in relation.data[relation.app].get("endpoints", "").split(",") if e]

    def token(self) -> Optional[str]:
        relation = self.model.get_relation(self.relation_name)
        if relation is None or relation.app is None:
            return None
        return relation.data[relation.app].get("token")
