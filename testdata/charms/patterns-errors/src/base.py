"""A base class in another file: handlers it defines are found through inheritance."""

import ops


class SquallBase(ops.CharmBase):
    def _on_peers_changed(self, event: ops.RelationChangedEvent) -> None:
        pass
