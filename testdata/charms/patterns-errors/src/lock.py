"""A helper bound to a peer relation: given its name, or finding the charm's one itself."""

import ops


class PeerLock(ops.Object):
    def __init__(self, charm: ops.CharmBase, peer_relation_name: str | None = None):
        super().__init__(charm, "lock")
        self._relation = peer_relation_name or next(iter(charm.meta.peers))
