"""Code shared by the machine (`beacon`) and Kubernetes (`beacon-k8s`) charms.

Each charm's charmcraft.yaml copies this folder into the packed charm, so both
import it as the `common` package.
"""

from common.peers import PeerState
from common.settings import BeaconSettings, SettingsError

__all__ = ["BeaconSettings", "PeerState", "SettingsError"]
