#!/usr/bin/env python3
"""Charm for the tern relay daemon."""

import os
import subprocess

import ops

from environment import daemon_environment
from proxy import proxy_environment
from validate import REQUIRED, REQUIRED_KEYPAIR, REQUIRED_TOKEN, require


class TernCharm(ops.CharmBase):
    """Starts the daemon with the charm's options as its environment."""

    def __init__(self, framework: ops.Framework):
        super().__init__(framework)
        framework.observe(self.on.config_changed, self._on_config_changed)  # want lifecycle=config-changed

    def _on_config_changed(self, event: ops.ConfigChangedEvent):
        try:
            self._validate()
        except ValueError as e:
            self.unit.status = ops.BlockedStatus(str(e))
            return
        env = daemon_environment(self.config)
        # the charm's options first: any of them may set the proxy
        env.update(proxy_environment([self.config, os.environ]))
        subprocess.run(["tern-relay", "--upstream", str(self.config.get("host"))], env=env, check=True)
        self.unit.status = ops.ActiveStatus()

    def _validate(self):
        if not self.config.get("host"):
            raise ValueError("option host is required")
        require(self.config, REQUIRED)
        if self.config["login"] == "token":
            require(self.config, REQUIRED_TOKEN)
        elif self.config["login"] == "keypair":
            require(self.config, REQUIRED_KEYPAIR)


if __name__ == "__main__":  # pragma: nocover
    ops.main(TernCharm)
