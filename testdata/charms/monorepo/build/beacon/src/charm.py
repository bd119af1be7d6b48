# want mapped=false
"""Staged copy of the machine charm as charmcraft pack leaves it (ignored by build/)."""

import ops


class StagedBeaconCharm(ops.CharmBase):
    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        self.framework.observe(self.on.install, self._on_install)

    def _on_install(self, event: ops.InstallEvent) -> None:
        self.unit.status = ops.ActiveStatus()


if __name__ == "__main__":
    ops.main(StagedBeaconCharm)
