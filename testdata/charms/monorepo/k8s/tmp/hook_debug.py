# want mapped=false
"""Local debugging helper; k8s/.gitignore ignores tmp/."""

import pprint

from charm import BeaconK8sCharm


def dump_observers(charm: BeaconK8sCharm) -> None:
    pprint.pprint(sorted(charm.framework._observers))
