# want mapped=false
"""Scratch script: replay recorded relation data against the shared settings code.

Listed in .charmcraft-map-ignore, so the repository map never shows it.
"""

import json
import sys

from common.settings import BeaconSettings


class FakeCharm:
    def __init__(self, config: dict):
        self.config = config


def main(path: str) -> None:
    with open(path) as f:
        recorded = json.load(f)
    for config in recorded["configs"]:
        settings = BeaconSettings.load(FakeCharm(config))
        print(settings.command())


if __name__ == "__main__":
    main(sys.argv[1])
