"""Requirer side of the `docstore` interface.

A charm that needs a document store instantiates `DocstoreRequires` in its
`__init__` and observes the two events it emits:

```python
from charms.docstore_k8s.v0.docstore import DocstoreRequires

class MyCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.store = DocstoreRequires(self)  # endpoint "database" by default
        framework.observe(self.store.on.database_ready, self._on_store_ready)
        framework.observe(self.store.on.database_gone, self._on_store_gone)
```

The provider answers with `endpoints` (comma-separated host:port) and the
name of a Juju secret holding `username` and `password`.
"""

import json
import logging
from typing import List, Optional

from ops.charm import CharmBase, RelationBrokenEvent, RelationChangedEvent, RelationJoinedEvent
from ops.framework import EventBase, EventSource, Object, ObjectEvents
from ops.model import Relation

# Charmhub identity of this library; stays fixed for its whole life.
LIBID = "5a1e0c2d9b7f4e63a8d4c61f0e29b7d3"

# Major version: bumped only for incompatible changes (a new vN directory).
LIBAPI = 0

# Patch version: bumped on every publish, back to 0 with a new major version.
LIBPATCH = 3

logger = logging.getLogger(__name__)


class DatabaseReadyEvent(EventBase):
    """The provider has published endpoints and credentials."""

    def __init__(self, handle, endpoints: str = ""):
        super().__init__(handle)
        self.endpoints = endpoints

    def snapshot(self) -> dict:
        return {"endpoints": self.endpoints}

    def restore(self, snapshot: dict) -> None:
        self.endpoints = snapshot["endpoints"]


class DatabaseGoneEvent(EventBase):
    """The relation to the document store was removed."""


class DocstoreRequirerEvents(ObjectEvents):
    database_ready = EventSource(DatabaseReadyEvent)
    database_gone = EventSource(DatabaseGoneEvent)


class DocstoreRequires(Object):
    """Asks a document store for a collection and reports when it is usable."""

    on = DocstoreRequirerEvents()  # pyright: ignore[reportAssignmentType]

    def __init__(self, charm: CharmBase, relation_name: str = "database", collection: str = ""):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.relation_name = relation_name
        self.collection = collection or charm.app.name
        self.framework.observe(charm.on[relation_name].relation_joined, self._on_relation_joined)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_relation_changed)
        self.framework.observe(charm.on[relation_name].relation_broken, self._on_relation_broken)

    @property
    def relation(self) -> Optional[Relation]:
        return self.model.get_relation(self.relation_name)

    def endpoints(self) -> List[str]:
        """The provider's endpoints, empty until it has answered."""
        relation = self.relation
        if relation is None or relation.app is None:
            return []
        raw = relation.data[relation.app].get("endpoints", "")
        return [e for e in raw.split(",") if e]

    def credentials(self) -> Optional[dict]:
        """Username and password from the provider's secret, if granted."""
        relation = self.relation
        if relation is None or relation.app is None:
            return None
        secret_id = relation.data[relation.app].get("secret-user")
        if not secret_id:
            return None
        return self.model.get_secret(id=secret_id).get_content(refresh=True)

    def is_ready(self) -> bool:
        return bool(self.endpoints()) and self.credentials() is not None

    def _on_relation_joined(self, event: RelationJoinedEvent) -> None:
        if not self.charm.unit.is_leader():
            return
        request = {"collection": self.collection, "requested-secrets": ["username", "password"]}
        event.relation.data[self.charm.app]["request"] = json.dumps(request)

    def _on_relation_changed(self, event: RelationChangedEvent) -> None:
        if self.is_ready():
            self.on.database_ready.emit(endpoints=",".join(self.endpoints()))
        else:
            logger.debug("docstore provider has not answered yet")

    def _on_relation_broken(self, event: RelationBrokenEvent) -> None:
        self.on.database_gone.emit()
