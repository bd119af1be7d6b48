"""Beacon settings shared by both substrates.

Both charms declare `interval`, `message` and `verbose`; each adds its own
substrate-specific options and reads those itself.
"""

import dataclasses
from typing import List

import ops

MIN_INTERVAL = 5
MAX_MESSAGE = 120


class SettingsError(ValueError):
    """The charm config holds a value the beacon daemon would refuse."""


@dataclasses.dataclass(frozen=True)
class BeaconSettings:
    interval: int
    message: str
    verbose: bool

    @classmethod
    def load(cls, charm: ops.CharmBase) -> "BeaconSettings":
        interval = int(charm.config["interval"])
        if interval < MIN_INTERVAL:
            raise SettingsError(f"interval must be at least {MIN_INTERVAL}s")
        message = str(charm.config.get("message") or "")
        if len(message) > MAX_MESSAGE:
            raise SettingsError(f"message is longer than {MAX_MESSAGE} characters")
        return cls(interval=interval, message=message, verbose=bool(charm.config["verbose"]))

    def command(self, bind: str = "0.0.0.0") -> List[str]:
        """The beacond command line for these settings."""
        cmd = ["beacond", "--bind", bind, "--every", f"{self.interval}s"]
        if self.message:
            cmd += ["--message", self.message]
        if self.verbose:
            cmd.append("-v")
        return cmd
