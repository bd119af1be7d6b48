"""Requirer side of a PostgreSQL client interface (a vendored charm library).

Example, as text only:

    self.db = PgRequires(self)
    self.framework.observe(self.db.on.database_ready, self._on_ready)
"""

import ops

LIBID = "0f3a9c6e2b5d4f1a8e7c6b5a4d3c2b1a"
LIBAPI = 0
LIBPATCH = 2

DEFAULT_RELATION = "database"


class DatabaseReadyEvent(ops.RelationEvent):
    """The database answered with credentials."""


class PgEvents(ops.ObjectEvents):
    database_ready = ops.EventSource(DatabaseReadyEvent)


class PgRequires(ops.Object):
    """Binds to a relation endpoint, by default `database`."""

    on = PgEvents()  # pyright: ignore

    def __init__(self, charm: ops.CharmBase, relation_name: str = DEFAULT_RELATION):
        super().__init__(charm, relation_name)
        self._charm = charm
        self._relation_name = relation_name
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_relation_changed)
        self.framework.observe(charm.on.upgrade_charm, self._on_upgrade)  # want lifecycle=upgrade-charm

    def _on_relation_changed(self, event: ops.RelationChangedEvent) -> None:
        if event.relation.data[event.app].get("password"):
            self.on.database_ready.emit(event.relation)

    def _on_upgrade(self, event: ops.UpgradeCharmEvent) -> None:
        relation = self._charm.model.get_relation(self._relation_name)
        if relation:
            relation.data[self._charm.unit]["version"] = "2"


class PgProvides(ops.Object):
    """Provider side; the charm never builds one, so it binds nothing."""

    def __init__(self, charm: ops.CharmBase, relation_name: str = "postgresql"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_joined, self._on_joined)

    def _on_joined(self, event: ops.RelationJoinedEvent) -> None:
        pass
