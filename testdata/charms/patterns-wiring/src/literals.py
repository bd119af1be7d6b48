"""Names shared by the charm's modules."""

PEER = "tidepool-peers"
CONTAINER = "pool"
MESH = "mesh"
MESH_LEGACY = "mesh-legacy"
